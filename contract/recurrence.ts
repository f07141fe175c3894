import { DATE_RANGE, type RecurrenceType } from './constants';

/**
 * Recurring tasks: the due dates of a series, its default end and the limits, shared by the
 * server (POST /api/submissions) and the assignment dialog (summary, default end, success text).
 *
 * Everything works on calendar dates `YYYY-MM-DD`. Day arithmetic goes through a day number
 * (days since 1970-01-01, computed with Date.UTC, which has no summer time), never through local
 * Date objects, so the change to and from summer time can never shift a date. Dates are compared
 * as dates (compareDates), never as text: '10000-01-30' < '2026-01-01' as text.
 *
 * The API accepts only dates in DATE_RANGE (2000-01-01 … 2100-12-31, isDateInRange); the
 * functions here refuse to write a date outside years 0000–9999 (RangeError) instead of
 * producing one that neither parses back nor fits PostgreSQL's comparisons.
 */

export type RepeatingType = Exclude<RecurrenceType, 'none'>;

/** SPEC.md section 5/9: the end of a repetition when no end date is given. */
export const DEFAULT_RECURRENCE_END: Record<RepeatingType, { days: number } | { months: number }> = {
  daily: { days: 29 },
  every_2_days: { days: 58 },
  weekly: { days: 49 },
  monthly: { months: 1 },
};

/** An end date may lie at most this many months after the due date. */
export const MAX_RECURRENCE_MONTHS = 12;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

type Ymd = { y: number; m: number; d: number };

function parse(date: string): Ymd {
  const match = DATE_RE.exec(date);
  if (!match) throw new RangeError(`Not a calendar date: ${date}`);
  const y = Number(match[1]);
  const m = Number(match[2]);
  const d = Number(match[3]);
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) throw new RangeError(`Not a calendar date: ${date}`);
  return { y, m, d };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
