import type { ProgressPoint } from '@contract/metrics';

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
