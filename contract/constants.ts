/** Business constants of SPEC.md section 9, shared by the server and the web app. */
export const STORAGE_KEYS = { token: 'token', selectedCourseId: 'selectedCourseId', language: 'language', lastUser: 'lastUser' } as const;
export const EVENTS = { languageChanged: 'language-changed', courseChanged: 'course-changed' } as const;

export const STATUS_COLORS = { completed: '#10B981', open: '#F59E0B', expired: '#DC2626' } as const;

export const EXPIRY_DAYS = { min: 1, max: 30, default: 2 } as const;

/**
 * Every calendar date the API accepts (due_date, recurrence_end_date, the from/to and start/end
 * filters) lies in this window, inclusive; anything else answers 422. Derived dates stay close:
 * an expiry is at most EXPIRY_DAYS.max days after a due date (so at most 2101-01-30), a default
 * series end is clamped to `max`. Both fit PostgreSQL `date` and a 4-digit year with room to spare.
 */
export const DATE_RANGE = { min: '2000-01-01', max: '2100-12-31' } as const;
/** The documented pattern of such a date: YYYY-MM-DD, year 2000–2100, month 01–12, day 01–31 (existence is checked too). */
export const DATE_PATTERN = '^(?:20[0-9]{2}|2100)-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])$';
export const RECURRENCE_TYPES = ['none', 'daily', 'every_2_days', 'weekly', 'monthly'] as const;
export type RecurrenceType = (typeof RECURRENCE_TYPES)[number];

export const UPLOAD_MAX_BYTES = 20971520;
export const UPLOAD_MIME_TYPES = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/avi',
  'video/quicktime',
  'video/x-msvideo',
  'video/webm',
  'video/x-matroska',
  'application/pdf',
] as const;

export const DIFFICULTIES = ['leicht', 'mittel', 'fortgeschritten'] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];
export const CATEGORIES = [
  'atem_kontrolle',
  'tonbildung',
  'noten_finger',
  'haltung_technik',
  'rhythmus_tempo',
  'makam',
  'hoer_nachspiel',
  'theorie_reflexion',
  'kombinationen',
] as const;
export type Category = (typeof CATEGORIES)[number];
export const COMPETENCY_LEVELS = ['beginner', 'intermediate', 'advanced', 'expert'] as const;
export type CompetencyLevel = (typeof COMPETENCY_LEVELS)[number];

export const SUBMISSION_STATUSES = ['completed', 'expired', 'overdue', 'open'] as const;
export type SubmissionStatus = (typeof SUBMISSION_STATUSES)[number];

export const PRACTICE_SESSION_CAP_MINUTES = 180;
/** At most this many practice sessions start on one day (school time zone) per student (docs/decisions/tasks-and-practice-timer.md). */
export const PRACTICE_SESSIONS_PER_DAY_MAX = 100;
/** What a day holds: the sessions starting on one day count at most this many minutes together. */
export const PRACTICE_DAY_MAX_MINUTES = 24 * 60;
/** The largest page of GET /api/submissions/{id}/practice-sessions (also its default). */
export const PRACTICE_SESSION_PAGE_MAX = 200;
export const TOAST_DEFAULT_MS = 5000;
export const DASHBOARD_DAYS = 30;
export const RECENT_STUDENTS = 8;
export const UPCOMING_TASKS = 5;
export const TIMER_SESSIONS_SHOWN = 5;
export const PASSWORD_MIN_LENGTH = 8;
export const TOKEN_IDLE_DAYS = 30;
