import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AuditEntry, SchoolDashboard } from '@contract/school';
import i18n from '@web/lib/i18n';
import { formatDateTime } from '@web/lib/format';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { stubServer } from '../test/fetch-stub';
import { AuditLogPage } from './audit-log-page';
import { SchoolDashboardView } from './school-dashboard-view';

vi.setConfig({ testTimeout: 20_000 });

const entry = (id: number, action: AuditEntry['action'], over: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  created_at: '2026-11-20T09:15:00.000Z',
  actor: { id: 1, name: 'Sabine Verwaltung', role: 'admin' },
  action,
  target: null,
  details: null,
  ...over,
});

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('AuditLogPage', () => {
  it('shows who, what, on whom and when, and pages back with next_before', async () => {
    const server = stubServer({
      'GET /api/school/audit-log': (c) =>
        c.query.get('before') === '40'
          ? jsonResponse(200, { data: [entry(39, 'admin.sign_in')], next_before: null })
          : jsonResponse(200, {
              data: [
                entry(41, 'student.move', {
                  target: { type: 'user', id: 3, name: 'Ayşe Demir' },
                  details: { from: { id: 1, name: 'Mehmet Yılmaz' }, to: { id: 2, name: 'Anna Roth' } },
                }),
                entry(40, 'invite.accept', { actor: { id: 7, name: 'Anna Roth', role: 'teacher' }, target: { type: 'user', id: 7, name: 'Anna Roth' }, details: { role: 'teacher' } }),
              ],
              next_before: 40,
            }),
    });
    const user = userEvent.setup();
    renderWithApp(<AuditLogPage />);
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Sabine Verwaltung');
    expect(rows[0]).toHaveTextContent('Schulverwaltung');
    expect(within(rows[0]!).getByTestId('audit-action')).toHaveTextContent('Schüler einer anderen Lehrkraft zugeordnet');
    expect(rows[0]).toHaveTextContent('von Mehmet Yılmaz zu Anna Roth');
    expect(within(rows[0]!).getByTestId('audit-target')).toHaveTextContent('Ayşe Demir');
    expect(within(rows[0]!).getByText(formatDateTime('2026-11-20T09:15:00.000Z'))).toHaveAttribute('datetime', '2026-11-20T09:15:00.000Z');
    expect(rows[1]).toHaveTextContent('Lehrkraft');
    expect(within(rows[1]!).getByTestId('audit-action')).toHaveTextContent('Einladung angenommen');
    expect(screen.getByTestId('audit-count')).toHaveTextContent('2 Einträge angezeigt');

    await user.click(screen.getByRole('button', { name: 'Mehr laden' }));
    await waitFor(() => expect(screen.getAllByTestId('audit-row')).toHaveLength(3));
    expect(within(screen.getAllByTestId('audit-row')[2]!).getByTestId('audit-action')).toHaveTextContent('Hat sich angemeldet');
    expect(server.calls.filter((c) => c.path === '/api/school/audit-log').map((c) => c.query.get('before'))).toEqual([null, '40']);
    expect(screen.queryByRole('button', { name: 'Mehr laden' })).not.toBeInTheDocument();
    expect(screen.getByTestId('audit-count')).toHaveTextContent('Alle 3 Einträge angezeigt');
  });

  it('names the new actions and shows an erased actor or target as erased', async () => {
    stubServer({
      'GET /api/school/audit-log': {
        data: [
          entry(52, 'student.delete', { actor: { id: 7, name: 'Anna Roth', role: 'teacher' }, target: { type: 'user', id: 3, name: null }, details: { tasks: 2, practice_sessions: 3, recordings: 0 } }),
          entry(51, 'student.password_reset', { actor: { id: 7, name: 'Anna Roth', role: 'teacher' }, target: { type: 'user', id: 4, name: 'Elif Kaya' }, details: null }),
          entry(50, 'student.email_change', { actor: { id: 7, name: 'Anna Roth', role: 'teacher' }, target: { type: 'user', id: 4, name: 'Elif Kaya' }, details: null }),
          entry(49, 'calendar.renew', { actor: { id: null, name: '', role: 'guardian' }, target: { type: 'user', id: 8, name: null }, details: null }),
        ],
        next_before: null,
      },
    });
    renderWithApp(<AuditLogPage />);
    const rows = await screen.findAllByTestId('audit-row');
    expect(rows.map((r) => within(r).getByTestId('audit-action').textContent)).toEqual([
      'Schüler gelöscht',
      'Passwort des Schülers neu gesetzt',
      'E-Mail-Adresse des Schülers geändert',
      'Kalenderadresse erneuert',
    ]);
    expect(rows[0]).toHaveTextContent('2 Aufgaben, 3 Übungssitzungen, 0 Aufnahmen');
    expect(within(rows[0]!).getByTestId('audit-target')).toHaveTextContent('(gelöscht)');
    expect(within(rows[1]!).getByTestId('audit-target')).toHaveTextContent('Elif Kaya');
    expect(rows[3]).toHaveTextContent('(gelöscht)');
  });

  it('has an empty state and speaks Turkish', async () => {
    await i18n.changeLanguage('tr');
    stubServer({ 'GET /api/school/audit-log': { data: [], next_before: null } });
    renderWithApp(<AuditLogPage />);
    expect(await screen.findByText('Henüz girdi yok')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Kayıt defteri' })).toBeInTheDocument();
  });
});

const dashboard: SchoolDashboard = {
  school: { id: 1, name: 'Musikschule Klangwelt', time_zone: 'Europe/Berlin' },
  teachers: { active: 2, deactivated: 1 },
  students: { total: 6, active: 4 },
  guardians: 1,
  weeks: Array.from({ length: 8 }, (_, i) => ({
    week_start: new Date(Date.UTC(2026, 9, 5 + i * 7)).toISOString().slice(0, 10),
    practice_minutes: i * 30,
    tasks_completed: i,
  })),
};

describe('SchoolDashboardView', () => {
  it('shows the school, its figures and the weeks as a table', async () => {
    stubServer({ 'GET /api/school/dashboard': dashboard });
    renderWithApp(<SchoolDashboardView />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Musikschule Klangwelt' })).toBeInTheDocument();
    expect(screen.getByTestId('kpi-students')).toHaveTextContent('4 von 6');
    expect(screen.getByTestId('kpi-teachers')).toHaveTextContent('2');
    expect(screen.getByText('1 deaktiviert')).toBeInTheDocument();
    expect(screen.getByTestId('kpi-guardians')).toHaveTextContent('1');
    expect(screen.getByTestId('kpi-minutes')).toHaveTextContent('3:30 h');
    const table = screen.getByTestId('school-weeks-table');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(9);
    expect(rows[1]).toHaveTextContent('Diese Woche (ab 23.11.2026)');
    expect(rows[1]).toHaveTextContent('3:30 h');
    expect(rows[8]).toHaveTextContent('Woche ab 05.10.2026');
    expect(screen.getByRole('link', { name: /Protokoll/ })).toHaveAttribute('href', '/school/audit');
  });

  it('renames the school after checking the name', async () => {
    const server = stubServer({
      'GET /api/school/dashboard': dashboard,
      'PATCH /api/school': (c) => jsonResponse(200, { id: 1, name: (c.body as { name: string }).name, time_zone: 'Europe/Berlin' }),
    });
    const user = userEvent.setup();
    renderWithApp(<SchoolDashboardView />);
    await user.click(await screen.findByRole('button', { name: 'Umbenennen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schule umbenennen' });
    const input = within(dialog).getByLabelText('Name der Schule', { exact: false });
    expect(input).toHaveValue('Musikschule Klangwelt');
    await user.clear(input);
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await within(dialog).findByText('Bitte geben Sie einen Namen ein.')).toBeInTheDocument();
    await user.type(input, 'Musikschule Klangwelt Köln');
    await user.click(within(dialog).getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Die Schule heißt jetzt „Musikschule Klangwelt Köln“.')).toBeInTheDocument();
    expect(server.writes()[0]).toMatchObject({ method: 'PATCH', path: '/api/school', body: { name: 'Musikschule Klangwelt Köln' } });
  });

  it('shows an error with retry', async () => {
    stubServer({ 'GET /api/school/dashboard': () => jsonResponse(500, {}) });
    renderWithApp(<SchoolDashboardView />);
    expect(await screen.findByText('Die Übersicht konnte nicht geladen werden')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeEnabled();
  });
});
