import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import type { StudentMetrics } from '@contract/metrics';
import type { Submission, TaskSeries } from '@contract/submissions';
import { localToday } from '@web/lib/today';
import { StudentDashboardView } from './student-dashboard-view';

const counts = { total_submissions: 9, completed_submissions: 4, open_submissions: 3, overdue_submissions: 2, expired_submissions: 0, completion_rate: 66.7 };
const metrics: StudentMetrics = {
  current_streak: 1, average_accuracy: 84.6, total_practice_time_minutes: 45.4, weekly_practice_time_minutes: 20, average_session_time_minutes: 15.13,
  top_competency_level: 'intermediate', total_practice_sessions: 3, overall_metrics: counts,
  progress_data: Array.from({ length: 30 }, (_, i) => ({ date: `2026-11-${String(i + 1).padStart(2, '0')}`, practice_time_minutes: 0 })),
};
const task = (id: number, due_date: string, status: Submission['status'] = 'open') =>
  ({ id, due_date, status, exercise: null, exercise_title: `Aufgabe ${id}` }) as unknown as Submission;
/** A series of one task (a single assignment) as GET /api/submissions/series gives it. */
const single = (s: Submission, o: Partial<TaskSeries> = {}): TaskSeries => ({
  series_id: `series-${s.id}`,
  student_id: 5,
  title: s.exercise_title,
  course_id: null,
  occurrences: 1,
  completed: 0,
  next_due: s.due_date,
  streak: 0,
  today: null,
  current: s,
  ...o,
});

