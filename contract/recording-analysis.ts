import { z } from 'zod';
import { errorSchema } from './common';
import { listeningReportSchema, storedTrackSchema } from './listening/schema';
import { HOP_MS, MAX_SECONDS } from './listening/track';
import { makamKeySchema, tempoUnitSchema } from './music';

/**
 * A take's analysis as the API carries it (docs/decisions/listening.md, "Where it runs"): a browser
 * sends the pitch track it computed (PUT), the server computes the report itself from that track and
 * the exercise's settings (GET). The report's shape is contract/listening/schema.ts.
 */

/**
 * Version of the analysis (the report's method). Stored with each cached report: when it grows, the
 * next read computes the report again from the stored track.
 */
export const ANALYSIS_VERSION = 1;

/** A track may last this much longer than its take's stated length (decoders pad the end). */
const SLACK_MS = 5000;

export const ANALYSIS_LIMITS = {
  /** The encoded track: a 20-minute take is ~60–120 KiB; the bounded decoder refuses more. */
  maxTrackBytes: 512 * 1024,
  /** The JSON body of PUT (the base64 of the track and a few numbers). */
  bodyBytes: 768 * 1024,
  /** A track may last this much longer than its take's stated length (decoders pad the end). */
  slackMs: SLACK_MS,
  /**
   * Hop of a track: the browser's is HOP_MS (20 ms, contract/listening/track.ts); a finer hop would
   * only multiply the frames, and the work, of the same take.
   */
  minHopMs: HOP_MS,
  maxHopMs: 100,
  /**
   * Frames of a track: a 60-minute take (the longest the analysis reads, MAX_SECONDS) and the
   * slack at the browser's hop, 180,250. The work of a report grows with the frames
   * (docs/decisions/listening.md, "What a report may cost").
   */
  maxFrames: Math.ceil((MAX_SECONDS * 1000 + SLACK_MS) / HOP_MS),
  /**
   * What one user may have analysed (PUT, server/modules/recordings/analysis-limit.ts): a bucket
   * of 2 hours of take (two 60-minute takes at once), filling again at 30 minutes of take a
   * minute; each track costs its length, at least 10 s. Beyond: 429 with Retry-After.
   */
  bucketMs: 2 * 60 * 60_000,
  refillMsPerMinute: 30 * 60_000,
  minCostMs: 10_000,
} as const;

export const ANALYSIS_COMPUTED_BY = ['student', 'teacher'] as const;
export type AnalysisComputedBy = (typeof ANALYSIS_COMPUTED_BY)[number];

/**
 * Codes of the refusals a client acts on: 404 `analysis_missing` = nobody has sent a track yet
 * (compute and PUT it); 503 `analysis_busy` = the server's analysis queue is full, `analysis_limits`
 * = the report ran out of the worker's time or memory (both: try again later, Retry-After).
 */
export const ANALYSIS_ERROR_CODES = ['analysis_missing', 'analysis_busy', 'analysis_limits'] as const;

export const analysisErrorSchema = errorSchema.extend({ code: z.enum(ANALYSIS_ERROR_CODES).optional() }).meta({ id: 'AnalysisError' });

/**
 * The track as PUT takes it: the stored form, documented with this route's own bounds (hop, frames,
 * bytes), which the service checks with their own messages (422 on track, 413): a client built from
 * the document sends only what is taken.
 */
const putTrackSchema = storedTrackSchema.extend({
  hop_ms: storedTrackSchema.shape.hop_ms.meta({ minimum: ANALYSIS_LIMITS.minHopMs, maximum: ANALYSIS_LIMITS.maxHopMs }),
  frames: storedTrackSchema.shape.frames.meta({ maximum: ANALYSIS_LIMITS.maxFrames }),
  data: storedTrackSchema.shape.data.meta({ maxLength: Math.ceil((ANALYSIS_LIMITS.maxTrackBytes * 4) / 3) + 4 }),
});

export const analysisPutBody = z
  .strictObject({
    track: putTrackSchema.describe('The pitch track and onsets the browser computed from the take (contract/listening/encoding.ts, base64).'),
  })
  .meta({ id: 'RecordingAnalysisPut' });
export type AnalysisPutBody = z.infer<typeof analysisPutBody>;

/** The exercise's settings a report was computed with (null: the task's exercise has none, or is gone). */
export const analysisSettingsSchema = z.object({
  makam: makamKeySchema.nullable(),
  durak: z.string().nullable(),
  tempo_bpm: z.number().int().nullable(),
  tempo_unit: tempoUnitSchema,
});
export type AnalysisSettings = z.infer<typeof analysisSettingsSchema>;

export const recordingAnalysisSchema = z
  .object({
    recording_id: z.number().int(),
    computed_by: z.enum(ANALYSIS_COMPUTED_BY),
    computed_at: z.string().meta({ format: 'date-time' }),
    analysis_version: z.number().int(),
    report_at: z.string().meta({ format: 'date-time' }),
    settings: analysisSettingsSchema,
    report: listeningReportSchema,
  })
  .meta({ id: 'RecordingAnalysis' });
export type RecordingAnalysis = z.infer<typeof recordingAnalysisSchema>;
