import type { Submission } from '@contract/submissions';
import { isApiError } from '@web/lib/api';

export type TaskTab = 'all' | 'open' | 'completed';
export const TASK_TABS: TaskTab[] = ['all', 'open', 'completed'];

/** Open = still to do (open or overdue); expired tasks can no longer be done and show under All only. */
export function inTab(s: Pick<Submission, 'status'>, tab: TaskTab): boolean {
  if (tab === 'all') return true;
  if (tab === 'completed') return s.status === 'completed';
  return s.status === 'open' || s.status === 'overdue';
}

export function tabCounts(list: Pick<Submission, 'status'>[]): Record<TaskTab, number> {
  return {
    all: list.length,
    open: list.filter((s) => inTab(s, 'open')).length,
    completed: list.filter((s) => inTab(s, 'completed')).length,
  };
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
    const byDue = todo(a) ? a.due_date.localeCompare(b.due_date) : b.due_date.localeCompare(a.due_date);
    return byDue || a.id - b.id;
  });
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
