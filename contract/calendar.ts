import { z } from 'zod';
import { courseIdQuery, languageQuery } from './common';
import { submissionStatusSchema } from './submissions';
import { isCalendarDate } from './recurrence';

/** The widest range one calendar call may ask for. */
export const CALENDAR_MAX_DAYS = 400;

/**
 * A range bound as sent by FullCalendar ('2026-10-26T00:00:00+01:00') or as a plain date
 * ('2026-10-26'): only the calendar date (the first ten characters) counts.
 */
const rangeBound = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z
    .string()
    .max(40)
    .regex(/^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/)
    .transform((v) => v.slice(0, 10))
    .refine(isCalendarDate, { message: 'Invalid date' })
    .optional(),
);

/**
 * GET /api/calendar-events. `start` is inclusive and `end` exclusive (FullCalendar's visible
 * range); at most CALENDAR_MAX_DAYS days. Without them: half a year either side of today.
 */
export const calendarQuery = z.object({
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
