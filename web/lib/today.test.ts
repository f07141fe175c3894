import { describe, expect, it } from 'vitest';
import { competencyKey } from './competency';
import { localToday } from './today';

describe('shared date and label helpers', () => {
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
});
