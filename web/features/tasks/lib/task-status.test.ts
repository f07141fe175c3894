import { describe, expect, it } from 'vitest';
import { ApiError } from '@web/lib/api';
import { canComplete, competencyKey, completeErrorKey, inTab, loadErrorKey, localToday, sortForList, tabCounts } from './task-status';

const list = [{ status: 'open' as const }, { status: 'overdue' as const }, { status: 'expired' as const }, { status: 'completed' as const }, { status: 'completed' as const }];

describe('task tabs', () => {
  it('counts all, open (open + overdue) and completed', () => {
    expect(tabCounts(list)).toEqual({ all: 5, open: 2, completed: 2 });
    expect(tabCounts([])).toEqual({ all: 0, open: 0, completed: 0 });
  });
  it('puts expired tasks under All only', () => {
    expect(inTab({ status: 'expired' }, 'all')).toBe(true);
    expect(inTab({ status: 'expired' }, 'open')).toBe(false);
    expect(inTab({ status: 'expired' }, 'completed')).toBe(false);
  });
  it('only open and overdue tasks can be marked done', () => {
    expect(list.map(canComplete)).toEqual([true, true, false, false, false]);
  });
});

describe('messages', () => {
  it('maps a failed completion: 403 → no permission, else the generic text', () => {
    expect(completeErrorKey(new ApiError(403, 'x'))).toBe('complete.forbidden');
    expect(completeErrorKey(new ApiError(409, 'x'))).toBe('complete.error');
    expect(completeErrorKey(new Error('x'))).toBe('complete.error');
  });
  it('maps a failed load: 403, 404, other', () => {
    expect(loadErrorKey(new ApiError(403, 'x'))).toBe('detail.loadForbidden');
    expect(loadErrorKey(new ApiError(404, 'x'))).toBe('detail.loadNotFound');
    expect(loadErrorKey(new ApiError(500, 'x'))).toBe('detail.loadError');
    expect(loadErrorKey(new ApiError(0, 'x'))).toBe('detail.loadError');
  });
  it('labels competency levels, with a fallback', () => {
    expect(competencyKey('expert')).toBe('competency.expert');
    expect(competencyKey(null)).toBe('competency.undefined');
    expect(competencyKey('guru')).toBe('competency.undefined');
  });
  it('formats the local date', () => {
    expect(localToday(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});

describe('sortForList', () => {
  it('puts work still to do first (earliest due on top), then done and expired tasks (latest first)', () => {
    const tasks = [
      { id: 1, status: 'completed' as const, due_date: '2026-11-01' },
      { id: 2, status: 'open' as const, due_date: '2026-11-25' },
      { id: 3, status: 'expired' as const, due_date: '2026-11-10' },
      { id: 4, status: 'overdue' as const, due_date: '2026-11-21' },
      { id: 5, status: 'open' as const, due_date: '2026-11-22' },
      { id: 6, status: 'completed' as const, due_date: '2026-11-20' },
    ];
    expect(sortForList(tasks).map((t) => t.id)).toEqual([4, 5, 2, 6, 3, 1]);
    expect(tasks.map((t) => t.id)).toEqual([1, 2, 3, 4, 5, 6]); // input untouched
  });
});
