import type { PracticeSession } from '@contract/practice';

/** The calendar date 'YYYY-MM-DD' of an instant in this browser's time zone (as the app's "today"). */
export function localDateOf(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

/**
 * Seconds of the finished sessions that started on `day` (the running one, `runningId`, is left
 * out: the clock adds its live time). Durations come from the server (minutes, two decimals).
 */
export function finishedSecondsOn(sessions: readonly PracticeSession[], day: string, runningId?: number | null): number {
  let minutes = 0;
  for (const s of sessions) {
    if (s.ended_at === null || s.id === runningId) continue;
    if (localDateOf(s.started_at) !== day) continue;
    minutes += Number(s.duration_minutes) || 0;
  }
  return Math.round(minutes * 60);
}
