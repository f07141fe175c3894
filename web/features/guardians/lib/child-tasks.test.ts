import { describe, expect, it } from 'vitest';
import type { Submission } from '@contract/submissions';
import { shiftDate, splitTasks } from './child-tasks';
import { localToday } from '@web/lib/today';

const task = (id: number, due_date: string) => ({ id, due_date }) as Submission;

describe('splitTasks', () => {
  it('puts today and later soonest first, earlier latest first, ties by id', () => {
    const list = [task(1, '2026-03-01'), task(2, '2026-03-10'), task(3, '2026-03-05'), task(4, '2026-03-05'), task(5, '2026-02-20'), task(6, '2026-03-04')];
    const { upcoming, past } = splitTasks(list, '2026-03-05');
    expect(upcoming.map((s) => s.id)).toEqual([3, 4, 2]);
    expect(past.map((s) => s.id)).toEqual([6, 1, 5]);
  });

  it('leaves the input alone and handles an empty list', () => {
    const list = [task(2, '2026-01-02'), task(1, '2026-01-01')];
    splitTasks(list, '2026-01-01');
    expect(list.map((s) => s.id)).toEqual([2, 1]);
    expect(splitTasks([], '2026-01-01')).toEqual({ upcoming: [], past: [] });
  });
});

describe('dates', () => {
  it.each([
    ['2026-03-29', 1, '2026-03-30'],
    ['2026-03-01', -1, '2026-02-28'],
    ['2024-03-01', -1, '2024-02-29'],
    ['2026-12-31', 30, '2027-01-30'],
    ['2026-10-25', -30, '2026-09-25'],
  ])('%s %+d days is %s', (date, days, expected) => {
    expect(shiftDate(date, days)).toBe(expected);
  });

  it('today is the calendar date in the time zone asked for', () => {
    const now = new Date('2026-06-30T22:30:00Z');
    expect(localToday(now, 'Europe/Berlin')).toBe('2026-07-01');
    expect(localToday(now, 'UTC')).toBe('2026-06-30');
  });
});
