import { z } from 'zod';
import { MAKAM_KEYS, TEMPO_UNITS } from '../music-keys';
import { DECODE_LIMITS } from './encoding';

/**
 * What is stored with a take and what the report JSON looks like (docs/decisions/listening.md).
 * The routes that carry them are wired elsewhere; these are the shapes.
 */

/** The stored pitch track: the bytes of encodeTrack as base64, with their counts for a quick check. */
export const storedTrackSchema = z.object({
  version: z.literal(1),
  hop_ms: z.number().min(1).max(1000),
  frames: z.number().int().min(0).max(DECODE_LIMITS.maxFrames),
  onsets: z.number().int().min(0).max(DECODE_LIMITS.maxOnsets),
  data: z.string().max(Math.ceil((DECODE_LIMITS.maxBytes * 4) / 3) + 4).regex(/^[A-Za-z0-9+/]*={0,2}$/),
});
export type StoredTrack = z.infer<typeof storedTrackSchema>;

const momentSchema = z.object({ start_ms: z.number().int().min(0), end_ms: z.number().int().min(0) });
const makamKey = z.enum(MAKAM_KEYS);

export const degreeReportSchema = z.object({
  perde: z.string(),
  role: z.enum(['durak', 'guclu', 'degree', 'extra']),
  aeu_koma: z.number().int(),
  aeu_cents: z.number(),
  played_cents: z.number().nullable(),
  played_koma: z.number().nullable(),
  deviation_cents: z.number().nullable(),
  spread_cents: z.number().nullable(),
  share: z.number().min(0).max(1),
  moments: z.array(momentSchema).max(50),
  practice_note: z.object({ cents: z.number(), note: z.string() }).nullable(),
});

export const makamReportSchema = z.object({
  makam: makamKey,
  durak: z.string(),
  tonic_hz: z.number().positive(),
  tonic_score: z.number(),
  best_makam: makamKey,
  other_makam: z.boolean(),
  makam_scores: z.array(z.object({ makam: makamKey, score: z.number() })).max(MAKAM_KEYS.length),
  degrees: z.array(degreeReportSchema).max(16),
  voiced_share: z.number().min(0).max(1),
  last_note_is_durak: z.boolean(),
});

export const westernReportSchema = z.object({
  key: z.string().nullable(),
  a4_hz: z.number().positive(),
  notes: z
    .array(
      z.object({
        note: z.string(),
        in_key: z.boolean().nullable(),
        deviation_cents: z.number().nullable(),
        spread_cents: z.number().nullable(),
        share: z.number().min(0).max(1),
        moments: z.array(momentSchema).max(50),
      }),
    )
    .length(12),
  voiced_share: z.number().min(0).max(1),
});

export const tempoReportSchema = z.object({
  unit: z.enum(TEMPO_UNITS),
  target_bpm: z.number().positive().nullable(),
  mean_bpm: z.number().positive(),
  drift_bpm_per_min: z.number(),
  ioi_spread_ms: z.number().min(0),
  onsets: z.number().int().min(0),
  curve: z.array(z.object({ t_ms: z.number().int(), bpm: z.number() })).max(1000),
  moments: z.array(z.object({ start_ms: z.number().int(), end_ms: z.number().int(), bpm: z.number(), direction: z.enum(['faster', 'slower']) })).max(20),
});

export const listeningReportSchema = z.object({
  version: z.literal(1),
  duration_ms: z.number().int().min(0),
  makam: makamReportSchema.nullable(),
  western: westernReportSchema.nullable(),
  tempo: tempoReportSchema.nullable(),
});
export type ListeningReport = z.infer<typeof listeningReportSchema>;
