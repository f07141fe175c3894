import type { CalendarEvent } from '@contract/calendar';

/**
 * SPEC.md section 9: touch-mouse ignore wait 500 ms, edge auto-scroll threshold 50 px, maximum
 * velocity 300 px/s. These are the built-in values of FullCalendar's interaction plugin (7.1:
 * `@fullcalendar/react/interaction`; its module config `touchMouseIgnoreWait` and the AutoScroller's
 * `edgeThreshold`/`maxVelocity`, which the package does not export for setting);
 * calendar-settings.test.ts checks the installed package still has them, so an upgrade cannot
 * change them silently.
 */
export const CALENDAR_INTERACTION = { touchMouseIgnoreWait: 500, edgeThreshold: 50, maxVelocity: 300 } as const;

/** A touch must rest this long to count as a long press (select / drag); a tap still clicks a day. */
export const LONG_PRESS_DELAY_MS = CALENDAR_INTERACTION.touchMouseIgnoreWait;

export type CalendarStatusKey = 'completed' | 'open' | 'expired';

/** The calendar shows three states (SPEC.md section 4): Erledigt, Verfallen, otherwise Offen (overdue included). */
export function calendarStatus(e: Pick<CalendarEvent, 'status' | 'completed'>): CalendarStatusKey {
  if (e.completed || e.status === 'completed') return 'completed';
  if (e.status === 'expired') return 'expired';
  return 'open';
}

/** Date (local calendar day) of a FullCalendar range bound, as YYYY-MM-DD. */
export function toDateString(d: Date): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}
