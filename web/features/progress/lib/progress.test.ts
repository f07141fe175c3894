import { describe, expect, it } from 'vitest';
import { chartSeries, competencyKey, localToday, shortDate } from './progress';

describe('progress helpers', () => {
  it('maps competency levels to their label keys, and none to "Nicht definiert"', () => {
    expect(competencyKey('beginner')).toBe('competency.beginner');
    expect(competencyKey('expert')).toBe('competency.expert');
    expect(competencyKey(null)).toBe('competency.none');
    expect(competencyKey(undefined)).toBe('competency.none');
  });

  it('today in a given zone: 23:30 UTC is already tomorrow in Berlin', () => {
    expect(localToday(new Date('2026-03-28T23:30:00Z'), 'Europe/Berlin')).toBe('2026-03-29');
    expect(localToday(new Date('2026-03-28T22:30:00Z'), 'Europe/Berlin')).toBe('2026-03-28');
    expect(localToday(new Date('2026-10-25T22:59:00Z'), 'Europe/Berlin')).toBe('2026-10-25');
  });

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
