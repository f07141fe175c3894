import { z } from 'zod';
import { errorSchema, languageQuery, wholeNumberText } from './common';
import { PRACTICE_SESSION_PAGE_MAX } from './constants';
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
    /** Timed on the student's device without a connection and sent later; false when the server timed it. */
    recorded_offline: z.boolean(),
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

/** How far an offline session's end may lie ahead of the server's clock (the device's clock may run fast). */
export const OFFLINE_CLOCK_SKEW_MS = 2 * 60 * 1000;
/** How old an offline session may be when it arrives: it ended within this many days. */
export const OFFLINE_MAX_AGE_DAYS = 7;

/**
 * Body of POST /api/submissions/{id}/practice-sessions/offline: a session the student timed on
 * their device without a connection, with the device's times (ISO 8601 with an offset or Z).
 */
export const practiceOfflineBody = z
  .strictObject({
    started_at: z.iso.datetime({ offset: true }).describe('When the timer started on the device'),
    ended_at: z.iso.datetime({ offset: true }).describe('When it stopped: in the past, within the last 7 days, at most 180 minutes after started_at'),
  })
  .meta({ id: 'PracticeOffline' });
export type PracticeOffline = z.infer<typeof practiceOfflineBody>;

/** GET /api/submissions/{id}/practice-sessions: newest first. */
export const practiceSessionListSchema = z.array(practiceSessionSchema);

const blankToUndefined = (v: unknown) => (v === '' ? undefined : v);

/** Its query: one page, `limit` 1–200 (200 when left out), `offset` from 0. */
export const practiceSessionListQuery = z.strictObject({
  language: languageQuery,
  limit: z.preprocess(blankToUndefined, wholeNumberText(z.number().int().min(1).max(PRACTICE_SESSION_PAGE_MAX)).optional()),
  offset: z.preprocess(blankToUndefined, wholeNumberText(z.number().int().min(0).max(1_000_000)).optional()),
});

/** 409 of the start call: `session` is the session already running on the task, if any. */
export const practiceConflictSchema = errorSchema
  .extend({ session: practiceSessionSchema.optional() })
  .meta({ id: 'PracticeConflict' });
export type PracticeConflict = z.infer<typeof practiceConflictSchema>;
