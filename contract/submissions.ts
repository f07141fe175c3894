import { z } from 'zod';
import { COMPETENCY_LEVELS, SUBMISSION_STATUSES } from './constants';
import { courseIdQuery, dateString, languageQuery } from './common';

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
        estimated_minutes: z.number().nullable(),
        media_files: z.array(mediaFileSchema),
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
  })
  .meta({ id: 'Submission' });
export type Submission = z.infer<typeof submissionSchema>;

/** GET /api/submissions query. */
export const submissionListQuery = z.object({
  language: languageQuery,
  course_id: courseIdQuery,
  status: z.preprocess((v) => (v === '' || v === 'all' ? undefined : v), submissionStatusSchema.optional()),
  student_id: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().positive().max(2147483647).optional()),
  from: z.preprocess((v) => (v === '' ? undefined : v), dateString.optional()),
  to: z.preprocess((v) => (v === '' ? undefined : v), dateString.optional()),
});
export type SubmissionListQuery = z.infer<typeof submissionListQuery>;
