import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALENDAR_INTERACTION, calendarStatus, toDateString } from './calendar-settings';

describe('calendar settings', () => {
  it('the installed interaction plugin uses SPEC’s touch and auto-scroll values', () => {
    const require = createRequire(import.meta.url);
    // The plugin's entry and the chunks it imports (the values live in one of them).
    const entry = require.resolve('@fullcalendar/react/interaction');
    const seen = new Set<string>();
    const read = (file: string): string => {
      if (seen.has(file)) return '';
      seen.add(file);
      const src = readFileSync(file, 'utf8');
      const imports = [...src.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => resolve(dirname(file), m[1]!));
      return src + imports.map(read).join('');
    };
    const src = read(entry);
    expect(src).toMatch(new RegExp(`touchMouseIgnoreWait = ${CALENDAR_INTERACTION.touchMouseIgnoreWait};`));
    expect(src).toMatch(new RegExp(`this\\.edgeThreshold = ${CALENDAR_INTERACTION.edgeThreshold};`));
    expect(src).toMatch(new RegExp(`this\\.maxVelocity = ${CALENDAR_INTERACTION.maxVelocity};`));
  });

  it('maps the four task states to the three calendar states', () => {
    expect(calendarStatus({ status: 'completed', completed: true })).toBe('completed');
    expect(calendarStatus({ status: 'expired', completed: false })).toBe('expired');
    expect(calendarStatus({ status: 'overdue', completed: false })).toBe('open');
    expect(calendarStatus({ status: 'open', completed: false })).toBe('open');
  });

  it('formats a local day without shifting it', () => {
    expect(toDateString(new Date(2026, 2, 29, 0, 0))).toBe('2026-03-29');
    expect(toDateString(new Date(2026, 9, 25, 23, 59))).toBe('2026-10-25');
  });
});
