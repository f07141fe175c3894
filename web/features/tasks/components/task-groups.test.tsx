import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import type { Submission, SubmissionCounts } from '@contract/submissions';
import { StatusBadge } from '@web/components/ui/status-badge';
import { localToday, sortForList, taskGroup } from '../lib/task-status';
import { TaskList } from './task-list';

/** 'YYYY-MM-DD' n days from `from` (UTC arithmetic on the date). */
function plus(from: string, n: number): string {
  const d = new Date(`${from}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

const task = (id: number, status: Submission['status'], due_date: string): Submission =>
  ({
    id,
    status,
    due_date,
    exercise: null,
    exercise_title: `Aufgabe ${id}`,
    series_id: `series-${id}`,
    time_spent_minutes: 5,
    course_id: 1,
    completed_at: status === 'completed' ? `${due_date}T18:00:00.000Z` : null,
    expiration_date: status === 'expired' ? due_date : null,
  }) as unknown as Submission;

function serve(tasks: Submission[]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/submissions/counts') {
        const n = (st: Submission['status']) => tasks.filter((s) => s.status === st).length;
        const counts: SubmissionCounts = { total: tasks.length, open: n('open'), overdue: n('overdue'), completed: n('completed'), expired: n('expired') };
        return jsonResponse(200, counts);
      }
      if (url.pathname === '/api/submissions') return jsonResponse(200, sortForList(tasks));
      return jsonResponse(404, { message: 'Nicht gefunden.' });
    }),
  );
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('taskGroup', () => {
  it('today, the rest of the week up to Sunday, later, past (weeks start on Monday)', () => {
    // 2026-11-25 is a Wednesday
    expect(taskGroup('2026-11-25', '2026-11-25')).toBe('today');
    expect(taskGroup('2026-11-26', '2026-11-25')).toBe('week');
    expect(taskGroup('2026-11-29', '2026-11-25')).toBe('week'); // Sunday
    expect(taskGroup('2026-11-30', '2026-11-25')).toBe('later'); // next Monday
    expect(taskGroup('2026-11-24', '2026-11-25')).toBe('past');
    // on a Sunday the week has no day left; Monday starts 'later'
    expect(taskGroup('2026-11-30', '2026-11-29')).toBe('later');
    // on a Monday the whole week lies ahead
    expect(taskGroup('2026-11-29', '2026-11-23')).toBe('week');
    // across a year and a daylight-saving change
    expect(taskGroup('2027-01-03', '2026-12-31')).toBe('week');
    expect(taskGroup('2026-03-29', '2026-03-27')).toBe('week');
  });
});

describe('TaskList groups', { timeout: 30_000 }, () => {
  it('shows the tasks under Heute, Diese Woche, Später, Vergangen in that order, in German and Turkish', async () => {
    const today = localToday();
    const sunday = (() => {
      const d = new Date(`${today}T12:00:00Z`);
      return plus(today, (7 - d.getUTCDay()) % 7);
    })();
    const inWeek = sunday === today ? null : plus(today, 1);
    const tasks = [
      task(1, 'overdue', plus(today, -3)),
      task(2, 'open', today),
      task(3, 'open', plus(sunday, 8)),
      task(4, 'completed', plus(today, -10)),
      task(5, 'expired', plus(today, -20)),
      ...(inWeek ? [task(6, 'open', inWeek)] : []),
    ];
    serve(tasks);
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions' });
    const groups = await screen.findByTestId('task-groups');
    const headings = within(groups)
      .getAllByRole('heading', { level: 2 })
      .map((h) => h.textContent?.replace(/\d+$/, ''));
    expect(headings).toEqual(inWeek ? ['Heute', 'Diese Woche', 'Später', 'Vergangen'] : ['Heute', 'Später', 'Vergangen']);
    const titlesIn = (g: string) =>
      within(screen.getByTestId(`task-group-${g}`))
        .getAllByTestId('task-card')
        .map((c) => within(c).getByRole('link').textContent);
    expect(titlesIn('today')).toEqual(['Aufgabe 2']);
    if (inWeek) expect(titlesIn('week')).toEqual(['Aufgabe 6']);
    expect(titlesIn('later')).toEqual(['Aufgabe 3']);
    // the past: still to do first (overdue), then done and expired
    expect(titlesIn('past')).toEqual(['Aufgabe 1', 'Aufgabe 4', 'Aufgabe 5']);
    // each group is a region named by its heading, with a count
    expect(screen.getByRole('region', { name: /Vergangen/ })).toHaveTextContent('3');

    await act(async () => {
      await i18n.changeLanguage('tr');
    });
    const tr = within(screen.getByTestId('task-groups'))
      .getAllByRole('heading', { level: 2 })
      .map((h) => h.textContent?.replace(/\d+$/, ''));
    expect(tr).toEqual(inWeek ? ['Bugün', 'Bu hafta', 'Daha sonra', 'Geçmiş'] : ['Bugün', 'Daha sonra', 'Geçmiş']);
  });

  it('each card shows its status once: one badge, no coloured edge or second icon', async () => {
    const today = localToday();
    serve([task(1, 'overdue', plus(today, -3)), task(5, 'expired', plus(today, -20))]);
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions' });
    const cards = await screen.findAllByTestId('task-card');
    for (const card of cards) {
      expect(within(card).getAllByTestId('status-help')).toHaveLength(1);
      expect(card.className).not.toMatch(/border-l-(red|amber|orange|emerald)/);
      expect(card.querySelectorAll('[role="img"]')).toHaveLength(0);
    }
  });
});

describe('StatusBadge explanation', () => {
  it('explains overdue versus expired on hover, focus or tap; Escape closes it', async () => {
    const user = userEvent.setup();
    renderWithApp(
      <div>
        <StatusBadge status="overdue" explain />
        <StatusBadge status="expired" explain />
      </div>,
    );
    const overdue = screen.getByRole('button', { name: 'Was bedeutet „Überfällig“?' });
    const expired = screen.getByRole('button', { name: 'Was bedeutet „Verfallen“?' });
    expect(screen.queryByRole('tooltip')).toBeNull();
    expect(overdue).toHaveAttribute('aria-expanded', 'false');

    // hover
    await user.hover(overdue);
    expect(screen.getByRole('tooltip')).toHaveTextContent(/trotzdem noch geübt/);
    expect(overdue).toHaveAccessibleDescription(/trotzdem noch geübt/);
    await user.unhover(overdue);
    expect(screen.queryByRole('tooltip')).toBeNull();

    // tap / Enter toggles; Escape closes
    fireEvent.click(expired);
    expect(expired).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('tooltip')).toHaveTextContent(/nicht mehr geübt oder erledigt/);
    fireEvent.keyDown(expired, { key: 'Escape' });
    expect(screen.queryByRole('tooltip')).toBeNull();

    await act(async () => {
      await i18n.changeLanguage('tr');
    });
    fireEvent.click(screen.getByRole('button', { name: '“Gecikmiş” ne anlama geliyor?' }));
    expect(screen.getByRole('tooltip')).toHaveTextContent(/Süresi dolana kadar/);
  });
});
