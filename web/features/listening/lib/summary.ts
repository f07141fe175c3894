import type { ListeningReport } from '@contract/listening/schema';
import type { MakamKey } from '@contract/music-keys';

/**
 * The one line about a take's intonation and the one about its tempo (docs/decisions/listening.md,
 * "Where people see it"): what a student reads right after recording, and a parent beside the take.
 * Pure: the screens turn these into their language.
 */

/** A perde this far from its AEU place (cents, median) is worth a sentence; closer is "in tune". */
export const NOTEWORTHY_CENTS = 8;
/** A perde counts when it was held this share of the steady time. */
const MIN_SHARE = 0.04;
/** Within this of where published practice plays it, a perde is not called out (masters play it there). */
const PRACTICE_TOLERANCE = 15;

export type PitchSummary =
  | { kind: 'perde'; perde: string; cents: number; practice: boolean }
  | { kind: 'close'; cents: number }
  | { kind: 'otherMakam'; makam: MakamKey; best: MakamKey }
  | { kind: 'none' };

export function pitchSummary(report: ListeningReport): PitchSummary {
  const m = report.makam;
  if (m) {
    if (m.other_makam) return { kind: 'otherMakam', makam: m.makam, best: m.best_makam };
    const played = m.degrees.filter((d) => d.deviation_cents !== null && d.share >= MIN_SHARE && d.role !== 'durak');
    if (!played.length) return { kind: 'none' };
    const asMasters = (d: (typeof played)[number]) => d.practice_note !== null && Math.abs((d.deviation_cents ?? 0) - d.practice_note.cents) <= PRACTICE_TOLERANCE;
    const worst = [...played].sort((a, b) => Math.abs(b.deviation_cents ?? 0) - Math.abs(a.deviation_cents ?? 0)).find((d) => !asMasters(d));
    const cents = Math.round(worst?.deviation_cents ?? 0);
    if (!worst || Math.abs(cents) < NOTEWORTHY_CENTS) {
      const max = Math.max(...played.filter((d) => !asMasters(d)).map((d) => Math.abs(d.deviation_cents ?? 0)), 0);
      return { kind: 'close', cents: Math.round(max) };
    }
    return { kind: 'perde', perde: worst.perde, cents, practice: worst.practice_note !== null };
  }
  const w = report.western;
  if (w) {
    const played = w.notes.filter((n) => n.deviation_cents !== null && n.share >= MIN_SHARE);
    if (!played.length) return { kind: 'none' };
    const worst = [...played].sort((a, b) => Math.abs(b.deviation_cents ?? 0) - Math.abs(a.deviation_cents ?? 0))[0]!;
    const cents = Math.round(worst.deviation_cents ?? 0);
    if (Math.abs(cents) < NOTEWORTHY_CENTS) return { kind: 'close', cents: Math.abs(cents) };
    return { kind: 'perde', perde: worst.note, cents, practice: false };
  }
  return { kind: 'none' };
}

export type TempoSummary = { mean: number; target: number | null; unit: NonNullable<ListeningReport['tempo']>['unit']; drift: 'faster' | 'slower' | 'steady'; driftBpm: number };

/** Drift of at least this (BPM per minute) is named, in a take of at least DRIFT_MIN_MS (a short take's slope says little). */
const DRIFT_BPM = 1;
export const DRIFT_MIN_MS = 30_000;

export function tempoSummary(report: ListeningReport): TempoSummary | null {
  const t = report.tempo;
  if (!t || t.onsets < 8) return null;
  const driftBpm = Math.round(t.drift_bpm_per_min * 10) / 10;
  return {
    mean: Math.round(t.mean_bpm),
    target: t.target_bpm,
    unit: t.unit,
    drift: report.duration_ms < DRIFT_MIN_MS ? 'steady' : driftBpm >= DRIFT_BPM ? 'faster' : driftBpm <= -DRIFT_BPM ? 'slower' : 'steady',
    driftBpm: Math.abs(driftBpm),
  };
}
