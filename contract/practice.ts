import { z } from 'zod';
import { errorSchema } from './common';
import { TEMPO_RANGE } from './music';

/** A timed practice session on a task. Running while `ended_at` is null. */
export const practiceSessionSchema = z
  .object({
    id: z.number().int(),
    submission_id: z.number().int(),
    started_at: z.string(),
    ended_at: z.string().nullable(),
    /** Minutes with two decimals; null while running. At most PRACTICE_SESSION_CAP_MINUTES. */
    duration_minutes: z.number().nullable(),
    /** The tempo reached (BPM), when the stop sent one; null otherwise. */
    tempo_bpm: z.number().int().min(TEMPO_RANGE.min).max(TEMPO_RANGE.max).nullable(),
  })
  .meta({ id: 'PracticeSession' });
export type PracticeSession = z.infer<typeof practiceSessionSchema>;

/**
 * Body of POST /api/practice-sessions/{id}/stop, optional (a bodiless stop keeps working):
 * `tempo_bpm` is the tempo the metronome last ran at, kept on the session.
 */
export const practiceStopBody = z
  .strictObject({
    tempo_bpm: z
      .number()
      .int()
      .min(TEMPO_RANGE.min)
      .max(TEMPO_RANGE.max)
      .optional()
      .describe('The tempo reached in BPM (whole number 20–300)'),
  })
  .meta({ id: 'PracticeStop' });
export type PracticeStop = z.infer<typeof practiceStopBody>;

/** GET /api/submissions/{id}/practice-sessions: newest first. */
export const practiceSessionListSchema = z.array(practiceSessionSchema);

/** 409 of the start call: `session` is the session already running on the task, if any. */
export const practiceConflictSchema = errorSchema
  .extend({ session: practiceSessionSchema.optional() })
  .meta({ id: 'PracticeConflict' });
export type PracticeConflict = z.infer<typeof practiceConflictSchema>;
