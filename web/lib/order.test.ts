import { describe, expect, it } from 'vitest';
import { byIso } from './order';

describe('byIso', () => {
  it('orders calendar dates and timestamps in time', () => {
    expect(['2026-12-01', '2026-11-28', '2026-11-30'].sort(byIso)).toEqual(['2026-11-28', '2026-11-30', '2026-12-01']);
    expect(['2026-11-28T09:00:00.000Z', '2026-11-28T08:59:59.999Z', '2025-12-31T23:00:00.000Z'].sort(byIso)).toEqual([
      '2025-12-31T23:00:00.000Z',
      '2026-11-28T08:59:59.999Z',
      '2026-11-28T09:00:00.000Z',
    ]);
  });

  it('says equal for equal strings, so a second key decides', () => {
    expect(byIso('2026-11-28', '2026-11-28')).toBe(0);
    expect(byIso('2026-11-27', '2026-11-28')).toBeLessThan(0);
    expect(byIso('2026-11-29', '2026-11-28')).toBeGreaterThan(0);
  });
});
