import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import type { StudentMetrics, StudentOverview } from '@contract/metrics';
import type { Submission } from '@contract/submissions';
import { StudentReport } from './student-report';

const counts = { total_submissions: 6, completed_submissions: 3, open_submissions: 1, overdue_submissions: 1, expired_submissions: 1, completion_rate: 60 };
const done: Submission = {
  id: 11, student: { id: 4, name: 'Elif Kaya' }, exercise: null, exercise_title: 'Makam Rast – Tetrachorde', course_id: null, series_id: 's',
  due_date: '2026-11-20', expiration_date: '2026-11-22', completed_at: '2026-11-20T16:30:00.000Z', teacher_note: null,
  teacher_feedback: null, created_at: '2026-11-01T10:00:00.000Z', accuracy_score: 92, time_spent_minutes: 75, competency_level: 'advanced', status: 'completed', new_feedback: false,
};
const overview: StudentOverview = { student: { id: 4, name: 'Elif Kaya', email: 'elif@example.com' }, kpis: { ...counts, current_streak: 3 }, recent_submissions: [done] };
const metrics: StudentMetrics = {
  current_streak: 3, average_accuracy: 92, total_practice_time_minutes: 75, weekly_practice_time_minutes: 30, average_session_time_minutes: 25,
  top_competency_level: 'advanced', total_practice_sessions: 3, overall_metrics: counts,
  progress_data: Array.from({ length: 30 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, practice_time_minutes: i === 29 ? 30 : 0 })),
};

function serve(route: (path: string) => Response) {
  const paths: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      paths.push(url.pathname);
      return route(url.pathname);
    }),
  );
  return paths;
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('StudentReport', { timeout: 20_000 }, () => {
  it("shows the student's figures from the overview and metrics calls and prints with 'Drucken'", async () => {
    const paths = serve((path) => (path.endsWith('/overview') ? jsonResponse(200, overview) : path.endsWith('/metrics') ? jsonResponse(200, metrics) : jsonResponse(404, { message: 'x' })));
    const print = vi.fn();
    vi.stubGlobal('print', print);
    const user = userEvent.setup();
    renderWithApp(<StudentReport studentId={4} />, { path: '/students/4/report' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Elif Kaya' })).toBeInTheDocument();
    expect(screen.getByText('Schülerbericht')).toBeInTheDocument();
    expect(screen.getByTestId('report-completed')).toHaveTextContent('3');
    expect(screen.getByTestId('report-rate')).toHaveTextContent('60 %');
    expect(screen.getByTestId('report-total')).toHaveTextContent('1:15 h');
    expect(screen.getByText('Experte')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: /insgesamt 30 min/ })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Makam Rast – Tetrachorde' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zurück zum Schüler' })).toHaveAttribute('href', '/students/4');
    expect(paths.sort()).toEqual(['/api/students/4/metrics', '/api/students/4/overview']);
    await user.click(screen.getByRole('button', { name: 'Drucken' }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it("says 'not found' for another teacher's student (404), and offers a retry when loading fails", async () => {
    serve(() => jsonResponse(404, { message: 'Nicht gefunden.' }));
    renderWithApp(<StudentReport studentId={9} />);
    expect(await screen.findByRole('heading', { name: 'Schüler nicht gefunden' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Drucken' })).toBeDisabled();
    cleanup();
    serve(() => jsonResponse(500, { message: 'Interner Fehler' }));
    renderWithApp(<StudentReport studentId={4} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Der Bericht konnte nicht geladen werden.');
    expect(screen.getByRole('button', { name: 'Erneut versuchen' })).toBeInTheDocument();
  });

  it('speaks Turkish', async () => {
    await i18n.changeLanguage('tr');
    serve((path) => (path.endsWith('/overview') ? jsonResponse(200, overview) : jsonResponse(200, metrics)));
    renderWithApp(<StudentReport studentId={4} />);
    expect(await screen.findByText('Öğrenci raporu')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Yazdır' })).toBeInTheDocument();
  });
});
