import { z } from 'zod';
import { errorResponsesOf, languageQuery } from './common';

/**
 * Calendar subscription and course reports (docs/decisions/calendar-feed-and-reports.md).
 */

/** The length of a calendar secret: 32 bytes of HMAC-SHA256 in base64url. */
export const CALENDAR_SECRET_LENGTH = 43;
/** `{secret}.ics`, the last segment of a calendar address. */
export const CALENDAR_FILE_PATTERN = `^[A-Za-z0-9_-]{${CALENDAR_SECRET_LENGTH}}\\.ics$`;
/** How far back and ahead (days from today) a calendar file reaches. */
export const CALENDAR_FEED_DAYS = { back: 180, ahead: 400 } as const;
/** How often calendar apps are asked to fetch the file again (seconds). */
export const CALENDAR_FEED_TTL_SECONDS = 3600;

/** GET /api/calendar-subscription and POST /api/calendar-subscription/renew. */
export const calendarSubscriptionSchema = z
  .object({
    /** The address for a browser or for Outlook's "subscribe from web" (http(s)://…/calendar/{secret}.ics). */
    url: z.string(),
    /** The same address as webcal://…, which phones open in their calendar app. */
    webcal_url: z.string(),
    /** When this address was made (renewing makes a new one). */
    created_at: z.string(),
  })
  .meta({ id: 'CalendarSubscription' });
export type CalendarSubscription = z.infer<typeof calendarSubscriptionSchema>;

/** GET /calendar/{secret}.ics: the last segment (checked in the handler, so that any other value is a plain 404). */
export const calendarFeedParams = z.object({ file: z.string().max(200) });
export const calendarFeedQuery = z.strictObject({ language: languageQuery });

/** The calendar file (RFC 5545), or 404 for an unknown or renewed address. */
export const calendarFeedResponses = {
  200: {
    description: 'The calendar (RFC 5545): the tasks as all-day events on their due dates.',
    content: { 'text/calendar': { schema: z.string() } },
  },
  ...errorResponsesOf(404),
};

/** GET /api/courses/{id}/progress.csv */
export const courseProgressCsvQuery = z.strictObject({ language: languageQuery });

export const courseProgressCsvResponses = {
  200: {
    description:
      'One row per student of the course, after a header row: UTF-8 with BOM, separator ";", decimal comma, CRLF, as a download (Content-Disposition: attachment).',
    content: { 'text/csv': { schema: z.string() } },
  },
  ...errorResponsesOf(401, 403, 404),
};

/** The columns of the course progress CSV, in order. */
export const COURSE_PROGRESS_COLUMNS = [
  'name',
  'email',
  'minutes_week',
  'minutes_month',
  'tasks_completed',
  'completion_rate',
  'average_accuracy',
  'last_practice',
] as const;
export type CourseProgressColumn = (typeof COURSE_PROGRESS_COLUMNS)[number];
