import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { GuardianAddResponse, StudentGuardiansResponse } from '@contract/guardians';
import type { Invite } from '@contract/school';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { Modal } from '@web/components/ui/modal';
import { StudentGuardians } from './student-guardians';

vi.setConfig({ testTimeout: 20_000 });

const STUDENT = 12;
const base = `/api/students/${STUDENT}/guardians`;

const guardian = { id: 40, name: 'Fatma Demir', email: 'fatma@example.com', created_at: '2026-09-01T08:00:00.000Z' };
const invite = (over: Partial<Invite> = {}): Invite => ({
  id: 5,
  kind: 'guardian',
  name: 'Ali Demir',
  email: 'ali@example.com',
  students: [{ id: STUDENT, name: 'Ayşe Demir' }],
  created_at: '2026-09-02T08:00:00.000Z',
  expires_at: '2026-09-16T08:00:00.000Z',
  state: 'open',
  created_by: 'Mehmet Yılmaz',
  ...over,
});

type Call = { url: string; method: string; body: unknown };

/** A server stand-in: the list answer (changeable), and a handler for writes. */
function server(list: StudentGuardiansResponse, write?: (c: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const state = { list };
  const fn = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const call = { url, method, body: init.body ? JSON.parse(String(init.body)) : undefined };
    calls.push(call);
    if (method === 'GET' && url.startsWith(base)) return jsonResponse(200, state.list);
    if (write) return write(call);
    return jsonResponse(500, { message: 'unexpected' });
  });
  vi.stubGlobal('fetch', fn);
  return { calls, state, writes: () => calls.filter((c) => c.method !== 'GET') };
}

const field = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input' });

async function openAndFill(name: string, email: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Elternteil hinzufügen' }));
  const dialog = await screen.findByRole('dialog', { name: 'Elternteil hinzufügen' });
  await user.type(within(dialog).getByLabelText('Name', { exact: false }), name);
  await user.type(within(dialog).getByLabelText('E-Mail-Adresse', { exact: false }), email);
  await user.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
  return { user, dialog };
}

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('StudentGuardians: the list', () => {
  it('shows the guardians (name, e-mail, since) and only the open invitations', async () => {
    server({ guardians: [guardian], invites: [invite(), invite({ id: 6, name: 'Abgelaufen', state: 'expired' })] });
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    expect(screen.getByRole('region', { name: 'Eltern' })).toBeInTheDocument();
    expect(screen.getByTestId('guardians-loading')).toBeInTheDocument();
    const row = await screen.findByTestId('guardian');
    expect(row).toHaveTextContent('Fatma Demir');
    expect(row).toHaveTextContent('fatma@example.com');
    expect(row).toHaveTextContent('verknüpft seit 01.09.2026');
    const invites = screen.getByTestId('guardian-invites');
    expect(within(invites).getByText('Ali Demir')).toBeInTheDocument();
    expect(invites).toHaveTextContent('Einladung offen');
    expect(invites).toHaveTextContent('gültig bis 16.09.2026');
    expect(screen.queryByText('Abgelaufen')).not.toBeInTheDocument();
  });

  it('says what to do when there is nobody yet', async () => {
    server({ guardians: [], invites: [invite({ state: 'accepted' })] });
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    expect(await screen.findByText('Noch keine Eltern verknüpft')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Elternteil hinzufügen' })).toBeEnabled();
  });

  it('shows an error with a retry that loads again', async () => {
    let fail = true;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => (fail ? jsonResponse(500, { message: 'kaputt' }) : jsonResponse(200, { guardians: [guardian], invites: [] }))),
    );
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Die Eltern konnten nicht geladen werden.');
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Fatma Demir')).toBeInTheDocument();
  });
});

