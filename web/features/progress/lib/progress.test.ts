import { describe, expect, it } from 'vitest';
import type { Submission } from '@contract/submissions';
import { chartSeries, shortDate, upcomingTasks } from './progress';

const sub = (id: number, due_date: string, status: Submission['status']) => ({ id, due_date, status }) as Submission;

describe('progress helpers', () => {
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
