import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { deriveStatus } from '@contract/status';
import { todayInZone } from '../../lib/time';

const BERLIN = 'Europe/Berlin';
const at = (iso: string) => todayInZone(BERLIN, new Date(iso));

describe('today in Europe/Berlin', () => {
  it.each([
    // winter (UTC+1): local midnight is 23:00 UTC
    ['2026-01-14T22:59:59.999Z', '2026-01-14'],
    ['2026-01-14T23:00:00.000Z', '2026-01-15'],
    // summer (UTC+2): local midnight is 22:00 UTC
    ['2026-07-14T21:59:59.999Z', '2026-07-14'],
    ['2026-07-14T22:00:00.000Z', '2026-07-15'],
    // the night the clocks go forward (29 March 2026, 02:00 → 03:00) and back (25 October 2026)
    ['2026-03-28T22:59:59.999Z', '2026-03-28'],
    ['2026-03-28T23:00:00.000Z', '2026-03-29'],
    ['2026-03-29T21:59:59.999Z', '2026-03-29'],
    ['2026-03-29T22:00:00.000Z', '2026-03-30'],
    ['2026-10-24T21:59:59.999Z', '2026-10-24'],
    ['2026-10-24T22:00:00.000Z', '2026-10-25'],
    ['2026-10-25T22:59:59.999Z', '2026-10-25'],
    ['2026-10-25T23:00:00.000Z', '2026-10-26'],
    // New Year
    ['2026-12-31T22:59:59.999Z', '2026-12-31'],
    ['2026-12-31T23:00:00.000Z', '2027-01-01'],
  ])('%s is %s in Berlin', (instant, date) => {
    expect(at(instant)).toBe(date);
  });
});

describe('deriveStatus at the edges of today (Europe/Berlin)', () => {
  const due = '2026-01-14';
  const before = at('2026-01-14T22:59:00.000Z'); // 23:59 local on the due date
  const after = at('2026-01-14T23:00:00.000Z'); // 00:00 local the next day

  it('a task due today is open until 23:59 local and overdue from 00:00', () => {
    expect(deriveStatus({ completed_at: null, due_date: due }, before)).toBe('open');
    expect(deriveStatus({ completed_at: null, due_date: due }, after)).toBe('overdue');
  });

  it('a task expiring today is still overdue (not expired) on its expiry day, expired from the next local midnight', () => {
    const s = { completed_at: null, due_date: '2026-01-12', expiration_date: due };
    expect(deriveStatus(s, before)).toBe('overdue');
    expect(deriveStatus(s, after)).toBe('expired');
  });

  it('a task due and expiring today is open until midnight, then expired', () => {
    const s = { completed_at: null, due_date: due, expiration_date: due };
    expect(deriveStatus(s, before)).toBe('open');
    expect(deriveStatus(s, after)).toBe('expired');
  });

  it('completed wins over every date rule', () => {
    expect(deriveStatus({ completed_at: '2026-01-01T10:00:00.000Z', due_date: '2020-01-01', expiration_date: '2020-01-02' }, after)).toBe('completed');
    expect(deriveStatus({ completed_at: new Date(), due_date: '2030-01-01' }, after)).toBe('completed');
  });

  it('summer time: 23:59 CEST is still the due day, 00:00 CEST is the next', () => {
    const s = { completed_at: null, due_date: '2026-07-14', expiration_date: '2026-07-14' };
    expect(deriveStatus(s, at('2026-07-14T21:59:00.000Z'))).toBe('open');
    expect(deriveStatus(s, at('2026-07-14T22:00:00.000Z'))).toBe('expired');
  });

  it('follows the order completed, expired, overdue, open for any dates', () => {
    const day = fc.integer({ min: 0, max: 3000 }).map((n) => new Date(Date.UTC(2024, 0, 1 + n)).toISOString().slice(0, 10));
    fc.assert(
      fc.property(day, day, fc.option(fc.integer({ min: 0, max: 30 })), fc.boolean(), (today, dueDate, expDays, done) => {
        const expiration = expDays === null ? null : new Date(Date.parse(dueDate) + expDays * 864e5).toISOString().slice(0, 10);
        const st = deriveStatus({ completed_at: done ? '2024-01-01T00:00:00Z' : null, due_date: dueDate, expiration_date: expiration }, today);
        if (done) return st === 'completed';
        if (expiration !== null && expiration < today) return st === 'expired';
        if (dueDate < today) return st === 'overdue';
        return st === 'open';
      }),
    );
  });
});
