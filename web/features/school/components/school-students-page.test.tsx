import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SchoolStudent, SchoolTeacher } from '@contract/school';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { stubServer } from '../test/fetch-stub';
import { SchoolStudentsPage } from './school-students-page';

vi.setConfig({ testTimeout: 20_000 });

const teachers: SchoolTeacher[] = [
  { id: 1, name: 'Mehmet Yılmaz', email: 'lehrer@example.com', active: true, deactivated_at: null, student_count: 2, created_at: '2026-09-01T08:00:00.000Z' },
  { id: 2, name: 'Anna Roth', email: 'anna@example.com', active: true, deactivated_at: null, student_count: 0, created_at: '2026-09-01T08:00:00.000Z' },
];
const student = (id: number, name: string, teacherId = 1): SchoolStudent => ({
  id,
  name,
  email: `${id}@example.com`,
  teacher: { id: teacherId, name: teachers.find((t) => t.id === teacherId)!.name, active: true },
  guardian_count: id === 3 ? 1 : 0,
  created_at: '2026-09-01T08:00:00.000Z',
});
const students = [student(3, 'Ayşe Demir'), student(4, 'Lukas Becker')];

const page = () => <SchoolStudentsPage renderGuardians={(s) => <p data-testid="guardians-of">{s.id}</p>} />;