function serve(route: (path: string, url: URL) => Response) {
  const fn = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    return route(url.pathname, url);
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('StudentDashboardView', { timeout: 20_000 }, () => {
  it.each([
    ['de', '85 %', 'Fortgeschritten', /Serie: 1 Tag · Letzte 7 Tage: 20 min/],
    ['tr', '%85', 'İleri', /Seri: 1 gün · Son 7 gün: 20 dk/],
  ] as const)('%s: the percent in the language\'s own format, the level and the last 7 days by name', async (language, percent, level, summary) => {
    await i18n.changeLanguage(language);
    serve((path) => {
      if (path === '/api/my-metrics') return jsonResponse(200, metrics);
      if (path === '/api/submissions') return jsonResponse(200, []);
      return jsonResponse(404, { message: 'Nicht gefunden.' });
    });
    renderWithApp(<StudentDashboardView name="Ayşe Demir" />);
    const accuracy = await screen.findByTestId('card-accuracy-value');
    expect(accuracy.textContent).toBe(percent.replace(' ', '\u00a0'));
    expect(screen.getByTestId('stat-level')).toHaveTextContent(level);
    expect(screen.getByTestId('home-summary')).toHaveTextContent(summary);
  });

  it('cards, statistics, and the next 5 open tasks with "Heute" for today', async () => {
    const today = localToday();
    const d = (n: number) => {
      const x = new Date(`${today}T12:00:00Z`);
      x.setUTCDate(x.getUTCDate() + n);
      return x.toISOString().slice(0, 10);
    };
    let asked: URL | undefined;
    serve((path, url) => {
      if (path === '/api/my-metrics') return jsonResponse(200, metrics);
      if (path === '/api/submissions/series') {
        asked = url;
        return jsonResponse(200, [task(1, today), task(2, d(1)), task(3, d(2)), task(4, d(3)), task(5, d(4)), task(6, d(5))].map((s) => single(s)));
      }
      return jsonResponse(404, { message: 'Nicht gefunden.' });
    });
    renderWithApp(<StudentDashboardView name="Ayşe Demir" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Hallo, Ayşe Demir' })).toBeInTheDocument();
    expect(await screen.findByTestId('card-open-value')).toHaveTextContent('3');
    expect(screen.getByTestId('card-overdue-value')).toHaveTextContent('2');
    expect(screen.getByTestId('card-completed-value')).toHaveTextContent('4');
    expect(screen.getByTestId('card-streak-value')).toHaveTextContent('1 Tag');
    expect(screen.getByTestId('card-accuracy-value')).toHaveTextContent('85 %');
    expect(screen.getByTestId('stat-total')).toHaveTextContent('45 min');
    expect(screen.getByTestId('stat-weekly')).toHaveTextContent('20 min');
    expect(screen.getByTestId('stat-average')).toHaveTextContent('15 min');
    expect(screen.getByTestId('stat-level')).toHaveTextContent('Fortgeschritten');
    const items = within(await screen.findByTestId('upcoming-tasks')).getAllByRole('listitem');
    expect(items).toHaveLength(5);
    expect(items[0]).toHaveTextContent('Heute');
    expect(items[1]).toHaveTextContent('Offen');
    expect(items[0]!.querySelector('a')).toHaveAttribute('href', '/submissions/1');
    expect(asked?.searchParams.get('scope')).toBe('current');
    expect(asked?.searchParams.get('limit')).toBe('5');
    expect(asked?.searchParams.get('language')).toBe('de');
  });

  it('no review yet, no open tasks; a failing metrics call shows the message with a retry', async () => {
    serve((path) => {
      if (path === '/api/my-metrics') return jsonResponse(200, { ...metrics, average_accuracy: null, top_competency_level: null });
      return jsonResponse(200, []);
    });
    renderWithApp(<StudentDashboardView />);
    expect(await screen.findByText('Noch keine Genauigkeit bewertet')).toBeInTheDocument();
    expect(screen.getByTestId('card-accuracy-value')).toHaveTextContent('–');
    expect(screen.getByTestId('stat-level')).toHaveTextContent('Nicht definiert');
    expect(await screen.findByText('Keine offenen Aufgaben')).toBeInTheDocument();
    cleanup();
    vi.unstubAllGlobals();

    serve((path) => (path === '/api/my-metrics' ? jsonResponse(500, { message: 'x' }) : jsonResponse(500, { message: 'x' })));
    renderWithApp(<StudentDashboardView />);
    expect((await screen.findAllByText('Fehler beim Laden der Metriken')).length).toBeGreaterThan(0);
    expect(screen.getAllByRole('button', { name: 'Erneut versuchen' }).length).toBeGreaterThan(0);
    expect(await screen.findByText('Die Aufgaben konnten nicht geladen werden.')).toBeInTheDocument();
  });

  it('a repeating task is one item with today’s minutes, how many are done and its streak; done today says so', async () => {
    const today = localToday();
    serve((path) => {
      if (path === '/api/my-metrics') return jsonResponse(200, metrics);
      if (path === '/api/submissions/series')
        return jsonResponse(200, [
          single(task(11, today), { series_id: 'rast', occurrences: 5, completed: 3, streak: 3, today: { submission_id: 11, time_spent_minutes: 12, done: false } }),
          single(task(21, today, 'completed'), { series_id: 'lange', occurrences: 8, completed: 2, streak: 1, today: { submission_id: 21, time_spent_minutes: 20, done: true } }),
        ]);
      return jsonResponse(404, { message: 'Nicht gefunden.' });
    });
    renderWithApp(<StudentDashboardView doneAction={(s) => <button type="button">Erledigt {s.id}</button>} />);
    const items = within(await screen.findByTestId('upcoming-tasks')).getAllByTestId('upcoming-item');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveTextContent('Heute 12 min geübt');
    expect(items[0]).toHaveTextContent('3 von 5 erledigt');
    expect(within(items[0]!).getByTestId('series-streak')).toHaveTextContent('3-mal in Folge erledigt');
    expect(within(items[0]!).getByRole('button', { name: 'Erledigt 11' })).toBeInTheDocument();
    expect(items[1]).toHaveTextContent('Heute erledigt');
    // a done task offers no second "done"
    expect(within(items[1]!).queryByRole('button')).not.toBeInTheDocument();
    await i18n.changeLanguage('tr');
    expect(await within(items[0]!).findByTestId('series-streak')).toHaveTextContent('Art arda 3 kez tamamlandı');
  });
});
