import type { SchoolDashboard } from '@contract/school';
import { isApiError } from '@web/lib/api';

/** 'dd.mm.' of a YYYY-MM-DD date (from its parts: no time-zone shift). */
export function shortDate(date: string): string {
  const [, m, d] = date.split('-');
  return `${d}.${m}.`;
}

/** The dashboard's weeks as chart series: axis labels, minutes (rounded) and tasks per week, and whether any week has either. */
export function weekSeries(weeks: SchoolDashboard['weeks']): { labels: string[]; minutes: number[]; tasks: number[]; hasData: boolean } {
  const minutes = weeks.map((w) => Math.round(w.practice_minutes));
  const tasks = weeks.map((w) => w.tasks_completed);
  return { labels: weeks.map((w) => shortDate(w.week_start)), minutes, tasks, hasData: minutes.some((m) => m > 0) || tasks.some((n) => n > 0) };
}

/** The server's own message of a failed call (in the request language), or the fallback. */
export function errorText(err: unknown, fallback: string): string {
  if (isApiError(err) && err.status !== 0 && err.body && typeof err.body === 'object') {
    const message = (err.body as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message;
  }
  if (isApiError(err, 0)) return err.message;
  return fallback;
}

/** A name typed again to confirm an erasure: equal when the same after trimming and collapsing spaces. */
export function sameName(typed: string, name: string): boolean {
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').normalize('NFC');
  return norm(typed) !== '' && norm(typed) === norm(name);
}

// The browser's idea of an e-mail address (input type=email), also checked by the server.
const EMAIL_RE = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

export function isEmail(value: string): boolean {
  return EMAIL_RE.test(value.trim());
}