describe('StudentGuardians: adding a parent', () => {
  it('checks the fields first and sends nothing', async () => {
    const s = server({ guardians: [], invites: [] });
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Elternteil hinzufügen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elternteil hinzufügen' });
    await user.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
    expect(await within(dialog).findByText('Bitte geben Sie einen Namen ein.')).toBeInTheDocument();
    expect(within(dialog).getByText('Bitte geben Sie eine E-Mail-Adresse ein.')).toBeInTheDocument();
    expect(field('Name')).toHaveFocus();
    await user.type(field('Name'), 'Ali');
    await user.type(field('E-Mail-Adresse'), 'keine-adresse');
    await user.click(within(dialog).getByRole('button', { name: 'Hinzufügen' }));
    expect(await within(dialog).findByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).toBeInTheDocument();
    expect(s.writes()).toEqual([]);
    // Cancelled and opened again at once: an empty form, and what is typed now stays.
    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    await user.click(screen.getByRole('button', { name: 'Elternteil hinzufügen' }));
    const again = await screen.findByRole('dialog', { name: 'Elternteil hinzufügen' });
    expect(within(again).getByLabelText('Name', { exact: false })).toHaveValue('');
    expect(within(again).queryByText('Bitte geben Sie eine gültige E-Mail-Adresse ein.')).not.toBeInTheDocument();
    await user.type(within(again).getByLabelText('Name', { exact: false }), 'Ali');
    await new Promise((r) => setTimeout(r, 400));
    expect(within(again).getByLabelText('Name', { exact: false })).toHaveValue('Ali');
  });

  it("links an existing guardian account: says 'verknüpft' and the list loads again", async () => {
    const linked: GuardianAddResponse = { guardian, invite: null };
    const s = server({ guardians: [], invites: [] }, (c) => {
      s.state.list = { guardians: [guardian], invites: [] };
      return c.method === 'POST' ? jsonResponse(201, linked) : jsonResponse(500, {});
    });
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    await screen.findByText('Noch keine Eltern verknüpft');
    await openAndFill(' Fatma Demir ', 'fatma@example.com');
    expect(await screen.findByRole('dialog', { name: 'Verknüpft' })).toHaveTextContent('Fatma Demir hat bereits ein Elternkonto und ist jetzt mit diesem Schüler verknüpft.');
    expect(s.writes()).toEqual([{ url: base, method: 'POST', body: { name: 'Fatma Demir', email: 'fatma@example.com' } }]);
    expect(screen.queryByTestId('invite-url')).not.toBeInTheDocument();
    expect(await screen.findByTestId('guardian')).toHaveTextContent('Fatma Demir');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Fertig' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows the one-time invitation link read-only, copies it, and says it was not e-mailed', async () => {
    const url = 'http://localhost/einladung/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
    const created: GuardianAddResponse = { guardian: null, invite: { ...invite(), url, emailed: false } };
    server({ guardians: [], invites: [] }, () => jsonResponse(201, created));
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    await openAndFill('Ali Demir', 'ali@example.com');
    const dialog = await screen.findByRole('dialog', { name: 'Einladungslink erstellt' });
    const input = within(dialog).getByLabelText('Einladungslink');
    expect(input).toHaveValue(url);
    expect(input).toHaveAttribute('readonly');
    expect(input).toHaveAccessibleDescription('Nur einmal verwendbar, gültig bis 16.09.2026.');
    expect(dialog).toHaveTextContent('Es wurde keine E-Mail versendet. Geben Sie den Link selbst an ali@example.com weiter.');
    // user-event brings its own clipboard with setup(): ours replaces it afterwards.
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(within(dialog).getByRole('button', { name: 'Link kopieren' }));
    expect(writeText).toHaveBeenCalledWith(url);
    expect(await within(dialog).findByRole('button', { name: 'Kopiert' })).toBeInTheDocument();
    Reflect.deleteProperty(navigator, 'clipboard');
  });

  it('says when the link was also e-mailed; without the Clipboard API it copies through the selection', async () => {
    const url = 'http://localhost/einladung/x';
    server({ guardians: [], invites: [] }, () => jsonResponse(201, { guardian: null, invite: { ...invite(), url, emailed: true } }));
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    await openAndFill('Ali Demir', 'ali@example.com');
    const dialog = await screen.findByRole('dialog', { name: 'Einladungslink erstellt' });
    expect(dialog).toHaveTextContent('Der Link wurde auch per E-Mail an ali@example.com gesendet.');
    const user = userEvent.setup();
    Reflect.deleteProperty(navigator, 'clipboard');
    const exec = vi.fn(() => true);
    Object.defineProperty(document, 'execCommand', { value: exec, configurable: true });
    await user.click(within(dialog).getByRole('button', { name: 'Link kopieren' }));
    expect(exec).toHaveBeenCalledWith('copy');
    expect(within(dialog).getByLabelText('Einladungslink')).toHaveFocus();
    expect(await within(dialog).findByRole('button', { name: 'Kopiert' })).toBeInTheDocument();
    exec.mockReturnValue(false);
    await user.click(within(dialog).getByRole('button', { name: 'Kopiert' }));
    expect(await within(dialog).findByText(/Kopieren ist in diesem Browser nicht möglich/)).toBeInTheDocument();
    Reflect.deleteProperty(document, 'execCommand');
  });

  it("shows the server's 409 message at the e-mail field and keeps the dialog open", async () => {
    const message = 'Diese E-Mail-Adresse gehört zu einem Konto, das kein Elternkonto ist.';
    server({ guardians: [], invites: [] }, () => jsonResponse(409, { message }));
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    const { dialog } = await openAndFill('Ali', 'lehrer@example.com');
    const error = await within(dialog).findByText(message);
    const email = within(dialog).getByLabelText('E-Mail-Adresse', { exact: false });
    expect(email.getAttribute('aria-describedby')).toContain(error.id);
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveFocus();
    expect(screen.getByRole('dialog', { name: 'Elternteil hinzufügen' })).toBeInTheDocument();
  });

  it("shows a 422's field errors under their fields", async () => {
    server({ guardians: [], invites: [] }, () => jsonResponse(422, { message: 'Bitte überprüfen Sie Ihre Eingaben', errors: { name: ['Der Name ist zu lang.'] } }));
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    const { dialog } = await openAndFill('Ali', 'ali@example.com');
    const error = await within(dialog).findByText('Der Name ist zu lang.');
    expect(within(dialog).getByLabelText('Name', { exact: false }).getAttribute('aria-describedby')).toContain(error.id);
  });
});

describe('StudentGuardians: removing a parent', () => {
  it('asks first (the parent loses access at once); cancel keeps, confirm removes', async () => {
    const s = server({ guardians: [guardian], invites: [] }, (c) => {
      s.state.list = { guardians: [], invites: [] };
      return c.method === 'DELETE' ? new Response(null, { status: 204 }) : jsonResponse(500, {});
    });
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Fatma Demir entfernen' }));
    let dialog = await screen.findByRole('dialog', { name: 'Elternteil entfernen?' });
    expect(dialog).toHaveTextContent('Fatma Demir verliert sofort den Zugriff');
    await user.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(s.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Fatma Demir entfernen' }));
    dialog = await screen.findByRole('dialog', { name: 'Elternteil entfernen?' });
    await user.click(within(dialog).getByRole('button', { name: 'Entfernen' }));
    await waitFor(() => expect(s.writes()).toEqual([{ url: `${base}/40`, method: 'DELETE', body: undefined }]));
    expect(await screen.findByText('Fatma Demir wurde entfernt.')).toBeInTheDocument();
    expect(await screen.findByText('Noch keine Eltern verknüpft')).toBeInTheDocument();
  });
});

describe("StudentGuardians inside a dialog (the administrator's 'Eltern' of a student)", () => {
  // Each in its own test, so each starts with only the outer dialog open.
  const inOuterDialog = (onClose: () => void) =>
    renderWithApp(
      <Modal open onClose={onClose} title="Eltern von Ayşe Demir" size="2xl">
        <StudentGuardians studentId={STUDENT} />
      </Modal>,
    );

  it('removes after the confirmation; the outer dialog stays open', async () => {
    const s = server({ guardians: [guardian], invites: [] }, (c) => (c.method === 'DELETE' ? new Response(null, { status: 204 }) : jsonResponse(500, {})));
    const onClose = vi.fn();
    inOuterDialog(onClose);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Fatma Demir entfernen' }));
    const confirm = await screen.findByRole('dialog', { name: 'Elternteil entfernen?' });
    await user.click(within(confirm).getByRole('button', { name: 'Entfernen' }));
    await waitFor(() => expect(s.writes().map((w) => w.method)).toEqual(['DELETE']));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Elternteil entfernen?' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Eltern von Ayşe Demir' })).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('adds through its own dialog; the outer dialog stays open', async () => {
    server({ guardians: [guardian], invites: [] }, () => jsonResponse(201, { guardian: { ...guardian, id: 41, name: 'Ali Demir' }, invite: null }));
    const onClose = vi.fn();
    inOuterDialog(onClose);
    const { user } = await openAndFill('Ali Demir', 'ali@example.com');
    expect(await screen.findByRole('dialog', { name: 'Verknüpft' }, { timeout: 5000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Fertig' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Verknüpft' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Eltern von Ayşe Demir' })).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('StudentGuardians in Turkish', () => {
  it('speaks Turkish', async () => {
    await i18n.changeLanguage('tr');
    server({ guardians: [guardian], invites: [] });
    renderWithApp(<StudentGuardians studentId={STUDENT} />);
    expect(screen.getByRole('region', { name: 'Veliler' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Fatma Demir adlı veliyi kaldır' })).toHaveTextContent('Kaldır');
    expect(screen.getByRole('button', { name: 'Veli ekle' })).toBeInTheDocument();
  });
});
