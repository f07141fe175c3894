import type { SUBMISSION_ORDERS, Submission, SubmissionCounts } from '@contract/submissions';
import { isApiError } from '@web/lib/api';
import { byIso } from '@web/lib/order';

export type TaskTab = 'all' | 'open' | 'completed';
export const TASK_TABS: TaskTab[] = ['all', 'open', 'completed'];

/** Open = still to do (open or overdue); expired tasks can no longer be done and show under All only. */
export function inTab(s: Pick<Submission, 'status'>, tab: TaskTab): boolean {
  if (tab === 'all') return true;
  if (tab === 'completed') return s.status === 'completed';
  return s.status === 'open' || s.status === 'overdue';
}

/** The badges and the counter from GET /api/submissions/counts: Open = open + overdue. */
export function tabCounts(c: SubmissionCounts): Record<TaskTab, number> {
  return { all: c.total, open: c.open + c.overdue, completed: c.completed };
}

/** Tasks per page of the task list ('Weitere Aufgaben laden' fetches the next one). */
export const TASK_PAGE_SIZE = 50;

export type TaskOrder = (typeof SUBMISSION_ORDERS)[number];

/**
 * What each tab asks GET /api/submissions for: All in the working order (sortForList), Open by
 * due date (earliest first), Completed by due date (latest first).
 */
export const TAB_QUERY: Record<TaskTab, { status?: string; order: TaskOrder }> = {
  all: { order: 'work' },
  open: { status: 'open,overdue', order: 'due' },
  completed: { status: 'completed', order: 'due_desc' },
};

/**
 * The counts after a task went from `from` to completed on the client (until the server's answer
 * to the refetch arrives); `null` when they cannot be adjusted (nothing changes).
 */
export function countsAfterComplete<C extends SubmissionCounts>(c: C, from: Submission['status']): C | null {
  if (from !== 'open' && from !== 'overdue') return null;
  if (c[from] <= 0) return null;
  return { ...c, [from]: c[from] - 1, completed: c.completed + 1 };
}

/** The counts after a completion was taken back on the client: completed → `to` (open or overdue). */
export function countsAfterReopen<C extends SubmissionCounts>(c: C, to: Submission['status']): C | null {
  if (to !== 'open' && to !== 'overdue') return null;
  if (c.completed <= 0) return null;
  return { ...c, [to]: c[to] + 1, completed: c.completed - 1 };
}

/**
 * The order a student works in: what is still to do first (the most urgent, i.e. earliest due,
 * on top), then what is done or expired (the most recent first), so old tasks never push today's
 * work below the fold.
 */
export function sortForList<T extends Pick<Submission, 'status' | 'due_date' | 'id'>>(list: T[]): T[] {
  const todo = (s: T) => s.status === 'open' || s.status === 'overdue';
  return [...list].sort((a, b) => {
    if (todo(a) !== todo(b)) return todo(a) ? -1 : 1;
    const byDue = todo(a) ? byIso(a.due_date, b.due_date) : byIso(b.due_date, a.due_date);
    return byDue || a.id - b.id;
  });
}

/**
 * The loaded pages of a tab as the server orders them (TAB_QUERY), without a task twice (offset
 * pages can overlap while tasks change) and without tasks that left the tab on the client (a task
 * just marked done leaves Open and, under All, moves below the work still to do at once).
 */
export function tasksForTab<T extends Pick<Submission, 'status' | 'due_date' | 'id'>>(pages: T[][], tab: TaskTab): T[] {
  const seen = new Set<number>();
  const list: T[] = [];
  for (const page of pages)
    for (const s of page) {
      if (seen.has(s.id) || !inTab(s, tab)) continue;
      seen.add(s.id);
      list.push(s);
    }
  if (tab === 'all') return sortForList(list);
  if (tab === 'open') return list.sort((a, b) => byIso(a.due_date, b.due_date) || a.id - b.id);
  return list.sort((a, b) => byIso(b.due_date, a.due_date) || b.id - a.id);
}

/** SPEC.md: expired and completed tasks cannot be marked. */
export function canComplete(s: Pick<Submission, 'status'>): boolean {
  return s.status === 'open' || s.status === 'overdue';
}

