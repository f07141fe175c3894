import { z } from 'zod';
import { errorSchema } from './common';

/** A timed practice session on a task. Running while `ended_at` is null. */
export const practiceSessionSchema = z
  .object({
    id: z.number().int(),
    submission_id: z.number().int(),
    started_at: z.string(),
    ended_at: z.string().nullable(),
    /** Minutes with two decimals; null while running. At most PRACTICE_SESSION_CAP_MINUTES. */
    duration_minutes: z.number().nullable(),
  })
  .meta({ id: 'PracticeSession' });
export type PracticeSession = z.infer<typeof practiceSessionSchema>;

/** GET /api/submissions/{id}/practice-sessions: newest first. */
export const practiceSessionListSchema = z.array(practiceSessionSchema);

/** 409 of the start call: `session` is the session already running on the task, if any. */
export const practiceConflictSchema = errorSchema
  .extend({ session: practiceSessionSchema.optional() })
  .meta({ id: 'PracticeConflict' });
export type PracticeConflict = z.infer<typeof practiceConflictSchema>;
