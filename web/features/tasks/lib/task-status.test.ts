import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '@web/lib/api';
import { TAB_QUERY, canComplete, competencyKey, completeErrorKey, countsAfterComplete, inTab, loadErrorKey, localToday, sortForList, tabCounts, tasksForTab } from './task-status';

const list = [{ status: 'open' as const }, { status: 'overdue' as const }, { status: 'expired' as const }, { status: 'completed' as const }, { status: 'completed' as const }];

describe('task tabs', () => {
  it('counts all, open (open + overdue) and completed from the server counts', () => {
    expect(tabCounts({ total: 5, open: 1, overdue: 1, completed: 2, expired: 1 })).toEqual({ all: 5, open: 2, completed: 2 });
    expect(tabCounts({ total: 0, open: 0, overdue: 0, completed: 0, expired: 0 })).toEqual({ all: 0, open: 0, completed: 0 });
  });
  it('asks the server per tab: All in the working order, Open by due date, Completed latest first', () => {
    expect(TAB_QUERY).toEqual({
      all: { order: 'work' },
      open: { status: 'open,overdue', order: 'due' },
      completed: { status: 'completed', order: 'due_desc' },
    });
  });
  it('moves a task just marked done from open or overdue to completed in the counts', () => {
    const c = { total: 5, open: 1, overdue: 1, completed: 2, expired: 1 };
    expect(countsAfterComplete(c, 'overdue')).toEqual({ total: 5, open: 1, overdue: 0, completed: 3, expired: 1 });
    expect(countsAfterComplete(c, 'open')).toEqual({ total: 5, open: 0, overdue: 1, completed: 3, expired: 1 });
    expect(countsAfterComplete(c, 'completed')).toBeNull();
    expect(countsAfterComplete({ ...c, open: 0 }, 'open')).toBeNull();
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

const t = (id: number, status: 'open' | 'overdue' | 'completed' | 'expired', due_date: string) => ({ id, status, due_date });

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

  it('orders without a collator (ISO dates by code unit: no ICU collation data on the first load)', () => {
    const spy = vi.spyOn(String.prototype, 'localeCompare');
    const collator = vi.spyOn(Intl, 'Collator');
    try {
      const list = [t(1, 'open', '2026-11-25'), t(2, 'completed', '2026-11-01'), t(3, 'open', '2026-11-21')];
      expect(sortForList(list).map((s) => s.id)).toEqual([3, 1, 2]);
      expect(tasksForTab([list], 'open').map((s) => s.id)).toEqual([3, 1]);
      expect(spy).not.toHaveBeenCalled();
      expect(collator).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
      collator.mockRestore();
    }
  });
});

describe('tasksForTab', () => {
  it('joins the pages once per task, in the server order of the tab', () => {
    const pages = [
      [t(4, 'overdue', '2026-11-21'), t(5, 'open', '2026-11-22')],
      [t(5, 'open', '2026-11-22'), t(2, 'open', '2026-11-25')], // page 2 overlaps after a change
    ];
    expect(tasksForTab(pages, 'open').map((s) => s.id)).toEqual([4, 5, 2]);
    const done = [[t(1, 'completed', '2026-11-20'), t(3, 'completed', '2026-11-20'), t(6, 'completed', '2026-11-01')]];
    expect(tasksForTab(done, 'completed').map((s) => s.id)).toEqual([3, 1, 6]);
  });
  it('drops a task that left the tab and moves it down under All', () => {
    const pages = [[t(4, 'completed', '2026-11-21'), t(5, 'open', '2026-11-22'), t(3, 'expired', '2026-11-10')]];
    expect(tasksForTab(pages, 'open').map((s) => s.id)).toEqual([5]);
    expect(tasksForTab(pages, 'all').map((s) => s.id)).toEqual([5, 4, 3]);
    expect(tasksForTab([], 'all')).toEqual([]);
  });
});
