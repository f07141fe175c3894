import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { ApiError } from '@web/lib/api';
import type { Student } from '@contract/students';
import { StudentForm, type StudentFormValues } from './student-form';

const courses = [
  { id: 1, name: 'Bağlama Anfänger' },
  { id: 2, name: 'Gitarre' },
];
const student: Student = {
  id: 9,
  name: 'Lukas Becker',
  email: 'lukas@example.com',
  phone: '0170 1234567',
  notes: 'Übt abends',
  created_at: '2026-10-01T08:00:00.000Z',
  courses: [{ id: 2, name: 'Gitarre' }],
};

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(cleanup);
// Typing through user-event is slow on a busy machine.
vi.setConfig({ testTimeout: 20_000 });

function setup(props: Partial<Parameters<typeof StudentForm>[0]> = {}) {
  const onSubmit = vi.fn<(v: StudentFormValues) => Promise<void>>(async () => {});
  const onClose = vi.fn();
  render(<StudentForm open courses={courses} onClose={onClose} onSubmit={onSubmit} {...props} />);
  return { onSubmit, onClose, user: userEvent.setup() };
}

const field = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input, textarea' });

describe('StudentForm, create', () => {
  it('requires name, e-mail and password, checks the e-mail format and sends nothing', async () => {
    const { onSubmit, user } = setup();
    expect(screen.getByRole('dialog', { name: 'Neuen Schüler hinzufügen' })).toBeInTheDocument();
    expect(field('E-Mail')).toHaveAttribute('type', 'email');
    expect(screen.getByText('Mindestens 8 Zeichen empfohlen')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Schüler anlegen' }));
    expect(await screen.findByText('Bitte geben Sie einen Namen ein.')).toBeInTheDocument();
    expect(screen.getByText('Bitte geben Sie eine E-Mail-Adresse ein.')).toBeInTheDocument();
    expect(screen.getByText('Bitte geben Sie ein Passwort ein.')).toBeInTheDocument();
    await user.type(field('E-Mail'), 'keine-adresse');
    await user.click(screen.getByRole('button', { name: 'Schüler anlegen' }));
    expect(await screen.findByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('sends all fields with the ticked courses; phone and notes are optional (null)', async () => {
    const { onSubmit, user } = setup({ defaultCourseIds: [1] });
    expect(screen.getByRole('checkbox', { name: 'Bağlama Anfänger' })).toBeChecked();
    await user.type(field('Name'), ' Elif Kaya ');
    await user.type(field('E-Mail'), 'elif@example.com');
    await user.type(field('Passwort'), 'geheim123');
    await user.click(screen.getByRole('checkbox', { name: 'Gitarre' }));
    await user.click(screen.getByRole('button', { name: 'Schüler anlegen' }));
    await waitFor(() =>
      expect(onSubmit).toHaveBeenCalledWith({
        name: 'Elif Kaya',
        email: 'elif@example.com',
        password: 'geheim123',
        phone: null,
        notes: null,
        course_ids: [1, 2],
      }),
    );
  });

  it('refuses a password shorter than 8 characters', async () => {
    const { onSubmit, user } = setup();
    await user.type(field('Name'), 'Elif');
    await user.type(field('E-Mail'), 'elif@example.com');
    await user.type(field('Passwort'), '1234567');
    await user.click(screen.getByRole('button', { name: 'Schüler anlegen' }));
    expect(await screen.findByText('Das Passwort muss mindestens 8 Zeichen lang sein.')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('a 422 shows errors.password[0] under the password and the other errors under their fields', async () => {
    const { user } = setup({
      onSubmit: async () => {
        throw new ApiError(422, 'Bitte überprüfen Sie Ihre Eingaben', {
          password: ['Das Passwort ist zu schwach.', 'zweiter Fehler'],
          email: ['Diese E-Mail-Adresse wird bereits verwendet.'],
        });
      },
    });
    await user.type(field('Name'), 'Elif');
    await user.type(field('E-Mail'), 'elif@example.com');
    await user.type(field('Passwort'), 'geheim123');
    await user.click(screen.getByRole('button', { name: 'Schüler anlegen' }));
    const pw = await screen.findByText('Das Passwort ist zu schwach.');
    expect(field('Passwort').getAttribute('aria-describedby')).toContain(pw.id);
    expect(screen.queryByText('zweiter Fehler')).not.toBeInTheDocument();
    const mail = screen.getByText('Diese E-Mail-Adresse wird bereits verwendet.');
    expect(field('E-Mail').getAttribute('aria-describedby')).toContain(mail.id);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('says when there are no courses yet', () => {
    setup({ courses: [] });
    expect(screen.getByText('Noch keine Kurse angelegt.')).toBeInTheDocument();
  });
});

describe('StudentForm, edit', () => {
  it('is filled in; a blank password is optional and not sent', async () => {
    const { onSubmit, user } = setup({ student });
    expect(screen.getByRole('dialog', { name: 'Schüler bearbeiten' })).toBeInTheDocument();
    expect(field('Name')).toHaveValue('Lukas Becker');
    expect(field('E-Mail')).toHaveValue('lukas@example.com');
    expect(field('Telefon')).toHaveValue('0170 1234567');
    expect(field('Notizen')).toHaveValue('Übt abends');
    expect(field('Passwort')).toHaveValue('');
    expect(field('Passwort')).not.toBeRequired();
    expect(screen.getByText(/Leer lassen, um das bisherige Passwort zu behalten/)).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Gitarre' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Bağlama Anfänger' })).not.toBeChecked();
    await user.clear(field('Telefon'));
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    const sent = onSubmit.mock.calls[0]![0];
    expect(sent).toEqual({ name: 'Lukas Becker', email: 'lukas@example.com', phone: null, notes: 'Übt abends', course_ids: [2] });
    expect('password' in sent).toBe(false);
  });

  it('sends a new password when one is typed', async () => {
    const { onSubmit, user } = setup({ student });
    await user.type(field('Passwort'), 'neues-passwort');
    await user.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ password: 'neues-passwort' })));
  });

  it('speaks Turkish, including the password hint', async () => {
    await i18n.changeLanguage('tr');
    const { onClose, user } = setup({ student });
    expect(screen.getByRole('dialog', { name: 'Öğrenciyi düzenle' })).toBeInTheDocument();
    expect(screen.getByText(/En az 8 karakter önerilir/)).toBeInTheDocument();
    await user.clear(field('Ad Soyad'));
    await user.click(screen.getByRole('button', { name: 'Kaydet' }));
    expect(await screen.findByText('Lütfen bir ad girin.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'İptal' }));
    expect(onClose).toHaveBeenCalled();
  });
});