/** The browser's calendar date 'YYYY-MM-DD' (for 'today' on badges). */
export function localToday(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** Key of the message for a failed completion (SPEC.md section 8). */
export function completeErrorKey(err: unknown): 'complete.forbidden' | 'complete.error' {
  return isApiError(err, 403) ? 'complete.forbidden' : 'complete.error';
}

/** Key of the message for a failed task load (SPEC.md section 8). */
export function loadErrorKey(err: unknown): 'detail.loadForbidden' | 'detail.loadNotFound' | 'detail.loadError' {
  if (isApiError(err, 403)) return 'detail.loadForbidden';
  if (isApiError(err, 404)) return 'detail.loadNotFound';
  return 'detail.loadError';
}

/** 'beginner' → key of its label; anything else → 'Nicht definiert'. */
export function competencyKey(level: string | null | undefined): string {
  return level === 'beginner' || level === 'intermediate' || level === 'advanced' || level === 'expert'
    ? `competency.${level}`
    : 'competency.undefined';
}

/** Where a task sits in the list by its due date: today, the rest of this week, later, or the past. */
export type TaskGroup = 'today' | 'week' | 'later' | 'past';
export const TASK_GROUPS: TaskGroup[] = ['today', 'week', 'later', 'past'];

/** Days from 1970-01-01 of a 'YYYY-MM-DD' date (UTC arithmetic: no time-zone or DST shift). */
function dayNumber(date: string): number {
  const [y, m, d] = date.slice(0, 10).split('-').map(Number);
  return Math.floor(Date.UTC(y ?? 1970, (m ?? 1) - 1, d ?? 1) / 86_400_000);
}

/**
 * The group of a due date seen from `today` (both 'YYYY-MM-DD' in the school's calendar): Heute,
 * Diese Woche (after today up to Sunday, weeks start on Monday as in Germany and Turkey), Später,
 * Vergangen (before today).
 */
export function taskGroup(dueDate: string, today: string): TaskGroup {
  const due = dayNumber(dueDate);
  const now = dayNumber(today);
  if (due === now) return 'today';
  if (due < now) return 'past';
  // 1970-01-01 was a Thursday: (n + 3) % 7 is 0 on Mondays.
  const sunday = now + (6 - ((now + 3) % 7));
  return due <= sunday ? 'week' : 'later';
}

/** The tasks under their group headings in the fixed order Heute, Diese Woche, Später, Vergangen; within a group the list's order. Empty groups are left out. */
export function groupTasks<T extends Pick<Submission, 'due_date'>>(list: readonly T[], today: string): Array<{ group: TaskGroup; tasks: T[] }> {
  const by = new Map<TaskGroup, T[]>();
  for (const s of list) {
    const g = taskGroup(s.due_date, today);
    const arr = by.get(g);
    if (arr) arr.push(s);
    else by.set(g, [s]);
  }
  return TASK_GROUPS.filter((g) => by.has(g)).map((group) => ({ group, tasks: by.get(group)! }));
}

/** A row of the task list: one task, or the tasks of one repeating series together (docs/decisions/done-means-practised.md). */
export type TaskEntry<T> = { kind: 'task'; task: T } | { kind: 'series'; seriesId: string; tasks: T[] };

/**
 * The list's tasks with the tasks of one series gathered where its first one (in the list's order)
 * stands; a series with one task in the list stays a plain task. Each date keeps its own task.
 */
export function gatherSeries<T extends Pick<Submission, 'series_id'>>(list: readonly T[]): Array<TaskEntry<T>> {
  const bySeries = new Map<string, T[]>();
  for (const s of list) {
    const arr = bySeries.get(s.series_id);
    if (arr) arr.push(s);
    else bySeries.set(s.series_id, [s]);
  }
  const placed = new Set<string>();
  const out: Array<TaskEntry<T>> = [];
  for (const s of list) {
    const tasks = bySeries.get(s.series_id)!;
    if (tasks.length === 1) out.push({ kind: 'task', task: s });
    else if (!placed.has(s.series_id)) {
      placed.add(s.series_id);
      out.push({ kind: 'series', seriesId: s.series_id, tasks });
    }
  }
  return out;
}

/** The first task of an entry (its place in the date groups). */
export const entryLead = <T>(e: TaskEntry<T>): T => (e.kind === 'task' ? e.task : e.tasks[0]!);

/** The earliest due date still to do (open or overdue) among a series' tasks; null when none. */
export function nextDueOf(tasks: ReadonlyArray<Pick<Submission, 'status' | 'due_date'>>): string | null {
  let best: string | null = null;
  for (const s of tasks) if ((s.status === 'open' || s.status === 'overdue') && (best === null || s.due_date < best)) best = s.due_date;
  return best;
}
