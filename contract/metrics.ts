import { z } from 'zod';
import { emailText, optionalText } from './common';
import { competencyLevelSchema, submissionSchema } from './submissions';
import { ACCURACY_RANGE, TEACHER_FEEDBACK_MAX } from './metrics-limits';

// The limits without zod (the web app imports them from there).
export * from './metrics-limits';

/** Counts of a student's tasks by status (SPEC.md section 4) and the completion rate. */
export const submissionCountsSchema = z.object({
  total_submissions: z.number().int(),
  completed_submissions: z.number().int(),
  open_submissions: z.number().int(),
  overdue_submissions: z.number().int(),
  expired_submissions: z.number().int(),
  /**
   * Percent 0–100 (one decimal): completed tasks of the tasks that are done or whose due date
   * has passed (completed + overdue + expired); 0 when there are none yet. See
   * docs/decisions/metrics-definitions.md.
   */
  completion_rate: z.number().min(0).max(100),
});
export type SubmissionCounts = z.infer<typeof submissionCountsSchema>;

export const progressPointSchema = z.object({
  /** YYYY-MM-DD in APP_TIMEZONE. */
  date: z.string(),
  practice_time_minutes: z.number(),
});
export type ProgressPoint = z.infer<typeof progressPointSchema>;

/** GET /api/my-metrics and GET /api/students/{id}/metrics. */
export const studentMetricsSchema = z
  .object({
    /** Consecutive days with a finished practice session or a completed task, back from today (or yesterday). */
    current_streak: z.number().int(),
    /** Mean accuracy of the reviewed tasks (0–100, two decimals); null until a task is reviewed. */
    average_accuracy: z.number().nullable(),
    total_practice_time_minutes: z.number(),
    /** The last 7 days including today. */
    weekly_practice_time_minutes: z.number(),
    average_session_time_minutes: z.number(),
    /** Most frequent level among the 5 most recently due reviewed tasks (ties: the higher); null if none. */
    top_competency_level: competencyLevelSchema.nullable(),
    /** Exactly 30 entries, oldest first, zero-filled, ending today. */
    progress_data: z.array(progressPointSchema),
    total_practice_sessions: z.number().int(),
    overall_metrics: submissionCountsSchema,
  })
  .meta({ id: 'StudentMetrics' });
export type StudentMetrics = z.infer<typeof studentMetricsSchema>;

/** GET /api/students/{id}/overview (teacher). */
export const studentOverviewSchema = z
  .object({
    student: z.object({ id: z.number().int(), name: z.string(), email: emailText }),
    kpis: submissionCountsSchema.extend({ current_streak: z.number().int() }),
    /** The 10 tasks most recently due (due today or earlier), newest first. */
    recent_submissions: z.array(submissionSchema),
  })
  .meta({ id: 'StudentOverview' });
export type StudentOverview = z.infer<typeof studentOverviewSchema>;

export const RECENT_SUBMISSIONS = 10;
export const TOP_LEVEL_WINDOW = 5;

/**
 * PATCH /api/submissions/{id}/review (teacher). The competency level is the review; the accuracy
 * figure is optional: left out keeps the one saved, null clears it (a task without one does not
 * count in the average accuracy). See docs/decisions/metrics-definitions.md.
 */
export const reviewBody = z.object({
  accuracy_score: z.number().min(ACCURACY_RANGE.min).max(ACCURACY_RANGE.max).nullable().optional(),
  competency_level: competencyLevelSchema,
  teacher_feedback: optionalText(TEACHER_FEEDBACK_MAX),
});
export type ReviewBody = z.infer<typeof reviewBody>;
