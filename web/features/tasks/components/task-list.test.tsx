import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import type { Submission, SubmissionCounts } from '@contract/submissions';
import { sortForList } from '../lib/task-status';
import { TaskList } from './task-list';

type Status = Submission['status'];

const task = (id: number, status: Status, due_date: string): Submission =>
  ({
    id,
    status,
    due_date,
    exercise: null,
    exercise_title: `Aufgabe ${id}`,
    series_id: `series-${id}`,
    time_spent_minutes: 5,
    course_id: id % 2 ? 1 : 2,
    completed_at: status === 'completed' ? `${due_date}T18:00:00.000Z` : null,
    expiration_date: status === 'expired' ? due_date : null,
  }) as unknown as Submission;

const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString().slice(0, 10);

/**
 * 130 tasks: ids 1–70 still to do (1–10 overdue), 71–110 completed, 111–130 expired; the due dates
 * run with the ids, so every order differs from the id order.
 */
function school(): Submission[] {
  return Array.from({ length: 130 }, (_, i) => {
    const id = i + 1;
    const status: Status = id <= 10 ? 'overdue' : id <= 70 ? 'open' : id <= 110 ? 'completed' : 'expired';
    return task(id, status, day(200 - id));
  });
}

/**
 * A small GET /api/submissions (status, order, limit, offset, course_id), its counts and the
 * completion, as the server answers them. `hold(offset)` delays that page until it is released.
 */
function serve(tasks: Submission[], opts: { failCounts?: number; failOffset?: number } = {}) {
  const calls: URL[] = [];
  let failCounts = opts.failCounts ?? 0;
  let failOffset = opts.failOffset;
  const gates = new Map<number, Promise<void>>();
  const hold = (offset: number) => {
    let release!: () => void;
    gates.set(offset, new Promise<void>((r) => (release = r)));
    return () => {
      gates.delete(offset);
      release();
    };
  };
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    calls.push(url);
    const q = url.searchParams;
    const course = q.get('course_id');
    const mine = tasks.filter((s) => !course || s.course_id === Number(course));
    if (url.pathname === '/api/submissions/counts') {
      if (failCounts > 0) {
        failCounts--;
        return jsonResponse(500, { message: 'kaputt' });
      }
      const n = (st: Status) => mine.filter((s) => s.status === st).length;
      const counts: SubmissionCounts = { total: mine.length, open: n('open'), overdue: n('overdue'), completed: n('completed'), expired: n('expired') };
      return jsonResponse(200, counts);
    }
    const done = url.pathname.match(/^\/api\/submissions\/(\d+)\/complete$/);
    if (done && init?.method === 'PATCH') {
      const s = tasks.find((x) => x.id === Number(done[1]))!;
      Object.assign(s, { status: 'completed', completed_at: '2026-07-01T10:00:00.000Z' });
      return jsonResponse(200, s);
    }
    if (url.pathname === '/api/submissions') {
      const offset = Number(q.get('offset') ?? 0);
      await gates.get(offset);
      if (failOffset === offset) {
        failOffset = undefined;
        return jsonResponse(500, { message: 'kaputt' });
      }
      const statuses = q.get('status')?.split(',');
      let list = mine.filter((s) => !statuses || statuses.includes(s.status));
      const order = q.get('order') ?? 'due';
      if (order === 'work') list = sortForList(list);
      else if (order === 'due_desc') list = [...list].sort((a, b) => b.due_date.localeCompare(a.due_date) || b.id - a.id);
      else list = [...list].sort((a, b) => a.due_date.localeCompare(b.due_date) || a.id - b.id);
      const limit = q.get('limit') ? Number(q.get('limit')) : list.length;
      return jsonResponse(200, list.slice(offset, offset + limit));
    }
    return jsonResponse(404, { message: 'Nicht gefunden.' });
  });
  vi.stubGlobal('fetch', fn);
  const lists = () => calls.filter((u) => u.pathname === '/api/submissions');
  const counts = () => calls.filter((u) => u.pathname === '/api/submissions/counts');
  return { calls, lists, counts, hold };
}

