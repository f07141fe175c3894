import type { Submission } from '@contract/submissions';
import { byIso } from '@web/lib/order';

/** A YYYY-MM-DD date moved by whole days (calendar arithmetic in UTC: no daylight-saving shift). */
export function shiftDate(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * The child's tasks for their guardian: `upcoming` (due today or later) soonest first, `past` (due
 * before today) latest first; ties by id, so the order never jumps between loads.
 */
export function splitTasks(submissions: readonly Submission[], today: string): { upcoming: Submission[]; past: Submission[] } {
  const upcoming = submissions.filter((s) => s.due_date >= today).sort((a, b) => byIso(a.due_date, b.due_date) || a.id - b.id);
  const past = submissions.filter((s) => s.due_date < today).sort((a, b) => byIso(b.due_date, a.due_date) || b.id - a.id);
  return { upcoming, past };
}
