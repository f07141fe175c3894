import type { MakamKey, TempoUnit } from '../music-keys';
import { encodeTrack, toBase64 } from './encoding';
import { makamReport, westernReport } from './intonation';
import type { ListeningReport, StoredTrack } from './schema';
import { tempoReport } from './tempo';
import { trackFromPcm, type PitchTrack } from './track';

/**
 * One entry point for the Worker, the server and the CLI (docs/decisions/listening.md): a track
 * and the exercise's settings in, the report out. A makam exercise gets the makam report; a western
 * one (or `tuning: '12tet'`) the 12-TET report; both get the tempo report when there are onsets.
 */

export type AnalyzeOptions = {
  makam?: MakamKey | null;
  durak?: string | null;
  key?: string | null;
  tuning?: 'makam' | '12tet';
  a4?: number;
  tempo?: { bpm: number | null; unit: TempoUnit } | null;
};

export function analyzeTrack(track: PitchTrack, opts: AnalyzeOptions = {}): ListeningReport {
  const western = opts.tuning === '12tet' || !opts.makam;
  return {
    version: 1,
    duration_ms: Math.round(track.f0.length * track.hopMs),
    makam: !western && opts.makam ? makamReport(track, opts.makam, { durak: opts.durak }) : null,
    western: western ? westernReport(track, opts.key ?? null, opts.a4 ?? 440) : null,
    tempo: tempoReport(track.onsetsMs, opts.tempo?.unit ?? 'quarter', opts.tempo?.bpm ?? null),
  };
}

/** The stored form of a track (storedTrackSchema). */
export function storeTrack(track: PitchTrack): StoredTrack {
  return { version: 1, hop_ms: track.hopMs, frames: track.f0.length, onsets: track.onsetsMs.length, data: toBase64(encodeTrack(track)) };
}

/**
 * What a Worker does with a decoded take (the first channel, or a mix, of an AudioBuffer): the
 * stored track and the report, in one call.
 */
export function analyzePcm(pcm: Float32Array, sampleRate: number, opts: AnalyzeOptions = {}): { track: StoredTrack; report: ListeningReport } {
  const track = trackFromPcm(pcm, sampleRate);
  return { track: storeTrack(track), report: analyzeTrack(track, opts) };
}
