import { describe, expect, it } from 'vitest';
import { ApiError } from '@web/lib/api';
import { errorText, isEmail, sameName, shortDate, weekSeries } from './school';

describe('school helpers', () => {
  it('labels weeks by their Monday and rounds minutes', () => {
    expect(shortDate('2026-11-02')).toBe('02.11.');
    const s = weekSeries([
      { week_start: '2026-10-26', practice_minutes: 0, tasks_completed: 0 },
      { week_start: '2026-11-02', practice_minutes: 90.6, tasks_completed: 3 },
    ]);
    expect(s).toEqual({ labels: ['26.10.', '02.11.'], minutes: [0, 91], tasks: [0, 3], hasData: true });
    expect(weekSeries([{ week_start: '2026-11-02', practice_minutes: 0, tasks_completed: 0 }]).hasData).toBe(false);
  });

  it("confirms an erasure only with the student's name", () => {
    expect(sameName('  Ayşe   Demir ', 'Ayşe Demir')).toBe(true);
    expect(sameName('ayşe demir', 'Ayşe Demir')).toBe(false);
    expect(sameName('Ayşe', 'Ayşe Demir')).toBe(false);
    expect(sameName('', '')).toBe(false);
  });

  it("prefers the server's message, else the fallback", () => {
    expect(errorText(new ApiError(409, 'x', undefined, { message: 'Diese E-Mail-Adresse ist schon vergeben.' }), 'Fehler')).toBe('Diese E-Mail-Adresse ist schon vergeben.');
    expect(errorText(new ApiError(500, 'HTTP 500', undefined, 'upstream'), 'Fehler')).toBe('Fehler');
    expect(errorText(new ApiError(0, 'Keine Verbindung'), 'Fehler')).toBe('Keine Verbindung');
    expect(errorText(new Error('boom'), 'Fehler')).toBe('Fehler');
  });

  it('checks e-mail addresses like the browser (with a dot in the domain)', () => {
    expect(isEmail('lehrer@example.com')).toBe(true);
    expect(isEmail('keine-adresse')).toBe(false);
    expect(isEmail('a@b')).toBe(false);
  });
});
