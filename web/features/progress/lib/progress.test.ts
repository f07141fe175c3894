import { describe, expect, it } from 'vitest';
import { chartSeries, shortDate } from './progress';

describe('progress helpers', () => {
  it('chart series: short German dates, minutes to one decimal, and whether anything was practised', () => {
    expect(shortDate('2026-03-09')).toBe('09.03.');
    const s = chartSeries([
      { date: '2026-03-28', practice_time_minutes: 0 },
      { date: '2026-03-29', practice_time_minutes: 25.55 },
    ]);
    expect(s).toEqual({ labels: ['28.03.', '29.03.'], dates: ['2026-03-28', '2026-03-29'], minutes: [0, 25.6], hasPractice: true });
    expect(chartSeries([{ date: '2026-03-28', practice_time_minutes: 0 }]).hasPractice).toBe(false);
  });
});
