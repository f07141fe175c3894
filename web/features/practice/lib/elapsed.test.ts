import { describe, expect, it } from 'vitest';
import { formatClock, formatDuration } from '@web/lib/format';
import { CAP_SECONDS, elapsedSeconds, estimateSkew, reachedCap } from './elapsed';

const start = '2026-11-22T10:00:00.000Z';
const at = (iso: string) => Date.parse(iso);

describe('elapsedSeconds', () => {
  it('counts whole seconds from the server start', () => {
    expect(elapsedSeconds(start, at('2026-11-22T10:00:00.999Z'))).toBe(0);
    expect(elapsedSeconds(start, at('2026-11-22T10:00:01.000Z'))).toBe(1);
    expect(elapsedSeconds(start, at('2026-11-22T10:12:34.500Z'))).toBe(754);
  });
  it('never goes below zero (device clock behind) nor past 180 minutes (forgotten timer)', () => {
    expect(elapsedSeconds(start, at('2026-11-22T09:59:00.000Z'))).toBe(0);
    expect(elapsedSeconds(start, at('2026-11-22T13:00:00.000Z'))).toBe(CAP_SECONDS);
    expect(elapsedSeconds(start, at('2026-11-23T10:00:00.000Z'))).toBe(180 * 60);
    expect(reachedCap(start, at('2026-11-22T12:59:59.000Z'))).toBe(false);
    expect(reachedCap(start, at('2026-11-22T13:00:00.000Z'))).toBe(true);
  });
  it('corrects for a device clock that runs ahead of the server', () => {
    expect(elapsedSeconds(start, at('2026-11-22T10:05:00.000Z'), 60_000)).toBe(240);
  });
  it('answers 0 for a broken timestamp', () => {
    expect(elapsedSeconds('nonsense', Date.now())).toBe(0);
  });
});

describe('estimateSkew', () => {
  it('is zero when the server start lies within the request', () => {
    expect(estimateSkew(start, at('2026-11-22T09:59:59.800Z'), at('2026-11-22T10:00:00.300Z'))).toBe(0);
  });
  it('measures a device clock five minutes ahead', () => {
    expect(estimateSkew(start, at('2026-11-22T10:04:59.900Z'), at('2026-11-22T10:05:00.100Z'))).toBe(300_000);
  });
});

describe('timer and duration formatting (SPEC.md section 9)', () => {
  it.each([
    [0, '00:00'],
    [59, '00:59'],
    [60, '01:00'],
    [754, '12:34'],
    [3599, '59:59'],
    [3600, '60:00'],
    [CAP_SECONDS, '180:00'],
  ])('%i s → %s', (s, text) => expect(formatClock(s)).toBe(text));

  it.each([
    [0.5, '30 s'],
    [0.01, '1 s'],
    [0.99, '59 s'],
    [1, '1 min'],
    [12.49, '12 min'],
    [59.6, '1:00 h'],
    [75, '1:15 h'],
    [180, '3:00 h'],
  ])('%f min → %s', (m, text) => expect(formatDuration(m, 'de')).toBe(text));
});