const cards = () => screen.queryAllByTestId('task-card');
const titles = () => cards().map((c) => within(c).getByRole('link').textContent);
const loadMore = () => screen.getByRole('button', { name: 'Weitere Aufgaben laden' });

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('TaskList', { timeout: 30_000 }, () => {
  it('All: counter and badges from the counts, 50 tasks in the working order, then page by page with focus on the first new task', async () => {
    const api = serve(school());
    const u = userEvent.setup();
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions' });

    await waitFor(() => expect(cards()).toHaveLength(50));
    expect(screen.getByTestId('task-counter')).toHaveTextContent('130 von 130 Aufgaben');
    expect(screen.getByRole('tab', { name: 'Offen 70' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Erledigt 40' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Alle' })).toHaveAttribute('aria-selected', 'true');
    // the most urgent first: the overdue task with the earliest due date has the highest id
    expect(titles().slice(0, 2)).toEqual(['Aufgabe 70', 'Aufgabe 69']);
    const first = api.lists()[0]!.searchParams;
    expect(Object.fromEntries(first)).toEqual({ language: 'de', order: 'work', limit: '50', offset: '0' });
    expect(api.counts()).toHaveLength(1);
    expect(screen.getByTestId('tasks-loaded')).toHaveTextContent('50 von 130 angezeigt');

    // The second page: the button stays (focusable, busy) while it loads, then focus is on task 51.
    const release = api.hold(50);
    await u.click(loadMore());
    await waitFor(() => expect(loadMore()).toHaveAttribute('aria-busy', 'true'));
    expect(loadMore()).toHaveAttribute('aria-disabled', 'true');
    expect(loadMore()).not.toBeDisabled();
    expect(loadMore()).toHaveFocus();
    await u.click(loadMore()); // a second press while loading asks nothing more
    release();
    await waitFor(() => expect(cards()).toHaveLength(100));
    expect(api.lists().map((l) => l.searchParams.get('offset'))).toEqual(['0', '50']);
    // (the focus moves in an effect, after the new cards are drawn)
    await waitFor(() => expect(within(cards()[50]!).getByRole('link')).toHaveFocus());
    expect(titles()[50]).toBe('Aufgabe 20'); // page 1 held the to-do tasks 70 … 21 (earliest due first)
    expect(screen.getByTestId('tasks-loaded')).toHaveTextContent('100 von 130 angezeigt');

    // The last page: 30 more, no button any more, nothing twice.
    await u.click(loadMore());
    await waitFor(() => expect(cards()).toHaveLength(130));
    expect(new Set(titles()).size).toBe(130);
    expect(screen.queryByRole('button', { name: 'Weitere Aufgaben laden' })).not.toBeInTheDocument();
    expect(screen.getByTestId('tasks-loaded')).toHaveTextContent('130 von 130 angezeigt');
    await waitFor(() => expect(within(cards()[100]!).getByRole('link')).toHaveFocus());
    expect(api.lists().map((l) => l.searchParams.get('offset'))).toEqual(['0', '50', '100']);
    expect(screen.getByTestId('task-counter')).toHaveTextContent('130 von 130 Aufgaben');
  });

  it('Open and Completed ask the server for their own status and order; the counter shows the tab of the total', async () => {
    const api = serve(school());
    const u = userEvent.setup();
    renderWithApp(<TaskList courseId={2} />, { path: '/submissions?tab=open' });

    await waitFor(() => expect(cards()).toHaveLength(35));
    expect(screen.getByTestId('task-counter')).toHaveTextContent('35 von 65 Aufgaben');
    const open = api.lists()[0]!.searchParams;
    expect(open.get('status')).toBe('open,overdue');
    expect(open.get('order')).toBe('due');
    expect(open.get('course_id')).toBe('2');
    expect(api.counts()[0]!.searchParams.get('course_id')).toBe('2');
    expect(titles()[0]).toBe('Aufgabe 70'); // earliest due first
    expect(screen.queryByRole('button', { name: 'Weitere Aufgaben laden' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('tasks-loaded')).not.toBeInTheDocument();

    await u.click(screen.getByRole('tab', { name: 'Erledigt 20' }));
    await waitFor(() => expect(cards()).toHaveLength(20));
    expect(screen.getByTestId('task-counter')).toHaveTextContent('20 von 65 Aufgaben');
    const done = api.lists()[1]!.searchParams;
    expect(done.get('status')).toBe('completed');
    expect(done.get('order')).toBe('due_desc');
    expect(titles()[0]).toBe('Aufgabe 72'); // latest due first
    expect(cards().every((c) => c.dataset.status === 'completed')).toBe(true);
    expect(api.counts()).toHaveLength(1); // the counts are shared by the tabs
  });

  it('marking a task done updates its card and the counts at once, then loads the counts and the loaded pages again', async () => {
    const tasks = school();
    const api = serve(tasks);
    const u = userEvent.setup();
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions?tab=open' });
    await waitFor(() => expect(cards()).toHaveLength(50));
    await u.click(loadMore());
    await waitFor(() => expect(cards()).toHaveLength(70));
    const before = { lists: api.lists().length, counts: api.counts().length };

    const release = api.hold(0); // the reload waits: what shows meanwhile comes from the caches
    const card = cards().find((c) => within(c).getByRole('link').textContent === 'Aufgabe 70')!;
    await u.click(within(card).getByRole('button', { name: 'Als erledigt markieren' }));
    await waitFor(() => expect(screen.getByRole('tab', { name: 'Offen 69' })).toBeInTheDocument());
    expect(screen.getByRole('tab', { name: 'Erledigt 41' })).toBeInTheDocument();
    expect(screen.getByTestId('task-counter')).toHaveTextContent('69 von 130 Aufgaben');
    // (the cards are a deferred value: drawn in the transition right after the counts)
    await waitFor(() => expect(titles()).not.toContain('Aufgabe 70'));
    expect(cards()).toHaveLength(69);
    expect(await screen.findByText('Aufgabe erfolgreich als erledigt markiert!')).toBeInTheDocument();

    release();
    await waitFor(() => expect(api.counts().length).toBe(before.counts + 1));
    // both pages of the tab load again (offsets 0 and 50)
    await waitFor(() => expect(api.lists().slice(before.lists).map((l) => l.searchParams.get('offset'))).toEqual(['0', '50']));
    await waitFor(() => expect(cards()).toHaveLength(69));

    await u.click(screen.getByRole('tab', { name: 'Alle' }));
    await waitFor(() => expect(cards()).toHaveLength(50));
    const done = cards().filter((c) => c.dataset.status === 'completed');
    expect(done).toHaveLength(0); // 69 still to do fill the first page
    await u.click(screen.getByRole('tab', { name: 'Erledigt 41' }));
    await waitFor(() => expect(titles()[0]).toBe('Aufgabe 70'));
  });

  it('keyboard: after marking a task done, focus goes to the card now in its place, never to the page', async () => {
    serve(school());
    const u = userEvent.setup();
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions?tab=open' });
    await waitFor(() => expect(cards()).toHaveLength(50));
    const [first, second] = cards();
    const secondTitle = within(second!).getByRole('link').textContent;
    within(first!).getByRole('button', { name: 'Als erledigt markieren' }).focus();
    await u.keyboard('{Enter}');
    // the button is gone: the focus is on the toast's 'Rückgängig'; closing the toast brings it back to the list
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Rückgängig'));
    await u.keyboard('{Tab}');
    await u.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement?.textContent).toBe(secondTitle));
    expect(document.activeElement?.tagName).toBe('A');

    await u.click(screen.getByRole('tab', { name: /^Alle/ }));
    await waitFor(() => expect(cards()).toHaveLength(50));
    // Alle: done, the task moves behind the 68 still open (beyond the loaded page); Aufgabe 68 takes its place
    const open = cards().find((c) => c.dataset.status === 'open')!;
    expect(within(open).getByRole('link').textContent).toBe('Aufgabe 69');
    within(open).getByRole('button', { name: 'Als erledigt markieren' }).focus();
    await u.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Rückgängig'));
    await u.keyboard('{Tab}');
    await u.keyboard('{Enter}');
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Aufgabe 68'));
    expect(document.activeElement?.closest('[data-testid="task-card"]')).not.toBeNull();
  });

  it('the empty states: no tasks at all, nothing open, nothing completed', async () => {
    serve([]);
    const u = userEvent.setup();
    const { unmount } = renderWithApp(<TaskList courseId={null} />, { path: '/submissions' });
    expect(await screen.findByText('Keine Aufgaben zugewiesen')).toBeInTheDocument();
    expect(screen.getByTestId('task-counter')).toHaveTextContent('0 von 0 Aufgaben');
    expect(screen.getByRole('tab', { name: 'Offen' })).toBeInTheDocument(); // no badge at 0
    unmount();

    serve([task(1, 'completed', day(1))]);
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions?tab=open' });
    expect(await screen.findByText('Alles erledigt!')).toBeInTheDocument();
    expect(screen.getByTestId('task-counter')).toHaveTextContent('0 von 1 Aufgabe');
    await u.click(screen.getByRole('tab', { name: 'Erledigt 1' }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(screen.getByTestId('task-counter')).toHaveTextContent('1 von 1 Aufgabe');
    expect(screen.queryByRole('button', { name: 'Weitere Aufgaben laden' })).not.toBeInTheDocument();
  });

  it('a failed counts call shows the error with a retry; a failed next page keeps the loaded tasks and the button', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = serve(school(), { failCounts: 1, failOffset: 50 });
    const u = userEvent.setup();
    renderWithApp(<TaskList courseId={null} />, { path: '/submissions' });
    expect(await screen.findByText('Bitte prüfe deine Verbindung und versuche es erneut.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('Fehler beim Laden der Aufgaben')).toHaveLength(2)); // the panel and the toast
    expect(cards()).toHaveLength(0);
    await u.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    await waitFor(() => expect(cards()).toHaveLength(50));
    expect(screen.getByTestId('task-counter')).toHaveTextContent('130 von 130 Aufgaben');
    expect(api.lists()).toHaveLength(1); // the list had loaded: only the counts were asked again

    await u.click(loadMore());
    await waitFor(() => expect(api.lists()).toHaveLength(2));
    await waitFor(() => expect(loadMore()).not.toHaveAttribute('aria-busy'));
    expect(cards()).toHaveLength(50);
    expect(loadMore()).toHaveFocus();
    await u.click(loadMore());
    await waitFor(() => expect(cards()).toHaveLength(100));
    expect(logged).toHaveBeenCalledTimes(2); // each failed load once
  });
});
