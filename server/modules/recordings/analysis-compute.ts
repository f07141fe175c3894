import { analyzeTrack } from '@contract/listening/analyze';
import { decodeTrack, fromBase64, toBase64 } from '@contract/listening/encoding';
import { listeningReportSchema, type ListeningReport } from '@contract/listening/schema';
import type { PitchTrack } from '@contract/listening/track';
import { ANALYSIS_LIMITS, type AnalysisSettings } from '@contract/recording-analysis';

/**
 * What the analysis worker does (server/modules/recordings/analysis-worker.ts): everything whose
 * cost grows with a track — base64, the bounded decoder, the checks that need the decoded track,
 * the report. The main thread only compares sizes and numbers the body states and does the
 * database work (docs/decisions/listening.md, "What a report may cost"). Pure: no Node API, no
 * database, so it runs in the worker and in a test alike.
 */

/** A browser's track (PUT): the base64 as sent, the counts the body states, the take's bound. */
export type TrackJob = {
  kind: 'track';
  data: string;
  declared: { frames: number; onsets: number; hop_ms: number };
  /** The take's stated length + slack: no frame and no onset after it. */
  limitMs: number;
  settings: AnalysisSettings;
};

/** A stored track (GET after the settings changed): base64 as PostgreSQL's encode() gives it. */
export type StoredJob = { kind: 'stored'; data: string; settings: AnalysisSettings };

export type AnalysisJob = TrackJob | StoredJob;

/** Why a browser's track is refused (each has its text in analysisMessages). */
export type TrackRefusal = 'notBase64' | 'tooLarge' | 'unreadable' | 'counts' | 'hop' | 'tooManyFrames' | 'tooLong';

export type AnalysisResult =
  | { ok: true; report: ListeningReport; /** the track as stored: canonical base64 */ data: string }
  | { ok: false; refused: TrackRefusal }
  | { ok: false; error: string };

/**
 * The decoder's own clock (DECODE_LIMITS.maxMs, 500 ms) guards a caller that decodes on its event
 * loop; here the pool's wall-clock limit stops the worker, and on a busy machine 500 ms of wall
 * time can pass while a valid 60-minute track is decoded: it must not come out "unreadable".
 */
const DECODE_MS = 60_000;

/** The most base64 characters a track of maxTrackBytes takes. */
export const MAX_TRACK_CHARS = Math.ceil((ANALYSIS_LIMITS.maxTrackBytes * 4) / 3) + 4;

/** The report of a track under the exercise's settings (the same function as the browser's Worker and the CLI). */
export function reportOf(track: PitchTrack, s: AnalysisSettings): ListeningReport {
  const report = analyzeTrack(track, {
    makam: s.makam,
    durak: s.durak,
    tuning: s.makam ? 'makam' : '12tet',
    tempo: { bpm: s.tempo_bpm, unit: s.tempo_unit },
  });
  // What leaves the server is what the contract describes (a fault here is ours: 500, logged).
  return listeningReportSchema.parse(report);
}

export function runJob(job: AnalysisJob): AnalysisResult {
  if (job.kind === 'stored') {
    // PostgreSQL's encode() breaks base64 into lines of 76
    const bytes = fromBase64(job.data.replace(/\s+/g, ''), Number.MAX_SAFE_INTEGER);
    const decoded = bytes ? decodeTrack(bytes, { maxBytes: ANALYSIS_LIMITS.maxTrackBytes, maxMs: DECODE_MS }) : null;
    if (!decoded?.ok) return { ok: false, error: `stored track is unreadable: ${decoded?.error ?? 'base64'}` };
    return { ok: true, report: reportOf(decoded.track, job.settings), data: '' };
  }
  const bytes = fromBase64(job.data, MAX_TRACK_CHARS);
  if (!bytes) return { ok: false, refused: job.data.length > MAX_TRACK_CHARS ? 'tooLarge' : 'notBase64' };
  if (bytes.length > ANALYSIS_LIMITS.maxTrackBytes) return { ok: false, refused: 'tooLarge' };
  const decoded = decodeTrack(bytes, { maxBytes: ANALYSIS_LIMITS.maxTrackBytes, maxFrames: ANALYSIS_LIMITS.maxFrames, maxMs: DECODE_MS });
  if (!decoded.ok) return { ok: false, refused: 'unreadable' };
  const track = decoded.track;
  const d = job.declared;
  if (track.f0.length !== d.frames || track.onsetsMs.length !== d.onsets || Math.abs(track.hopMs - d.hop_ms) > 0.05) return { ok: false, refused: 'counts' };
  if (track.hopMs < ANALYSIS_LIMITS.minHopMs || track.hopMs > ANALYSIS_LIMITS.maxHopMs) return { ok: false, refused: 'hop' };
  if (track.f0.length > ANALYSIS_LIMITS.maxFrames) return { ok: false, refused: 'tooManyFrames' };
  const lastOnset = track.onsetsMs[track.onsetsMs.length - 1] ?? 0;
  if (track.f0.length * track.hopMs > job.limitMs || lastOnset > job.limitMs) return { ok: false, refused: 'tooLong' };
  return { ok: true, report: reportOf(track, job.settings), data: toBase64(bytes) };
}
