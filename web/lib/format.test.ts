import { describe, expect, it } from 'vitest';
import {
  formatClock,
  formatDate,
  formatDateTime,
  formatDuration,
  formatFileSize,
  formatLongDate,
  formatPercent,
  formatPracticeTime,
  initials,
} from './format';

describe('formatDate (de-DE dd.mm.yyyy)', () => {
  it.each([
    ['2026-11-23', '23.11.2026'],
    ['2026-01-01', '01.01.2026'],
    ['2026-12-31', '31.12.2026'],
    ['2024-02-29', '29.02.2024'],
    // ISO timestamps are shown in the given zone: 23:30 UTC is already the next day in Berlin
    ['2026-11-22T23:30:00.000Z', '23.11.2026'],
    ['2026-06-30T21:59:00.000Z', '30.06.2026'],
    ['2026-06-30T22:00:00.000Z', '01.07.2026'],
    [null, ''],
    [undefined, ''],
    ['', ''],
    ['not a date', ''],
  ])('%s → %s', (input, expected) => {
    expect(formatDate(input, 'Europe/Berlin')).toBe(expected);
  });

  it.each(['Pacific/Kiritimati', 'America/Los_Angeles', 'Pacific/Pago_Pago', 'UTC'])('a calendar date never shifts (zone %s)', (zone) => {
    expect(formatDate('2026-03-29', zone)).toBe('29.03.2026');
    expect(formatDate('2026-10-25', zone)).toBe('25.10.2026');
  });

  it('formats Date objects', () => {
    expect(formatDate(new Date(Date.UTC(2026, 10, 5, 12)), 'Europe/Berlin')).toBe('05.11.2026');
  });
});

describe('formatDateTime', () => {
  it.each([
    ['2026-11-22T08:15:00.000Z', '22.11.2026, 09:15'],
    ['2026-07-01T08:15:00.000Z', '01.07.2026, 10:15'],
    [null, ''],
  ])('%s → %s', (input, expected) => {
    expect(formatDateTime(input, 'Europe/Berlin')).toBe(expected);
  });
});

describe('formatLongDate', () => {
  it.each([
    ['2026-11-23', 'de', 'Montag, 23. November 2026'],
    ['2026-11-22', 'de', 'Sonntag, 22. November 2026'],
    ['2027-03-01', 'de', 'Montag, 1. März 2027'],
    ['2026-11-23', 'tr', '23 Kasım 2026 Pazartesi'],
    [null, 'de', ''],
  ])('%s (%s) → %s', (input, lang, expected) => {
    expect(formatLongDate(input, lang, 'Pacific/Kiritimati')).toBe(expected);
  });
});

describe('formatPracticeTime', () => {
  it.each([
    [0, '0 min'],
    [null, '0 min'],
    [undefined, '0 min'],
    [0.4, '0 min'],
    [1, '1 min'],
    [12.5, '13 min'],
    [59, '59 min'],
    [59.4, '59 min'],
    [59.6, '1:00 h'],
    [60, '1:00 h'],
    [61, '1:01 h'],
    [75, '1:15 h'],
    [119.5, '2:00 h'],
    [600, '10:00 h'],
    [1505, '25:05 h'],
    [-5, '0 min'],
  ])('%s → %s', (minutes, expected) => {
    expect(formatPracticeTime(minutes, 'de')).toBe(expected);
  });
});

describe('formatDuration (under 1 minute as seconds)', () => {
  it.each([
    [0, '0 s'],
    [0.25, '15 s'],
    [0.5, '30 s'],
    [0.99, '59 s'],
    [1, '1 min'],
    [2.5, '3 min'],
    [90, '1:30 h'],
    [null, '0 s'],
  ])('%s → %s', (minutes, expected) => {
    expect(formatDuration(minutes, 'de')).toBe(expected);
  });
});

describe('formatClock (mm:ss)', () => {
  it.each([
    [0, '00:00'],
    [5, '00:05'],
    [65, '01:05'],
    [3599, '59:59'],
    [3600, '60:00'],
    [-3, '00:00'],
    [12.9, '00:12'],
  ])('%s → %s', (seconds, expected) => {
    expect(formatClock(seconds)).toBe(expected);
  });
});

describe('formatFileSize (base 1024, two decimals)', () => {
  it.each([
    [0, '0 Bytes'],
    [null, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1,5 KB'],
    [1234567, '1,18 MB'],
    [20971520, '20 MB'],
    [1073741824, '1 GB'],
    [5 * 1073741824 + 123456789, '5,11 GB'],
    [4 * 1024 ** 4, '4096 GB'],
  ])('%s → %s', (bytes, expected) => {
    expect(formatFileSize(bytes, 'de')).toBe(expected);
  });
});

describe('formatPercent (rounded, in the language\'s own format)', () => {
  it.each([
    [0, '0\u00a0%', '%0'],
    [85.4, '85\u00a0%', '%85'],
    [85.5, '86\u00a0%', '%86'],
    [100, '100\u00a0%', '%100'],
    [null, '–', '–'],
    [undefined, '–', '–'],
  ])('%s → de %s, tr %s', (value, de, tr) => {
    expect(formatPercent(value, 'de')).toBe(de);
    expect(formatPercent(value, 'tr')).toBe(tr);
  });
});

describe('initials', () => {
  it.each([
    ['Mehmet Yılmaz', 'MY'],
    ['ayşe demir', 'AD'],
    ['  Lukas   Becker ', 'LB'],
    ['Anna Maria Schmidt', 'AMS'],
    ['Cher', 'C'],
    ['', 'U'],
    [null, 'U'],
    [undefined, 'U'],
    ['   ', 'U'],
  ])('%s → %s', (name, expected) => {
    expect(initials(name)).toBe(expected);
  });
});

describe('units follow the interface language (tr: dk, sa, sn, bayt)', () => {
  it.each([
    [0, 'de', '0 min'],
    [45, 'tr', '45 dk'],
    [65, 'tr', '1:05 sa'],
    [65, 'de', '1:05 h'],
  ])('formatPracticeTime(%s, %s) → %s', (minutes, lang, expected) => {
    expect(formatPracticeTime(minutes, lang)).toBe(expected);
  });

  it('formatDuration and formatFileSize in Turkish', () => {
    expect(formatDuration(0.75, 'tr')).toBe('45 sn');
    expect(formatDuration(0.75, 'de')).toBe('45 s');
    expect(formatFileSize(0, 'tr')).toBe('0 bayt');
    expect(formatFileSize(512, 'tr')).toBe('512 bayt');
    expect(formatFileSize(512, 'de')).toBe('512 Bytes');
    expect(formatFileSize(1536, 'tr')).toBe('1,5 KB');
  });
});
