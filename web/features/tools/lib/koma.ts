import {
  A4_RANGE,
  CENTS_PER_KOMA,
  KOMA_PER_OCTAVE,
  rastFrequency,
  perdeName,
  type AhenkKey,
} from '@contract/makam';

// The grid, the perde names, the ahenk and the makam library are shared with the listening
// analysis (docs/decisions/listening.md): they live in contract/makam.ts and are re-exported here.
export {
  A4_RANGE,
  AHENKS,
  CENTS_PER_KOMA,
  KOMA_PER_OCTAVE,
  MAKAMS,
  PERDE,
  ahenkSemitones,
  perdeKoma,
  perdeName,
  rastFrequency,
  scaleDegrees,
  type AhenkKey,
  type Makam,
} from '@contract/makam';

/**
 * Pitch arithmetic of the practice tools: the 53-koma grid of the Arel-Ezgi-Uzdilek (AEU) system,
 * its perde names, the ahenk (pitch level) and 12-TET note names. Pure: no DOM, no audio.
 *
 * Sources (see /work/shared/MAKAM.md):
 * - One koma (Holdrian comma) = 1/53 octave ≈ 22.6415 cents; koma = 53 · log2(f / f_ref).
 * - Accidentals in koma: koma 1, bakiye 4, küçük mücennep 5, büyük mücennep 8 — as LilyPond's
 *   `makam.ly` (Adam Good) defines BAKIYE 4/9, KUCUK 5/9, BUYUKMUCENNEB 8/9 of a whole tone (9 koma).
 * - The 24 perde per octave and their places follow from those accidentals as AEU writes them
 *   (e.g. Hicaz: "si bakiye bemolü, do bakiye diyezi" → Dik Kürdî 14, Nim Hicaz 26; Nihavend: "si ve
 *   mi küçük mücenneb bemolü" → Kürdî 13, Nim Hisar 35; repository balpa/TurkishRhythm data/data.js).
 * A teacher who reads a different table should say so: the numbers are in one place (PERDE).
 */

export const clampA4 = (hz: number) => Math.min(A4_RANGE.max, Math.max(A4_RANGE.min, Number.isFinite(hz) ? hz : A4_RANGE.default));

/** Position of `f` on the koma grid above `fRef` (may be fractional or negative). */
export function komaAbove(f: number, fRef: number): number {
  return KOMA_PER_OCTAVE * Math.log2(f / fRef);
}

/** The nearest grid step of a koma position and the deviation from it, in koma and in cents. */
export function nearestStep(koma: number): { step: number; deviationKoma: number; deviationCents: number } {
  const step = Math.round(koma) || 0; // no -0
  const deviationKoma = koma - step;
  return { step, deviationKoma, deviationCents: deviationKoma * CENTS_PER_KOMA };
}

// ---------------------------------------------------------------------------------------------
// 12-TET

const NOTE_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;

export type TetNote = { name: string; octave: number; label: string; midi: number; cents: number };

/** The nearest equal-tempered note of `f` (A4 = `a4` Hz) as 'A4', and the deviation in cents. */
export function tetNote(f: number, a4: number = A4_RANGE.default): TetNote {
  const semis = 12 * Math.log2(f / a4) + 69;
  const midi = Math.round(semis);
  const cents = (semis - midi) * 100;
  const name = NOTE_NAMES[((midi % 12) + 12) % 12] ?? 'C';
  const octave = Math.floor(midi / 12) - 1;
  return { name, octave, label: `${name}${octave}`, midi, cents };
}

/** The frequency of a MIDI note number at the given A4. */
export const midiFrequency = (midi: number, a4: number = A4_RANGE.default) => a4 * 2 ** ((midi - 69) / 12);

/** 'A4' → 69; null when it is not a note name. */
export function parseNoteLabel(label: string): number | null {
  const m = /^([A-G]#?)(-?\d)$/.exec(label);
  if (!m) return null;
  const i = (NOTE_NAMES as readonly string[]).indexOf(m[1] ?? '');
  return i < 0 ? null : (Number(m[2]) + 1) * 12 + i;
}

// ---------------------------------------------------------------------------------------------
/** The named perde nearest to a koma position (ties go down), searching ±9 koma. */
// ---------------------------------------------------------------------------------------------
// Perde (contract/makam.ts)

/** The named perde nearest to a koma position (ties go down), searching ±9 koma. */
export function nearestPerde(koma: number): { step: number; name: string } | null {
  const center = Math.round(koma);
  let best: { step: number; name: string; dist: number } | null = null;
  for (let s = center - 9; s <= center + 9; s++) {
    const name = perdeName(s);
    if (!name) continue;
    const dist = Math.abs(koma - s);
    if (!best || dist < best.dist - 1e-9) best = { step: s, name, dist };
  }
  return best ? { step: best.step, name: best.name } : null;
}

/** The frequency of the grid step `step` koma above Rast. */
export const stepFrequency = (step: number, a4: number = A4_RANGE.default, ahenk: AhenkKey = 'bolahenk') =>
  rastFrequency(a4, ahenk) * 2 ** (step / KOMA_PER_OCTAVE);

export type MakamReading = {
  /** Koma above Rast (fractional). */
  koma: number;
  /** The nearest grid step and its name (null where it has none). */
  step: number;
  stepName: string | null;
  /** The nearest named perde and how many whole koma the played step lies from it. */
  perde: string;
  perdeStep: number;
  stepsFromPerde: number;
  /** Deviation from the grid step. */
  deviationKoma: number;
  deviationCents: number;
};

/** What the makam tuner shows for `f`. */
export function makamReading(f: number, a4: number = A4_RANGE.default, ahenk: AhenkKey = 'bolahenk'): MakamReading {
  const koma = komaAbove(f, rastFrequency(a4, ahenk));
  const { step, deviationKoma, deviationCents } = nearestStep(koma);
  const near = nearestPerde(step) ?? { step, name: '' };
  return {
    koma,
    step,
    stepName: perdeName(step),
    perde: near.name,
    perdeStep: near.step,
    stepsFromPerde: step - near.step,
    deviationKoma,
    deviationCents,
  };
}
