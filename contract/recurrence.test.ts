import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addDays,
  addMonths,
  assignmentSuccessCounts,
  daysBetween,
  defaultRecurrenceEnd,
  isCalendarDate,
  maxRecurrenceEnd,
  recurrenceDates,
  recurrenceEndProblem,
} from './recurrence';
import { RECURRENCE_TYPES } from './constants';

describe('calendar date arithmetic', () => {
  it('adds days across month and year ends', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
  });

  it('is not shifted by summer time (Europe: 29 March and 25 October 2026)', () => {
    expect(addDays('2026-03-28', 1)).toBe('2026-03-29');
    expect(addDays('2026-03-29', 1)).toBe('2026-03-30');
    expect(addDays('2026-10-24', 1)).toBe('2026-10-25');
    expect(addDays('2026-10-25', 1)).toBe('2026-10-26');
    expect(recurrenceDates('2026-03-26', 'daily', '2026-04-01')).toEqual([
      '2026-03-26', '2026-03-27', '2026-03-28', '2026-03-29', '2026-03-30', '2026-03-31', '2026-04-01',
    ]);
    expect(recurrenceDates('2026-10-20', 'weekly', '2026-11-10')).toEqual(['2026-10-20', '2026-10-27', '2026-11-03', '2026-11-10']);
    expect(daysBetween('2026-03-01', '2026-04-01')).toBe(31);
    expect(daysBetween('2026-10-01', '2026-11-01')).toBe(31);
  });

  it('clamps months to their last day and handles leap years', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-03-31', 1)).toBe('2026-04-30');
    expect(addMonths('2026-12-15', 1)).toBe('2027-01-15');
    expect(addMonths('2028-02-29', 12)).toBe('2029-02-28');
    expect(addMonths('2026-05-10', -5)).toBe('2025-12-10');
    expect(addMonths('2100-01-31', 1)).toBe('2100-02-28'); // not a leap year
    expect(addMonths('2000-01-31', 1)).toBe('2000-02-29'); // a leap year
  });

  it('knows real calendar dates', () => {
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
    expect(isCalendarDate('2026-1-01')).toBe(false);
    expect(() => recurrenceDates('2026-02-30', 'daily')).toThrow(RangeError);
  });
});

describe('default ends (SPEC.md section 9)', () => {
  it('daily +29 days, every 2 days +58, weekly +49, monthly +1 month, none has no end', () => {
    expect(defaultRecurrenceEnd('2026-11-22', 'daily')).toBe('2026-12-21');
    expect(defaultRecurrenceEnd('2026-11-22', 'every_2_days')).toBe('2027-01-19');
    expect(defaultRecurrenceEnd('2026-11-22', 'weekly')).toBe('2027-01-10');
    expect(defaultRecurrenceEnd('2026-11-22', 'monthly')).toBe('2026-12-22');
    expect(defaultRecurrenceEnd('2026-01-31', 'monthly')).toBe('2026-02-28');
    expect(defaultRecurrenceEnd('2026-11-22', 'none')).toBeNull();
  });

  it('gives 30, 30, 8 and 2 dates', () => {
    expect(recurrenceDates('2026-11-22', 'daily')).toHaveLength(30);
    expect(recurrenceDates('2026-11-22', 'every_2_days')).toHaveLength(30);
    expect(recurrenceDates('2026-11-22', 'weekly')).toHaveLength(8);
    expect(recurrenceDates('2026-11-22', 'monthly')).toEqual(['2026-11-22', '2026-12-22']);
    expect(recurrenceDates('2026-11-22', 'none')).toEqual(['2026-11-22']);
    expect(recurrenceDates('2026-11-22', 'none', '2027-01-01')).toEqual(['2026-11-22']);
  });
});

describe('series dates', () => {
  it('steps until the end date inclusive', () => {
    expect(recurrenceDates('2026-11-02', 'weekly', '2026-11-23')).toEqual(['2026-11-02', '2026-11-09', '2026-11-16', '2026-11-23']);
    expect(recurrenceDates('2026-11-02', 'weekly', '2026-11-22')).toEqual(['2026-11-02', '2026-11-09', '2026-11-16']);
    expect(recurrenceDates('2026-11-02', 'every_2_days', '2026-11-07')).toEqual(['2026-11-02', '2026-11-04', '2026-11-06']);
    expect(recurrenceDates('2026-11-02', 'daily', '2026-11-02')).toEqual(['2026-11-02']);
    expect(recurrenceDates('2026-11-02', 'daily', '2026-11-01')).toEqual([]);
  });

  it('keeps a monthly task on its original day: 31 January → end of February → 31 March', () => {
    expect(recurrenceDates('2026-01-31', 'monthly', '2026-06-30')).toEqual([
      '2026-01-31', '2026-02-28', '2026-03-31', '2026-04-30', '2026-05-31', '2026-06-30',
    ]);
    expect(recurrenceDates('2028-01-31', 'monthly', '2028-03-31')).toEqual(['2028-01-31', '2028-02-29', '2028-03-31']);
    expect(recurrenceDates('2028-02-29', 'monthly', '2029-02-28')).toHaveLength(13);
    expect(recurrenceDates('2026-01-30', 'monthly', '2026-03-30')).toEqual(['2026-01-30', '2026-02-28', '2026-03-30']);
  });

  it('crosses a leap day', () => {
    expect(recurrenceDates('2028-02-27', 'daily', '2028-03-01')).toEqual(['2028-02-27', '2028-02-28', '2028-02-29', '2028-03-01']);
    expect(recurrenceDates('2027-02-27', 'daily', '2027-03-01')).toEqual(['2027-02-27', '2027-02-28', '2027-03-01']);
  });

  it('allows an end date up to one year after the due date', () => {
    expect(maxRecurrenceEnd('2026-11-22')).toBe('2027-11-22');
    expect(maxRecurrenceEnd('2028-02-29')).toBe('2029-02-28');
    expect(recurrenceEndProblem('2026-11-22', '2026-11-21')).toBe('before_due');
    expect(recurrenceEndProblem('2026-11-22', '2026-11-22')).toBeNull();
    expect(recurrenceEndProblem('2026-11-22', '2027-11-22')).toBeNull();
    expect(recurrenceEndProblem('2026-11-22', '2027-11-23')).toBe('too_far');
    expect(recurrenceDates('2026-11-22', 'daily', '2027-11-22')).toHaveLength(366);
  });
});

