import type { CompetencyLevel } from '@contract/constants';
import type { ProgressPoint } from '@contract/metrics';
import type { Submission } from '@contract/submissions';

/** The translation key (progress namespace) of a competency level; 'Nicht definiert' for none. */
export function competencyKey(level: CompetencyLevel | null | undefined): string {
  return level ? `competency.${level}` : 'competency.none';
}

/** One formatter per time zone: building one costs more than formatting (a screen asks for today per row). */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

/** Today's calendar date (YYYY-MM-DD) in the browser's time zone, or in `timeZone`. */
export function localToday(now: Date = new Date(), timeZone?: string): string {
  const key = timeZone ?? '';
  let format = dayFormats.get(key);
  if (!format) dayFormats.set(key, (format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })));
  return format.format(now);
}

/** The next `count` open tasks by due date (then id): what the student should practise next. */
export function upcomingTasks(submissions: readonly Submission[], count: number): Submission[] {
  return submissions
    .filter((s) => s.status === 'open')
    .slice()
    .sort((a, b) => (a.due_date === b.due_date ? a.id - b.id : a.due_date < b.due_date ? -1 : 1))
    .slice(0, count);
}

/** 'dd.mm.' of a YYYY-MM-DD date, for the chart's axis (from the parts: no time-zone shift). */
export function shortDate(date: string): string {
  const [, m, d] = date.split('-');
  return `${d}.${m}.`;
}

/** Chart data of the 30-day series: axis labels, minutes per day (one decimal) and whether any day has minutes. */
export function chartSeries(points: readonly ProgressPoint[]): { labels: string[]; dates: string[]; minutes: number[]; hasPractice: boolean } {
  const minutes = points.map((p) => Math.round(p.practice_time_minutes * 10) / 10);
  return {
    labels: points.map((p) => shortDate(p.date)),
    dates: points.map((p) => p.date),
    minutes,
    hasPractice: minutes.some((m) => m > 0),
  };
}
