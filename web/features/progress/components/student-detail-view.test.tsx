import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import type { StudentMetrics, StudentOverview } from '@contract/metrics';
import type { Submission } from '@contract/submissions';
import { StudentDetailView } from './student-detail-view';

const counts = { total_submissions: 6, completed_submissions: 3, open_submissions: 1, overdue_submissions: 1, expired_submissions: 1, completion_rate: 60 };
const done: Submission = {
  id: 11, student: { id: 4, name: 'Elif Kaya' }, exercise: null, exercise_title: 'Makam Rast – Tetrachorde', course_id: null, series_id: 's',
  due_date: '2026-11-20', expiration_date: '2026-11-22', completed_at: '2026-11-20T16:30:00.000Z', teacher_note: 'Langsam beginnen',
  teacher_feedback: null, created_at: '2026-11-01T10:00:00.000Z', accuracy_score: null, time_spent_minutes: 75, competency_level: null, status: 'completed', new_feedback: false,
};
const expired: Submission = { ...done, id: 12, exercise_title: 'Usul Düyek', completed_at: null, due_date: '2026-11-10', expiration_date: '2026-11-12', status: 'expired', time_spent_minutes: 0, teacher_note: null };
const overview: StudentOverview = { student: { id: 4, name: 'Elif Kaya', email: 'elif@example.com' }, kpis: { ...counts, current_streak: 3 }, recent_submissions: [done, expired] };
const metrics: StudentMetrics = {
  current_streak: 3, average_accuracy: null, total_practice_time_minutes: 75, weekly_practice_time_minutes: 30, average_session_time_minutes: 25,
  top_competency_level: null, total_practice_sessions: 3, overall_metrics: counts,
  progress_data: Array.from({ length: 30 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, practice_time_minutes: 0 })),
};

type Call = { method: string; path: string; body: unknown };
function serve(route: (path: string, method: string) => Response) {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      calls.push({ method, path: url.pathname, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return route(url.pathname, method);
    }),
  );
  return calls;
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('StudentDetailView', { timeout: 20_000 }, () => {
  it('shows header, streak, KPIs, statistics and recent tasks; a review saves and reloads the numbers', async () => {
    const calls = serve((path, method) => {
      if (path === '/api/students/4/overview') return jsonResponse(200, overview);
      if (path === '/api/students/4/metrics') return jsonResponse(200, metrics);
      if (path === '/api/submissions/11/review' && method === 'PATCH') return jsonResponse(200, { ...done, accuracy_score: 90, competency_level: 'expert' });
      return jsonResponse(404, { message: 'Nicht gefunden.' });
    });
    // the screen composes the task panel in (docs/decisions/feature-boundaries.md); here a stand-in that shows which task it was given
    const taskPanel = ({ submissionId }: { submissionId: number | null }) => (submissionId === null ? null : <p data-testid="panel-slot">{submissionId}</p>);
    renderWithApp(<StudentDetailView studentId={4} taskPanel={taskPanel} />, { path: '/students/4' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Elif Kaya' })).toBeInTheDocument();
    expect(screen.getByTestId('student-streak')).toHaveTextContent('Serie: 3 Tage');
    expect(screen.getByTestId('kpi-completed-value')).toHaveTextContent('3');
    expect(screen.getByTestId('kpi-expired-value')).toHaveTextContent('1');
    expect(screen.getByTestId('kpi-rate-value')).toHaveTextContent('60 %');
    expect(await screen.findByTestId('stat-total')).toHaveTextContent('1:15 h');
    expect(screen.getByTestId('stat-level')).toHaveTextContent('Nicht definiert');
    expect(screen.getByText('Keine Übungszeit in den letzten 30 Tagen')).toBeInTheDocument();
    const expiredRow = screen.getByTestId('recent-12');
    expect(within(expiredRow).getByText('Verfallen seit')).toBeInTheDocument();
    expect(within(expiredRow).getByText('12.11.2026')).toBeInTheDocument();
    // only completed tasks can be reviewed; every task can be opened in the side panel
    expect(within(expiredRow).queryByRole('button', { name: /Bewert/ })).toBeNull();
    expect(within(expiredRow).getByRole('button', { name: /öffnen$/ })).toBeInTheDocument();
    const row = screen.getByTestId('recent-11');
    expect(within(row).getByText('Langsam beginnen')).toBeInTheDocument();
    expect(within(row).getByText('1:15 h')).toBeInTheDocument();

    const user = userEvent.setup({ delay: null });
    expect(screen.queryByTestId('panel-slot')).toBeNull();
    await user.click(within(expiredRow).getByRole('button', { name: /öffnen$/ }));
    expect(screen.getByTestId('panel-slot')).toHaveTextContent('12');
    await user.click(within(row).getByRole('button', { name: /Bewerten/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Aufgabe bewerten' });
    await user.type(within(dialog).getByLabelText(/Genauigkeit/), '90');
    await user.selectOptions(within(dialog).getByLabelText(/Kompetenzniveau/), 'Meister');
    await user.click(within(dialog).getByRole('button', { name: 'Bewertung speichern' }));
    expect(await screen.findByText('Bewertung gespeichert')).toBeInTheDocument();
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch).toEqual({ method: 'PATCH', path: '/api/submissions/11/review', body: { accuracy_score: 90, competency_level: 'expert', teacher_feedback: null } });
    // overview and metrics are loaded again
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/students/4/overview')).toHaveLength(2));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/students/4/metrics')).toHaveLength(2));
  });

  it('a 404 shows the not-found panel with the way back, without an error toast', async () => {
    serve(() => jsonResponse(404, { message: 'Nicht gefunden.' }));
    renderWithApp(<StudentDetailView studentId={99} />, { path: '/students/99' });
    expect(await screen.findByRole('heading', { name: 'Schüler nicht gefunden' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zurück zur Schülerliste' })).toHaveAttribute('href', '/students');
    expect(screen.queryByText('Fehler beim Laden der Übersicht')).toBeNull();
  });

  it('other failures show both error messages; a 403 stays silent', async () => {
    serve(() => jsonResponse(500, { message: 'Ein unerwarteter Fehler ist aufgetreten.' }));
    renderWithApp(<StudentDetailView studentId={4} />, { path: '/students/4' });
    expect((await screen.findAllByText('Fehler beim Laden der Übersicht')).length).toBeGreaterThan(0);
    expect((await screen.findAllByText('Fehler beim Laden der Metriken')).length).toBeGreaterThan(0);
    cleanup();
    vi.unstubAllGlobals();

    serve(() => jsonResponse(403, { message: 'Sie haben keine Berechtigung für diese Aktion.' }));
    renderWithApp(<StudentDetailView studentId={4} />, { path: '/students/4' });
    expect(await screen.findByText('Keine Berechtigung für diese Ansicht.')).toBeInTheDocument();
    expect(screen.queryByText('Fehler beim Laden der Übersicht')).toBeNull();
    expect(screen.queryByText('Fehler beim Laden der Metriken')).toBeNull();
  });

  it('an invalid id in the address shows the not-found panel without calling the API', async () => {
    const calls = serve(() => jsonResponse(200, {}));
    renderWithApp(<StudentDetailView studentId={null} />, { path: '/students/abc' });
    expect(await screen.findByRole('heading', { name: 'Schüler nicht gefunden' })).toBeInTheDocument();
    expect(calls.filter((c) => c.path.startsWith('/api/students'))).toHaveLength(0);
  });
});
