import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Invite, SchoolTeacher } from '@contract/school';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { stubServer } from '../test/fetch-stub';
import { TeachersPage } from './teachers-page';

vi.setConfig({ testTimeout: 20_000 });

const teacher = (over: Partial<SchoolTeacher>): SchoolTeacher => ({
  id: 1,
  name: 'Mehmet Yılmaz',
  email: 'lehrer@example.com',
  active: true,
  deactivated_at: null,
  student_count: 6,
  created_at: '2026-09-01T08:00:00.000Z',
  ...over,
});
const invite = (over: Partial<Invite>): Invite => ({
  id: 9,
  kind: 'teacher',
  name: 'Anna Roth',
  email: 'anna@example.com',
  students: [],
  created_at: '2026-11-20T09:00:00.000Z',
  expires_at: '2026-12-04T09:00:00.000Z',
  state: 'open',
  created_by: 'Verwaltung',
  ...over,
});

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('TeachersPage', () => {
  it('lists teachers with e-mail, students and state, and the invitations with their state', async () => {
    stubServer({
      'GET /api/school/teachers': { data: [teacher({}), teacher({ id: 2, name: 'Peter Alt', email: 'peter@example.com', active: false, deactivated_at: '2026-11-01T08:00:00.000Z', student_count: 0 })] },
      'GET /api/school/invites': {
        data: [invite({}), invite({ id: 8, name: 'Fatma Demir', kind: 'guardian', students: [{ id: 3, name: 'Ayşe Demir' }], state: 'accepted' })],
      },
    });
    renderWithApp(<TeachersPage />);
    const rows = await screen.findAllByTestId('teacher-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Mehmet Yılmaz');
    expect(rows[0]).toHaveTextContent('lehrer@example.com');
    expect(within(rows[0]!).getByTestId('teacher-state')).toHaveTextContent('Aktiv');
    expect(within(rows[1]!).getByTestId('teacher-state')).toHaveTextContent('Deaktiviert');
    expect(within(rows[1]!).getByRole('button', { name: 'Wieder aktivieren: Peter Alt' })).toBeInTheDocument();
    expect(screen.getByText('1 aktiv · 1 deaktiviert')).toBeInTheDocument();

    const invites = await screen.findAllByTestId('invite-row');
    expect(within(invites[0]!).getByTestId('invite-state')).toHaveTextContent('Offen');
    expect(within(invites[0]!).getByRole('button', { name: 'Widerrufen: Einladung von Anna Roth' })).toBeInTheDocument();
    expect(invites[1]).toHaveTextContent('Eltern von Ayşe Demir');
    expect(within(invites[1]!).getByTestId('invite-state')).toHaveTextContent('Angenommen');
    expect(within(invites[1]!).queryByRole('button')).not.toBeInTheDocument();
  });

  it('deactivates after a confirmation that says what happens', async () => {
    let active = true;
    const server = stubServer({
      'GET /api/school/teachers': () => jsonResponse(200, { data: [teacher({ active, deactivated_at: active ? null : '2026-11-21T08:00:00.000Z' })] }),
      'GET /api/school/invites': { data: [] },
      'POST /api/school/teachers/1/deactivate': () => {
        active = false;
        return jsonResponse(200, teacher({ active: false, deactivated_at: '2026-11-21T08:00:00.000Z' }));
      },
    });
    const user = userEvent.setup();
    renderWithApp(<TeachersPage />);
    await user.click(await screen.findByRole('button', { name: 'Deaktivieren: Mehmet Yılmaz' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mehmet Yılmaz deaktivieren?' });
    expect(dialog).toHaveTextContent('kann sich danach nicht mehr anmelden');
    expect(dialog).toHaveTextContent('Die Schüler (6) und alle Daten bleiben erhalten');
    await user.click(within(dialog).getByRole('button', { name: 'Deaktivieren' }));
    expect(await screen.findByText('Mehmet Yılmaz wurde deaktiviert.')).toBeInTheDocument();
    expect(server.writes().map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/school/teachers/1/deactivate']);
    await waitFor(() => expect(screen.getByTestId('teacher-state')).toHaveTextContent('Deaktiviert'));
  });

  it('revokes an open invitation after asking', async () => {
    const server = stubServer({
      'GET /api/school/teachers': { data: [teacher({})] },
      'GET /api/school/invites': { data: [invite({})] },
      'DELETE /api/school/invites/9': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderWithApp(<TeachersPage />);
    await user.click(await screen.findByRole('button', { name: 'Widerrufen: Einladung von Anna Roth' }));
    const dialog = await screen.findByRole('dialog', { name: 'Einladung widerrufen?' });
    expect(dialog).toHaveTextContent('Der Link für Anna Roth funktioniert danach nicht mehr.');
    await user.click(within(dialog).getByRole('button', { name: 'Widerrufen' }));
    expect(await screen.findByText('Die Einladung von Anna Roth wurde widerrufen.')).toBeInTheDocument();
    expect(server.writes()).toHaveLength(1);
  });

  it('invites a teacher through the dialog (POST /api/school/invites) and shows the link', async () => {
    const server = stubServer({
      'GET /api/school/teachers': { data: [] },
      'GET /api/school/invites': { data: [] },
      'POST /api/school/invites': (c) => jsonResponse(201, { ...invite({}), ...(c.body as object), url: 'http://x/einladung/abc', emailed: false }),
    });
    const user = userEvent.setup();
    renderWithApp(<TeachersPage />);
    expect(await screen.findByText('Noch keine Lehrkräfte')).toBeInTheDocument();
    expect(screen.getByText('Noch keine Einladungen')).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Lehrkraft einladen' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Lehrkraft einladen' });
    await user.type(within(dialog).getByLabelText('Name', { exact: false }), 'Anna Roth');
    await user.type(within(dialog).getByLabelText('E-Mail', { exact: false }), 'anna@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Einladung erstellen' }));
    expect(await screen.findByLabelText('Einladungslink')).toHaveValue('http://x/einladung/abc');
    expect(server.writes()[0]!.body).toEqual({ name: 'Anna Roth', email: 'anna@example.com' });
  });

  it('shows an error with retry when the list cannot be loaded', async () => {
    let fail = true;
    stubServer({
      'GET /api/school/teachers': () => (fail ? jsonResponse(500, { message: 'kaputt' }) : jsonResponse(200, { data: [teacher({})] })),
      'GET /api/school/invites': { data: [] },
    });
    const user = userEvent.setup();
    renderWithApp(<TeachersPage />);
    expect(await screen.findByText('Die Lehrkräfte konnten nicht geladen werden')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByTestId('teacher-row')).toHaveTextContent('Mehmet Yılmaz');
  });
});
