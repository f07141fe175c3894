import { describe, expect, it } from 'vitest';
import type { Submission } from '@contract/submissions';
import { chartSeries, competencyKey, localToday, shortDate, upcomingTasks } from './progress';

const sub = (id: number, due_date: string, status: Submission['status']) => ({ id, due_date, status }) as Submission;

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

  it('the next tasks: only open ones, earliest due first, at most n', () => {
    const list = [
      sub(7, '2026-12-03', 'open'),
      sub(1, '2026-11-20', 'overdue'),
      sub(3, '2026-11-22', 'open'),
      sub(2, '2026-11-22', 'open'),
      sub(4, '2026-11-21', 'completed'),
      sub(5, '2026-11-25', 'open'),
      sub(6, '2026-11-23', 'open'),
      sub(8, '2026-12-01', 'open'),
    ];
    expect(upcomingTasks(list, 5).map((s) => s.id)).toEqual([2, 3, 6, 5, 8]);
    expect(upcomingTasks([], 5)).toEqual([]);
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
