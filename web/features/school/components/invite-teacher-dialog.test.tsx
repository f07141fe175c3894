import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { InviteCreated } from '@contract/school';
import i18n from '@web/lib/i18n';
import { ApiError } from '@web/lib/api';
import { InviteTeacherDialog } from './invite-teacher-dialog';

vi.setConfig({ testTimeout: 20_000 });

const URL_ = 'http://127.0.0.1:4173/einladung/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const created = (over: Partial<InviteCreated> = {}): InviteCreated => ({
  id: 7,
  kind: 'teacher',
  name: 'Anna Roth',
  email: 'anna@example.com',
  students: [],
  created_at: '2026-11-20T09:00:00.000Z',
  expires_at: '2026-12-04T09:00:00.000Z',
  state: 'open',
  created_by: 'Verwaltung',
  url: URL_,
  emailed: false,
  ...over,
});

function setup(onInvite = vi.fn(async () => created())) {
  const onClose = vi.fn();
  const user = userEvent.setup();
  render(<InviteTeacherDialog open onClose={onClose} onInvite={onInvite} />);
  return { user, onInvite, onClose };
}

const field = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input' });

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => vi.restoreAllMocks());

describe('InviteTeacherDialog', () => {
  it('asks for name and a valid e-mail before sending anything', async () => {
    const { user, onInvite } = setup();
    expect(screen.getByRole('dialog', { name: 'Lehrkraft einladen' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Einladung erstellen' }));
    expect(await screen.findByText('Bitte geben Sie einen Namen ein.')).toBeInTheDocument();
    expect(screen.getByText('Bitte geben Sie eine E-Mail-Adresse ein.')).toBeInTheDocument();
    expect(field('Name')).toHaveFocus();
    expect(field('Name')).toHaveAttribute('aria-invalid', 'true');
    await user.type(field('Name'), 'Anna Roth');
    await user.type(field('E-Mail'), 'anna@');
    await user.click(screen.getByRole('button', { name: 'Einladung erstellen' }));
    expect(await screen.findByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeInTheDocument();
    expect(onInvite).not.toHaveBeenCalled();
  });

  it('shows the one-time link read-only, copies it and says that it was not e-mailed', async () => {
    const { user, onInvite } = setup();
    await user.type(field('Name'), '  Anna Roth ');
    await user.type(field('E-Mail'), 'anna@example.com');
    await user.click(screen.getByRole('button', { name: 'Einladung erstellen' }));
    expect(onInvite).toHaveBeenCalledWith({ name: 'Anna Roth', email: 'anna@example.com' });
    const dialog = await screen.findByRole('dialog', { name: 'Einladung erstellt' });
    const link = within(dialog).getByLabelText('Einladungslink');
    expect(link).toHaveValue(URL_);
    expect(link).toHaveAttribute('readonly');
    expect(link).toHaveAccessibleDescription('Nur einmal verwendbar, gültig bis 04.12.2026.');
    expect(within(dialog).getByTestId('invite-emailed')).toHaveTextContent('Es wurde keine E-Mail versendet. Geben Sie den Link selbst an anna@example.com weiter.');

    await user.click(within(dialog).getByRole('button', { name: 'Link kopieren' }));
    expect(await within(dialog).findByText('Der Link ist in der Zwischenablage.')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(URL_);
    expect(within(dialog).getByRole('button', { name: 'Kopiert' })).toBeInTheDocument();
  });

  it('says so when the link was e-mailed, and falls back to selecting the link when the clipboard refuses', async () => {
    const { user } = setup(vi.fn(async () => created({ emailed: true })));
    await user.type(field('Name'), 'Anna Roth');
    await user.type(field('E-Mail'), 'anna@example.com');
    await user.click(screen.getByRole('button', { name: 'Einladung erstellen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Einladung erstellt' });
    expect(within(dialog).getByTestId('invite-emailed')).toHaveTextContent('Der Link wurde auch per E-Mail an anna@example.com gesendet.');

    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    await user.click(within(dialog).getByRole('button', { name: 'Link kopieren' }));
    expect(await within(dialog).findByText(/Kopieren ist in diesem Browser nicht möglich/)).toBeInTheDocument();
    const link = within(dialog).getByLabelText('Einladungslink') as HTMLInputElement;
    expect(link).toHaveFocus();
    expect(link.selectionStart).toBe(0);
    expect(link.selectionEnd).toBe(URL_.length);
  });

  it("shows the server's 409 under the e-mail and keeps the form", async () => {
    const onInvite = vi.fn(async () => {
      throw new ApiError(409, 'Conflict', undefined, { message: 'Für diese E-Mail-Adresse gibt es schon ein Konto.' });
    });
    const { user } = setup(onInvite);
    await user.type(field('Name'), 'Anna Roth');
    await user.type(field('E-Mail'), 'lehrer@example.com');
    await user.click(screen.getByRole('button', { name: 'Einladung erstellen' }));
    await waitFor(() => expect(field('E-Mail')).toHaveAccessibleDescription(/Für diese E-Mail-Adresse gibt es schon ein Konto\./));
    expect(screen.getByRole('dialog', { name: 'Lehrkraft einladen' })).toBeInTheDocument();
  });

  it('is translated to Turkish', async () => {
    await i18n.changeLanguage('tr');
    const { user } = setup();
    expect(screen.getByRole('dialog', { name: 'Öğretmen davet et' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Davet oluştur' }));
    expect(await screen.findByText('Lütfen bir ad girin.')).toBeInTheDocument();
    expect(screen.getByText('Lütfen bir e-posta adresi girin.')).toBeInTheDocument();
  });
});