function format({ y, m, d }: Ymd): string {
  return `${pad(y, 4)}-${pad(m)}-${pad(d)}`;
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  return m === 2 ? (isLeapYear(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;
}

/** True for an existing calendar date written YYYY-MM-DD. */
export function isCalendarDate(date: string): boolean {
  try {
    parse(date);
    return true;
  } catch {
    return false;
  }
}

/** Days since 1970-01-01 (UTC has no summer time). */
export function toDayNumber(date: string): number {
  const { y, m, d } = parse(date);
  return Math.round(Date.UTC(y, m - 1, d) / MS_PER_DAY);
}

export function fromDayNumber(n: number): string {
  const dt = new Date(n * MS_PER_DAY);
  const y = dt.getUTCFullYear();
  if (!Number.isInteger(n) || !(y >= 0 && y <= 9999)) throw new RangeError(`Day number out of range: ${n}`);
  return format({ y, m: dt.getUTCMonth() + 1, d: dt.getUTCDate() });
}

/** True for an existing calendar date inside DATE_RANGE (the dates the API accepts). */
export function isDateInRange(date: string): boolean {
  return isCalendarDate(date) && compareDates(date, DATE_RANGE.min) >= 0 && compareDates(date, DATE_RANGE.max) <= 0;
}

const ANY_YEAR_RE = /^(\d{4,6})-(\d{2})-(\d{2})/;

/**
 * Negative, zero or positive as date `a` lies before, on or after date `b` (YYYY-MM-DD; also
 * longer years as PostgreSQL writes them, e.g. '10000-01-30', and a trailing time is ignored).
 * Compares the dates, not their text.
 */
export function compareDates(a: string, b: string): number {
  return dayNumberOf(a) - dayNumberOf(b);
}

function dayNumberOf(date: string): number {
  const m = ANY_YEAR_RE.exec(date);
  if (!m) throw new RangeError(`Not a calendar date: ${date}`);
  const dt = new Date(0);
  dt.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Math.round(dt.getTime() / MS_PER_DAY);
}

/** The earlier of two dates. */
export function minDate(a: string, b: string): string {
  return compareDates(a, b) <= 0 ? a : b;
}

export function addDays(date: string, days: number): string {
  return fromDayNumber(toDayNumber(date) + days);
}

/** Whole days from `a` to `b` (negative when b is earlier). */
export function daysBetween(a: string, b: string): number {
  return toDayNumber(b) - toDayNumber(a);
}

/**
 * `months` months after `date`, on the same day of the month; where that month is shorter the
 * date is clamped to its last day (31 January + 1 month = 28 or 29 February).
 */
export function addMonths(date: string, months: number): string {
  const { y, m, d } = parse(date);
  const index = y * 12 + (m - 1) + months;
  const ny = Math.floor(index / 12);
  const nm = index - ny * 12 + 1;
  if (!(ny >= 0 && ny <= 9999)) throw new RangeError(`Date out of range: ${date} + ${months} months`);
  return format({ y: ny, m: nm, d: Math.min(d, daysInMonth(ny, nm)) });
}

/**
 * The last date of a repetition when the teacher gives none; null for no repetition. Never
 * after DATE_RANGE.max (a series from late 2100 stops on 2100-12-31).
 */
export function defaultRecurrenceEnd(dueDate: string, type: RecurrenceType): string | null {
  if (type === 'none') return null;
  const rule = DEFAULT_RECURRENCE_END[type];
  return clampToRange(dueDate, 'days' in rule ? addDays(dueDate, rule.days) : addMonths(dueDate, rule.months));
}

/** The latest end date allowed for a series starting on `dueDate` (one year, at most DATE_RANGE.max). */
export function maxRecurrenceEnd(dueDate: string): string {
  return clampToRange(dueDate, addMonths(dueDate, MAX_RECURRENCE_MONTHS));
}

/** `end`, but not after DATE_RANGE.max when the series itself starts inside the window. */
function clampToRange(dueDate: string, end: string): string {
  return compareDates(dueDate, DATE_RANGE.max) <= 0 ? minDate(end, DATE_RANGE.max) : end;
}

export type RecurrenceProblem = 'before_due' | 'too_far';

/** Why an explicit end date is not allowed, or null when it is. */
export function recurrenceEndProblem(dueDate: string, endDate: string): RecurrenceProblem | null {
  if (compareDates(endDate, dueDate) < 0) return 'before_due';
  if (compareDates(endDate, maxRecurrenceEnd(dueDate)) > 0) return 'too_far';
  return null;
}

/**
 * The due dates of a series: `dueDate` first, then stepping by the repetition until `endDate`
 * inclusive (the default end when none is given). Ascending, without duplicates.
 *
 * Monthly steps always count from the original day and clamp to the month's end: a task from
 * 31 January falls on 28/29 February, 31 March, 30 April, 31 May… (it never drifts to the 28th).
 */
export function recurrenceDates(dueDate: string, type: RecurrenceType, endDate?: string | null): string[] {
  parse(dueDate);
  if (type === 'none') return [dueDate];
  const end = endDate ?? defaultRecurrenceEnd(dueDate, type)!;
  parse(end);
  if (compareDates(end, dueDate) < 0) return [];
  const dates: string[] = [];
  if (type === 'monthly') {
    const last = toDayNumber(end);
    for (let i = 0; ; i++) {
      const next = addMonths(dueDate, i);
      if (toDayNumber(next) > last) break;
      dates.push(next);
    }
    return dates;
  }
  const step = type === 'daily' ? 1 : type === 'every_2_days' ? 2 : 7;
  const first = toDayNumber(dueDate);
  const last = toDayNumber(end);
  for (let n = first; n <= last; n += step) dates.push(fromDayNumber(n));
  return dates;
}

/**
 * The numbers of the success message (SPEC.md section 8): for a repeating task N is the total
 * number of created tasks divided by the number of students (tasks per student); otherwise N is
 * the total. M is the number of students.
 */
export function assignmentSuccessCounts(total: number, studentCount: number, repeating: boolean): { tasks: number; students: number } {
  const students = Math.max(0, studentCount);
  if (!repeating) return { tasks: total, students };
  return { tasks: students > 0 ? Math.round(total / students) : total, students };
}
