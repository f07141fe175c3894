import { z } from 'zod';
import { COMPETENCY_LEVELS, SUBMISSION_STATUSES } from './constants';
import { courseIdQuery, dateString, languageQuery, wholeNumberText } from './common';
import { exerciseSettingsSchema } from './exercise-settings';

export const mediaFileSchema = z
  .object({
    id: z.number().int(),
    type: z.enum(['image', 'pdf', 'video']),
    path: z.string(),
    filename: z.string(),
    size: z.number(),
    mime_type: z.string(),
  })
  .meta({ id: 'MediaFile' });
export type MediaFile = z.infer<typeof mediaFileSchema>;

export const submissionStatusSchema = z.enum(SUBMISSION_STATUSES);
export const competencyLevelSchema = z.enum(COMPETENCY_LEVELS);

export const submissionSchema = z
  .object({
    id: z.number().int(),
    student: z.object({ id: z.number().int(), name: z.string() }),
    exercise: z
      .object({
        id: z.number().int(),
        title: z.string(),
        description: z.string().nullable(),
        category: z.string().nullable(),
        difficulty: z.string().nullable(),
        /** The exercise's learning goal (Ziel). */
        target: z.string().nullable(),
        estimated_minutes: z.number().nullable(),
        media_files: z.array(mediaFileSchema),
        /** The practice tools' settings (contract/exercise-settings.ts); the task detail opens the tools with them. */
        ...exerciseSettingsSchema.shape,
      })
      .nullable(),
    exercise_title: z.string(),
    course_id: z.number().int().nullable(),
    series_id: z.string(),
    due_date: z.string(),
    expiration_date: z.string().nullable(),
    completed_at: z.string().nullable(),
    teacher_note: z.string().nullable(),
    teacher_feedback: z.string().nullable(),
    created_at: z.string(),
    accuracy_score: z.number().nullable(),
    time_spent_minutes: z.number(),
    competency_level: competencyLevelSchema.nullable(),
    status: submissionStatusSchema,
    /**
     * "Neues Feedback": a recording of this task was answered or commented after the student last
     * opened it (docs/decisions/recordings.md); the teacher sees the same (the student has not read it yet).
     */
    new_feedback: z.boolean(),
  })
  .meta({ id: 'Submission' });
export type Submission = z.infer<typeof submissionSchema>;

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** One status or several: `status=open,overdue` or a repeated parameter; `all` or empty means any. */
const statusFilter = z.preprocess((v) => {
  if (v === '' || v === 'all' || v === undefined) return undefined;
  if (typeof v === 'string') return v.split(',');
  return v;
}, z.array(submissionStatusSchema).min(1).max(4).optional());

/** Orders of GET /api/submissions; `work` is the student's: still to do first (earliest due), then done or expired (latest due). */
export const SUBMISSION_ORDERS = ['due', 'due_desc', 'work'] as const;
export const SUBMISSION_PAGE_MAX = 200;

/** GET /api/submissions query. Without `limit` every matching task is returned (CONTRACT.md). */
export const submissionListQuery = z.strictObject({
  language: languageQuery,
  course_id: courseIdQuery,
  status: statusFilter,
  student_id: z.preprocess(blankToUndefined, wholeNumberText(z.number().int().positive().max(2147483647)).optional()),
  from: z.preprocess(blankToUndefined, dateString.optional()),
  to: z.preprocess(blankToUndefined, dateString.optional()),
  order: z.preprocess(blankToUndefined, z.enum(SUBMISSION_ORDERS).optional()),
  limit: z.preprocess(blankToUndefined, wholeNumberText(z.number().int().min(1).max(SUBMISSION_PAGE_MAX)).optional()),
  offset: z.preprocess(blankToUndefined, wholeNumberText(z.number().int().min(0).max(1_000_000)).optional()),
});
export type SubmissionListQuery = z.infer<typeof submissionListQuery>;

/** GET /api/submissions/counts query: the filters of the list that decide which tasks count. */
export const submissionCountsQuery = z.strictObject({
  language: languageQuery,
  course_id: courseIdQuery,
  student_id: z.preprocess(blankToUndefined, wholeNumberText(z.number().int().positive().max(2147483647)).optional()),
});
export type SubmissionCountsQuery = z.infer<typeof submissionCountsQuery>;

/** How many tasks there are in each status (and in all), counted in SQL. */
export const submissionCountsSchema = z
  .object({
    total: z.number().int(),
    open: z.number().int(),
    overdue: z.number().int(),
    completed: z.number().int(),
    expired: z.number().int(),
  })
  .meta({ id: 'SubmissionCounts' });
export type SubmissionCounts = z.infer<typeof submissionCountsSchema>;

/**
 * How long after marking a task done the student may take it back (DELETE
 * /api/submissions/{id}/complete; docs/decisions/done-means-practised.md). The app offers the undo for a
 * few seconds; the server allows it this long, so a slow connection or a queued completion still fits.
 */
export const REOPEN_WINDOW_MINUTES = 10;

/** GET /api/submissions/series query: a student their own series; a teacher one student's (`student_id`). */
export const SERIES_SCOPES = ['current', 'all'] as const;
export const taskSeriesQuery = z.strictObject({
  language: languageQuery,
  course_id: courseIdQuery,
  student_id: z.preprocess(blankToUndefined, wholeNumberText(z.number().int().positive().max(2147483647)).optional()),
  /** `current` (default): series with an occurrence today or still to come; `all`: every series. */
  scope: z.preprocess(blankToUndefined, z.enum(SERIES_SCOPES).optional()),
  limit: z.preprocess(blankToUndefined, wholeNumberText(z.number().int().min(1).max(SUBMISSION_PAGE_MAX)).optional()),
});
export type TaskSeriesQuery = z.infer<typeof taskSeriesQuery>;

/**
 * One assignment of one student as a whole: a repeating task (docs/decisions/assignments-recurrence-and-expiry.md)
 * is one item, a single task a series of one. Counted in SQL (docs/decisions/done-means-practised.md).
 */
export const taskSeriesSchema = z
  .object({
    series_id: z.string(),
    student_id: z.number().int(),
    title: z.string(),
    course_id: z.number().int().nullable(),
    /** How many dated occurrences the series has for this student, and how many are done. */
    occurrences: z.number().int(),
    completed: z.number().int(),
    /** The earliest occurrence still to do from today on (not done, not expired); null when none is left. */
    next_due: z.string().nullable(),
    /**
     * Consecutive occurrences done, counted back from the latest one due today or before; today's
     * occurrence not done yet does not break it (the day is not over), a missed or expired earlier one does.
     */
    streak: z.number().int(),
    /** Today's occurrence (school date): its minutes practised and whether it is done; null when none is due today. */
    today: z
      .object({ submission_id: z.number().int(), time_spent_minutes: z.number(), done: z.boolean() })
      .nullable(),
    /** The occurrence to work on: today's, else the next one still to do, else (scope `all`, a series that is over) the latest. */
    current: submissionSchema,
  })
  .meta({ id: 'TaskSeries' });
export type TaskSeries = z.infer<typeof taskSeriesSchema>;