const dayNumber = fc.integer({ min: 0, max: 365 * 200 }); // 1970 … 2169
const dateArb = dayNumber.map((n) => addDays('1970-01-01', n));
const repeating = fc.constantFrom('daily', 'every_2_days', 'weekly', 'monthly' as const);

describe('properties', { timeout: 60_000 }, () => {
  it('dates are ascending, unique, within [due, end], start on the due date, with the expected count', () => {
    fc.assert(
      fc.property(dateArb, repeating, fc.integer({ min: 0, max: 400 }), (due, type, span) => {
        const end = addDays(due, span);
        const dates = recurrenceDates(due, type, end);
        expect(dates[0]).toBe(due);
        for (const d of dates) {
          expect(isCalendarDate(d)).toBe(true);
          expect(d >= due && d <= end).toBe(true);
        }
        for (let i = 1; i < dates.length; i++) expect(dates[i]! > dates[i - 1]!).toBe(true);
        expect(new Set(dates).size).toBe(dates.length);
        if (type !== 'monthly') {
          const step = type === 'daily' ? 1 : type === 'every_2_days' ? 2 : 7;
          expect(dates).toHaveLength(Math.floor(span / step) + 1);
          for (let i = 1; i < dates.length; i++) expect(daysBetween(dates[i - 1]!, dates[i]!)).toBe(step);
          // the next step would pass the end
          expect(addDays(dates[dates.length - 1]!, step) > end).toBe(true);
        } else {
          expect(addMonths(due, dates.length) > end).toBe(true);
          for (const [i, d] of dates.entries()) expect(d).toBe(addMonths(due, i));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('default ends give 30 / 30 / 8 / 2 dates from any day', () => {
    const expected = { daily: 30, every_2_days: 30, weekly: 8, monthly: 2 } as const;
    fc.assert(
      // A default end past 2100-12-31 is cut at the window's end (contract/dates.test.ts covers that):
      // here, due dates whose default series ends inside the window.
      fc.property(dateArb.filter((d) => d <= '2100-10-31'), repeating, (due, type) => {
        expect(recurrenceDates(due, type)).toHaveLength(expected[type]);
        expect(recurrenceEndProblem(due, defaultRecurrenceEnd(due, type)!)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('a monthly date keeps the original day or is the last day of a shorter month', () => {
    fc.assert(
      fc.property(dateArb, fc.integer({ min: 0, max: 24 }), (due, k) => {
        const d = addMonths(due, k);
        const day = Number(due.slice(8));
        const got = Number(d.slice(8));
        if (got !== day) {
          expect(got).toBeLessThan(day);
          expect(addDays(d, 1).slice(8)).toBe('01');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('addDays and daysBetween are inverse', () => {
    fc.assert(
      fc.property(dateArb, fc.integer({ min: -5000, max: 5000 }), (d, n) => {
        expect(daysBetween(d, addDays(d, n))).toBe(n);
      }),
    );
  });

  it('every recurrence type is covered', () => {
    for (const t of RECURRENCE_TYPES) expect(recurrenceDates('2026-11-22', t).length).toBeGreaterThan(0);
  });
});

describe('success message counts (SPEC.md section 8)', () => {
  it('repeating: N is the total divided by the student count', () => {
    expect(assignmentSuccessCounts(16, 2, true)).toEqual({ tasks: 8, students: 2 });
    expect(assignmentSuccessCounts(90, 3, true)).toEqual({ tasks: 30, students: 3 });
    expect(assignmentSuccessCounts(2, 1, true)).toEqual({ tasks: 2, students: 1 });
  });

  it('not repeating: N is the total', () => {
    expect(assignmentSuccessCounts(3, 3, false)).toEqual({ tasks: 3, students: 3 });
    expect(assignmentSuccessCounts(1, 1, false)).toEqual({ tasks: 1, students: 1 });
  });

  it('never divides by zero', () => {
    expect(assignmentSuccessCounts(0, 0, true)).toEqual({ tasks: 0, students: 0 });
  });
});

describe('independent of the process time zone', () => {
  it('gives the same dates in Europe/Berlin, America/Sao_Paulo, Pacific/Chatham and UTC', () => {
    const saved = process.env.TZ;
    const results: string[][] = [];
    try {
      for (const tz of ['Europe/Berlin', 'America/Sao_Paulo', 'Pacific/Chatham', 'UTC']) {
        process.env.TZ = tz;
        results.push([
          ...recurrenceDates('2026-03-22', 'daily', '2026-04-05'),
          ...recurrenceDates('2026-10-18', 'weekly', '2026-11-15'),
          ...recurrenceDates('2026-01-31', 'monthly', '2026-12-31'),
        ]);
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
    for (const r of results) expect(r).toEqual(results[0]);
    expect(results[0]).toContain('2026-03-29');
    expect(results[0]).toContain('2026-10-25');
  });
});
