import type { Student, StudentProgress } from '@contract/students';
import { nameCollator } from '@web/lib/collator';

export type StudentSortKey = 'name' | 'last' | 'week' | 'open' | 'overdue';
export type SortDirection = 'asc' | 'desc';
export type StudentRow = { student: Student; progress: StudentProgress | undefined };

/** The direction a column starts with: who is falling behind first (longest break, fewest minutes, most overdue). */
export const DEFAULT_DIRECTION: Record<StudentSortKey, SortDirection> = { name: 'asc', last: 'asc', week: 'asc', open: 'desc', overdue: 'desc' };

const value = (r: StudentRow, key: Exclude<StudentSortKey, 'name'>): number => {
  const p = r.progress;
  if (!p) return Number.NEGATIVE_INFINITY;
  switch (key) {
    case 'last':
      // Never practised counts as the longest break.
      return p.last_practice_at ? Date.parse(p.last_practice_at) : Number.NEGATIVE_INFINITY;
    case 'week':
      return p.week_minutes;
    case 'open':
      return p.open_count;
    case 'overdue':
      return p.overdue_count;
  }
};

/** Sorts rows by a column; ties (and the name column) by name, then id. */
export function sortStudentRows(rows: readonly StudentRow[], key: StudentSortKey, dir: SortDirection, locale = 'de'): StudentRow[] {
  const collator = nameCollator(locale);
  const byName = (a: StudentRow, b: StudentRow) => collator.compare(a.student.name, b.student.name) || a.student.id - b.student.id;
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    if (key === 'name') return sign * byName(a, b);
    const va = value(a, key);
    const vb = value(b, key);
    if (va !== vb) return va < vb ? -sign : sign;
    return byName(a, b);
  });
}

/** Whole local days between a timestamp and now (0 = today, 1 = yesterday). */
export function daysSince(iso: string, now: Date = new Date()): number {
  const d = new Date(iso);
  const a = Date.UTC(d.getFullYear(), d.getMonth(), d.getDate());
  const b = Date.UTC(now.getFullYear(), now.getMonth(), now.getDate());
  return Math.round((b - a) / 86_400_000);
}
