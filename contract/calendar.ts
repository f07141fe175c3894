import { z } from 'zod';
import { courseIdQuery, dateRangeMessage, languageQuery } from './common';
import { DATE_RANGE } from './constants';
import { submissionStatusSchema } from './submissions';
import { isDateInRange } from './recurrence';

/** The widest range one calendar call may ask for. */
export const CALENDAR_MAX_DAYS = 400;

/** A plain date or a date with a time, year 2000–2100 (the date must also exist and lie in DATE_RANGE). */
const RANGE_BOUND_PATTERN = '^(?:20[0-9]{2}|2100)-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])(?:T[0-9:.]+(?:Z|[+-][0-9]{2}:?[0-9]{2})?)?$';
const RANGE_BOUND_RE = new RegExp(RANGE_BOUND_PATTERN);

/**
 * A range bound as sent by FullCalendar ('2026-10-26T00:00:00+01:00') or as a plain date
 * ('2026-10-26'): only the calendar date (the first ten characters) counts, and it must lie in
 * DATE_RANGE.
 */
const rangeBound = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z
    .string()
    .max(40)
    .refine((v) => RANGE_BOUND_RE.test(v) && isDateInRange(v.slice(0, 10)), { message: dateRangeMessage.de, params: { msg: dateRangeMessage } })
    .meta({
      pattern: RANGE_BOUND_PATTERN,
      description: `A date YYYY-MM-DD (or an ISO date-time, of which only the date counts) from ${DATE_RANGE.min} to ${DATE_RANGE.max}.`,
    })
    .transform((v) => v.slice(0, 10))
    .optional(),
);

/**
 * GET /api/calendar-events. `start` is inclusive and `end` exclusive (FullCalendar's visible
 * range); at most CALENDAR_MAX_DAYS days. Without them: half a year either side of today.
 */
export const calendarQuery = z.strictObject({
  language: languageQuery,
  course_id: courseIdQuery,
  start: rangeBound,
  end: rangeBound,
});
export type CalendarQuery = z.input<typeof calendarQuery>;

export const calendarEventSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    start: z.string(),
    completed: z.boolean(),
    status: submissionStatusSchema,
    backgroundColor: z.string(),
    borderColor: z.string(),
    submission_id: z.number().int(),
    student_id: z.number().int(),
    student_name: z.string(),
  })
  .meta({ id: 'CalendarEvent' });
export type CalendarEvent = z.infer<typeof calendarEventSchema>;

export const calendarResponse = z.array(calendarEventSchema);
