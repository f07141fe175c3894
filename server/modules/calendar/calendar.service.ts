import type { Db } from '../../db/client';
import { invalid } from '../../errors';
import { CALENDAR_MAX_DAYS, type CalendarEvent } from '@contract/calendar';
import { addDays, daysBetween } from '@contract/recurrence';
import { findCalendarEvents } from './calendar.repo';

const rangeMessages = {
  order: { de: 'Das Ende muss nach dem Anfang liegen.', tr: 'Bitiş, başlangıçtan sonra olmalıdır.' },
  tooLong: {
    de: `Der Zeitraum darf höchstens ${CALENDAR_MAX_DAYS} Tage umfassen.`,
    tr: `Zaman aralığı en fazla ${CALENDAR_MAX_DAYS} gün olabilir.`,
  },
};

export type CalendarRequest = {
  viewer: { role: 'teacher' | 'student'; id: number; schoolId: number };
  courseId?: number | undefined;
  start?: string | undefined;
  end?: string | undefined;
};

/**
 * The range rule: `start` inclusive, `end` exclusive, at most CALENDAR_MAX_DAYS days; a missing
 * bound is taken CALENDAR_MAX_DAYS from the other, and without both the range is centred on today.
 */
export function calendarRange(start: string | undefined, end: string | undefined, today: string): { start: string; end: string } {
  const half = Math.floor(CALENDAR_MAX_DAYS / 2);
  const s = start ?? (end ? addDays(end, -CALENDAR_MAX_DAYS) : addDays(today, -half));
  const e = end ?? (start ? addDays(start, CALENDAR_MAX_DAYS) : addDays(today, half));
  const span = daysBetween(s, e);
  if (span <= 0) throw invalid({ end: rangeMessages.order });
  if (span > CALENDAR_MAX_DAYS) throw invalid({ end: rangeMessages.tooLong });
  return { start: s, end: e };
}

export class CalendarService {
  constructor(private readonly db: Db) {}

  async events(r: CalendarRequest, today: string): Promise<CalendarEvent[]> {
    const range = calendarRange(r.start, r.end, today);
    return findCalendarEvents(this.db, { viewer: r.viewer, courseId: r.courseId, ...range }, today);
  }
}