beforeEach(async () => {
  localStorage.clear();
  localStorage.setItem('token', 'admin-token');
  await i18n.changeLanguage('de');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('SchoolStudentsPage', () => {
  it('lists students with teacher and guardians; search and teacher filter go to the server', async () => {
    const server = stubServer({
      'GET /api/school/teachers': { data: teachers },
      'GET /api/school/students': (c) => {
        const q = c.query.get('q')?.toLowerCase();
        const t = c.query.get('teacher_id');
        return jsonResponse(200, { data: students.filter((s) => (!q || s.name.toLowerCase().includes(q)) && (!t || String(s.teacher.id) === t)) });
      },
    });
    const user = userEvent.setup();
    renderWithApp(page(), { path: '/school/students' });
    const rows = await screen.findAllByTestId('school-student-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Ayşe Demir');
    expect(rows[0]).toHaveTextContent('Mehmet Yılmaz');
    expect(within(rows[0]!).getByTestId('guardian-count')).toHaveTextContent('1');
    expect(screen.getByTestId('school-students-count')).toHaveTextContent('2 Schüler');

    await user.type(screen.getByLabelText('Suchen'), 'ayş');
    await waitFor(() => expect(screen.getAllByTestId('school-student-row')).toHaveLength(1));
    expect(server.calls.some((c) => c.path === '/api/school/students' && c.query.get('q') === 'ayş')).toBe(true);

    await user.clear(screen.getByLabelText('Suchen'));
    await waitFor(() => expect(screen.getAllByTestId('school-student-row')).toHaveLength(2));
    await user.selectOptions(await screen.findByLabelText('Lehrkraft'), 'Anna Roth');
    expect(await screen.findByText('Keine Schüler gefunden')).toBeInTheDocument();
    expect(screen.getByText('Anna Roth hat keine Schüler.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Filter zurücksetzen' }));
    await waitFor(() => expect(screen.getAllByTestId('school-student-row')).toHaveLength(2));
  });

  it('exports with one click: the zip is fetched with the token and handed to the browser', async () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4]);
    const server = stubServer({
      'GET /api/school/teachers': { data: teachers },
      'GET /api/school/students': { data: students },
      'GET /api/school/students/3/export': () =>
        new Response(zip, {
          status: 200,
          headers: { 'content-type': 'application/zip', 'content-length': String(zip.byteLength), 'content-disposition': `attachment; filename="Ayse Demir 2026-11-21.zip"; filename*=UTF-8''Ay%C5%9Fe%20Demir%202026-11-21.zip` },
        }),
    });
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((b: Blob) => {
      created.push(b);
      return 'blob:export';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    const user = userEvent.setup();
    renderWithApp(page(), { path: '/school/students' });
    await user.click(await screen.findByRole('button', { name: 'Daten exportieren: Ayşe Demir' }));
    expect(await screen.findByText('Die Daten von Ayşe Demir wurden heruntergeladen (Ayşe Demir 2026-11-21.zip).')).toBeInTheDocument();
    const call = server.calls.find((c) => c.path === '/api/school/students/3/export')!;
    expect(call.headers.Authorization).toBe('Bearer admin-token');
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('Ayşe Demir 2026-11-21.zip');
    expect(clicked[0]!.href).toBe('blob:export');
    expect(created[0]!.size).toBe(zip.byteLength);
  });

  it('shows an export that failed in its row', async () => {
    stubServer({
      'GET /api/school/teachers': { data: teachers },
      'GET /api/school/students': { data: students },
      'GET /api/school/students/4/export': () => jsonResponse(404, { message: 'Nicht gefunden' }),
    });
    const user = userEvent.setup();
    renderWithApp(page(), { path: '/school/students' });
    await user.click(await screen.findByRole('button', { name: 'Daten exportieren: Lukas Becker' }));
    const row = screen.getAllByTestId('school-student-row')[1]!;
    await waitFor(() => expect(within(row).getByTestId('export-status')).toHaveTextContent('Export von Lukas Becker fehlgeschlagen: Nicht gefunden'));
    expect(within(row).getByRole('button', { name: 'Daten exportieren: Lukas Becker' })).toBeEnabled();
  });

  it('moves a student to another teacher (POST move) and erases one after the name is typed', async () => {
    const server = stubServer({
      'GET /api/school/teachers': { data: teachers },
      'GET /api/school/students': { data: students },
      'POST /api/school/students/3/move': (c) => jsonResponse(200, { ...students[0], teacher: { id: (c.body as { teacher_id: number }).teacher_id, name: 'Anna Roth', active: true } }),
      'POST /api/school/students/4/erase': () =>
        jsonResponse(200, { erased: { tasks: 1, practice_sessions: 2, recordings: 0, files: 0, guardian_accounts: 0 }, backups_note: 'Sicherungen enthalten die Daten noch.' }),
    });
    const user = userEvent.setup();
    renderWithApp(page(), { path: '/school/students' });
    await user.click(await screen.findByRole('button', { name: 'Lehrkraft wechseln: Ayşe Demir' }));
    let dialog = await screen.findByRole('dialog', { name: 'Lehrkraft wechseln: Ayşe Demir' });
    await user.selectOptions(within(dialog).getByLabelText('Neue Lehrkraft', { exact: false }), 'Anna Roth (0 Schüler)');
    await user.click(within(dialog).getByRole('button', { name: 'Lehrkraft wechseln' }));
    expect(await screen.findByText('Ayşe Demir wird jetzt von Anna Roth unterrichtet.')).toBeInTheDocument();
    expect(server.writes()[0]!.body).toEqual({ teacher_id: 2 });
    // the move dialog is closed before the next one opens
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'Daten löschen: Lukas Becker' }));
    dialog = await screen.findByRole('dialog', { name: 'Daten von Lukas Becker löschen' });
    await user.type(within(dialog).getByLabelText(/Geben Sie zur Bestätigung den Namen ein/), 'Lukas Becker');
    await user.click(await within(dialog).findByRole('button', { name: 'Endgültig löschen' }));
    expect(await screen.findByRole('dialog', { name: 'Daten gelöscht' })).toHaveTextContent('Sicherungen enthalten die Daten noch.');
    expect(server.writes()[1]).toMatchObject({ path: '/api/school/students/4/erase', body: { confirm_name: 'Lukas Becker' } });
  });

  it("opens a student's parents in a dialog", async () => {
    stubServer({ 'GET /api/school/teachers': { data: teachers }, 'GET /api/school/students': { data: students } });
    const user = userEvent.setup();
    renderWithApp(page(), { path: '/school/students' });
    await user.click(await screen.findByRole('button', { name: 'Eltern: Ayşe Demir' }));
    const dialog = await screen.findByRole('dialog', { name: 'Eltern von Ayşe Demir' });
    expect(within(dialog).getByTestId('guardians-of')).toHaveTextContent('3');
  });

  it('shows the empty school and a load error with retry', async () => {
    let fail = true;
    stubServer({
      'GET /api/school/teachers': { data: teachers },
      'GET /api/school/students': () => (fail ? jsonResponse(500, {}) : jsonResponse(200, { data: [] })),
    });
    const user = userEvent.setup();
    renderWithApp(page(), { path: '/school/students' });
    expect(await screen.findByText('Die Schüler konnten nicht geladen werden')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Noch keine Schüler')).toBeInTheDocument();
  });
});
