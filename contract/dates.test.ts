import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateString } from './common';
import { DATE_PATTERN, DATE_RANGE, EXPIRY_DAYS, RECURRENCE_TYPES } from './constants';
import { deriveStatus } from './status';
import {
  addDays,
  addMonths,
  compareDates,
  defaultRecurrenceEnd,
  fromDayNumber,
  isDateInRange,
  maxRecurrenceEnd,
  recurrenceDates,
  toDayNumber,
} from './recurrence';

/** The date window (DATE_RANGE) and the arithmetic near its bounds (issue findings L1/L2). */
const MIN = toDayNumber(DATE_RANGE.min);
const MAX = toDayNumber(DATE_RANGE.max);
/** Any date of the window, weighted towards its first and last 60 days. */
const windowDate = fc
  .oneof(fc.integer({ min: MIN, max: MIN + 60 }), fc.integer({ min: MAX - 60, max: MAX }), fc.integer({ min: MIN, max: MAX }))
  .map(fromDayNumber);

describe('the date window', () => {
  it('accepts exactly 2000-01-01 … 2100-12-31 (existing dates only)', () => {
    expect(isDateInRange('1999-12-31')).toBe(false);
    expect(isDateInRange('2000-01-01')).toBe(true);
    expect(isDateInRange('2100-12-31')).toBe(true);
    expect(isDateInRange('2101-01-01')).toBe(false);
    expect(isDateInRange('0000-00-00')).toBe(false);
    expect(isDateInRange('2100-02-29')).toBe(false); // 2100 is no leap year
    expect(isDateInRange('2000-02-29')).toBe(true);
    expect(dateString.safeParse('9999-12-25').success).toBe(false);
    expect(dateString.safeParse('2026-11-22').success).toBe(true);
  });

  it('the documented pattern agrees with the check for every day from 1998 to 2102', () => {
    const re = new RegExp(DATE_PATTERN);
    for (let n = toDayNumber('1998-01-01'); n <= toDayNumber('2102-12-31'); n++) {
      const d = fromDayNumber(n);
      // every existing date the pattern lets through is in the window, and every one in the window passes it
      expect(re.test(d)).toBe(isDateInRange(d));
    }
    expect(re.test('0000-00-00')).toBe(false);
  });

  it('never writes a date outside years 0000–9999 (RangeError instead of 10000-01-23)', () => {
    expect(() => addDays('9999-12-25', 29)).toThrow(RangeError);
    expect(() => addMonths('9999-12-31', 1)).toThrow(RangeError);
    expect(() => recurrenceDates('9999-12-25', 'daily')).toThrow(RangeError);
  });
});

describe('date arithmetic near the bounds (property)', () => {
  it('compareDates orders dates like their day numbers, also where text order and date order differ', () => {
    fc.assert(
      fc.property(windowDate, windowDate, (a, b) => {
        expect(Math.sign(compareDates(a, b))).toBe(Math.sign(toDayNumber(a) - toDayNumber(b)));
      }),
    );
    expect(compareDates('10000-01-30', '2026-01-01')).toBeGreaterThan(0); // as text it would sort first
    expect('10000-01-30' < '2026-01-01').toBe(true);
  });

  it('addDays round-trips and every expiry (due + 1…30 days) is a valid date after its due date and before 2101-02-01', () => {
    fc.assert(
      fc.property(windowDate, fc.integer({ min: EXPIRY_DAYS.min, max: EXPIRY_DAYS.max }), (due, days) => {
        const expiry = addDays(due, days);
        expect(expiry).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(addDays(expiry, -days)).toBe(due);
        expect(compareDates(expiry, due)).toBe(days);
        expect(compareDates(expiry, '2101-02-01')).toBeLessThan(0);
        // the status of a task does not depend on how the dates are written
        const today = addDays(due, days + 1);
        expect(deriveStatus({ completed_at: null, due_date: due, expiration_date: expiry }, today)).toBe('expired');
        expect(deriveStatus({ completed_at: null, due_date: due, expiration_date: expiry }, expiry)).toBe('overdue');
      }),
    );
  });

  it('every series inside the window stays inside it: dates ascending, first = due, last ≤ end ≤ 2100-12-31', () => {
    fc.assert(
      fc.property(windowDate, fc.constantFrom(...RECURRENCE_TYPES), fc.option(fc.integer({ min: 0, max: 400 })), (due, type, endOffset) => {
        const max = maxRecurrenceEnd(due);
        expect(isDateInRange(max)).toBe(true);
        const explicit = endOffset === null ? null : fromDayNumber(Math.min(toDayNumber(due) + endOffset, toDayNumber(max)));
        const end = explicit ?? defaultRecurrenceEnd(due, type);
        if (end !== null) expect(isDateInRange(end)).toBe(true);
        const dates = recurrenceDates(due, type, explicit);
        expect(dates[0]).toBe(due);
        for (const d of dates) expect(isDateInRange(d)).toBe(true);
        for (let i = 1; i < dates.length; i++) expect(compareDates(dates[i - 1]!, dates[i]!)).toBeLessThan(0);
        if (end !== null) expect(compareDates(dates.at(-1)!, end)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 300 },
    );
  });

  it('addMonths near the end of the window clamps to the month and stays a calendar date', () => {
    fc.assert(
      fc.property(windowDate, fc.integer({ min: -12, max: 12 }), (d, months) => {
        const r = addMonths(d, months);
        expect(toDayNumber(r)).toBeGreaterThan(0); // parses back
        expect(Math.sign(compareDates(r, d))).toBe(Math.sign(months));
      }),
    );
    expect(addMonths('2100-01-31', 1)).toBe('2100-02-28');
    expect(maxRecurrenceEnd('2100-06-15')).toBe(DATE_RANGE.max);
    expect(defaultRecurrenceEnd('2100-12-31', 'monthly')).toBe(DATE_RANGE.max);
  });
});
