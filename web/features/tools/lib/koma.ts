import type { MakamKey } from '@contract/music';

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

export const KOMA_PER_OCTAVE = 53;
export const CENTS_PER_KOMA = 1200 / KOMA_PER_OCTAVE;

/** The adjustable concert pitch (A4), shared by both tuner modes and the drone. */
export const A4_RANGE = { min: 415, max: 466, default: 440 } as const;

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
// Perde: koma above Rast (Rast = 0, Gerdaniye = 53). AEU's 24 pitches per octave, with the
// lower (Yegâh …) and upper (Gerdaniye …) names that MAKAM.md lists; beyond, 'Kaba …' / 'Tiz …'.

export const PERDE: ReadonlyArray<{ koma: number; name: string }> = [
  { koma: -22, name: 'Yegâh' },
  { koma: -18, name: 'Nim Pest Hisar' },
  { koma: -17, name: 'Pest Hisar' },
  { koma: -14, name: 'Dik Pest Hisar' },
  { koma: -13, name: 'Hüseynî Aşiran' },
  { koma: -9, name: 'Acem Aşiran' },
  { koma: -8, name: 'Dik Acem Aşiran' },
  { koma: -5, name: 'Irak' },
  { koma: -4, name: 'Geveşt' },
  { koma: -1, name: 'Dik Geveşt' },
  { koma: 0, name: 'Rast' },
  { koma: 4, name: 'Nim Zirgüle' },
  { koma: 5, name: 'Zirgüle' },
  { koma: 8, name: 'Dik Zirgüle' },
  { koma: 9, name: 'Dügâh' },
  { koma: 13, name: 'Kürdî' },
  { koma: 14, name: 'Dik Kürdî' },
  { koma: 17, name: 'Segâh' },
  { koma: 18, name: 'Bûselik' },
  { koma: 21, name: 'Dik Bûselik' },
  { koma: 22, name: 'Çargâh' },
  { koma: 26, name: 'Nim Hicaz' },
  { koma: 27, name: 'Hicaz' },
  { koma: 30, name: 'Dik Hicaz' },
  { koma: 31, name: 'Nevâ' },
  { koma: 35, name: 'Nim Hisar' },
  { koma: 36, name: 'Hisar' },
  { koma: 39, name: 'Dik Hisar' },
  { koma: 40, name: 'Hüseynî' },
  { koma: 44, name: 'Acem' },
  { koma: 45, name: 'Dik Acem' },
  { koma: 48, name: 'Eviç' },
  { koma: 49, name: 'Mâhur' },
  { koma: 52, name: 'Dik Mâhur' },
  { koma: 53, name: 'Gerdaniye' },
  { koma: 57, name: 'Nim Şehnaz' },
  { koma: 58, name: 'Şehnaz' },
  { koma: 61, name: 'Dik Şehnaz' },
  { koma: 62, name: 'Muhayyer' },
  { koma: 66, name: 'Sünbüle' },
  { koma: 67, name: 'Dik Sünbüle' },
  { koma: 70, name: 'Tiz Segâh' },
  { koma: 71, name: 'Tiz Bûselik' },
  { koma: 74, name: 'Tiz Dik Bûselik' },
  { koma: 75, name: 'Tiz Çargâh' },
];

const LOWEST = PERDE[0]?.koma ?? -22;
const HIGHEST = PERDE[PERDE.length - 1]?.koma ?? 75;
const byKoma = new Map(PERDE.map((p) => [p.koma, p.name]));

/** The name of the grid step `step` koma above Rast, or null where AEU names none. */
export function perdeName(step: number): string | null {
  if (step >= LOWEST && step <= HIGHEST) return byKoma.get(step) ?? null;
  if (step > HIGHEST) {
    const base = perdeName(step - KOMA_PER_OCTAVE);
    return base ? `Tiz ${base.replace(/^Tiz /, '')}` : null;
  }
  const base = perdeName(step + KOMA_PER_OCTAVE);
  return base ? `Kaba ${base.replace(/^Kaba /, '')}` : null;
}

/** Koma above Rast of a perde name, or null. */
export function perdeKoma(name: string): number | null {
  return PERDE.find((p) => p.name === name)?.koma ?? null;
}

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

// ---------------------------------------------------------------------------------------------
// Ahenk: the instrument's pitch level. Turkish notation is written at Bolahenk; an instrument in
// another ahenk sounds the written perde lower. Offsets in semitones (sounding − written), from the
// ney sizes of the main ahenks: Bolâhenk nısfiye D "yerinden" (as written), Davud C, Şah B,
// Mansur A, Kız G, Müstahsen F, Süpürde E (neyzenahmetkaya.com, "Akortlarına Göre Ney Çeşitleri").
// Müstahsen and Süpürde are played as nısfiye (an octave up), hence +3 and +2 here.
// A Dügâh (written A4) sounds at A4 · 2^(offset/12) with A4 the concert pitch (AEU: A4 = Dügâh).

export const AHENKS = [
  { key: 'bolahenk', name: 'Bolahenk', semitones: 0 },
  { key: 'supurde', name: 'Süpürde', semitones: 2 },
  { key: 'mustahsen', name: 'Müstahsen', semitones: 3 },
  { key: 'davud', name: 'Davud', semitones: -2 },
  { key: 'sah', name: 'Şah', semitones: -3 },
  { key: 'mansur', name: 'Mansur', semitones: -5 },
  { key: 'kiz', name: 'Kız', semitones: -7 },
] as const;
export type AhenkKey = (typeof AHENKS)[number]['key'];

export const ahenkSemitones = (key: AhenkKey) => AHENKS.find((a) => a.key === key)?.semitones ?? 0;

/** Where Rast sounds, in Hz, for the concert pitch `a4` and the ahenk. */
export function rastFrequency(a4: number = A4_RANGE.default, ahenk: AhenkKey = 'bolahenk'): number {
  const dugah = a4 * 2 ** (ahenkSemitones(ahenk) / 12);
  return dugah * 2 ** (-9 / KOMA_PER_OCTAVE);
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

// ---------------------------------------------------------------------------------------------
// Makam scales: ascending steps in koma from the durak (MAKAM.md, after sonic-pi-net/sonic-pi
// PR #1705 / #2475); each sums to 53 (a unit test checks). Durak and güçlü as commonly taught
// (e.g. balpa/TurkishRhythm data/data.js: Hicaz "Durağı: Dügâh … Güçlüsü: Nevâ"; Nihavend
// "Durağı: Rast … Güçlüsü: Neva"). Saba, Hüzzam and Segâh are left out until verified (MAKAM.md).

export type Makam = { key: MakamKey; name: string; steps: readonly number[]; durak: string; guclu: string };

export const MAKAMS: Record<MakamKey, Makam> = {
  rast: { key: 'rast', name: 'Rast', steps: [9, 8, 5, 9, 9, 8, 5], durak: 'Rast', guclu: 'Nevâ' },
  ussak: { key: 'ussak', name: 'Uşşak', steps: [8, 5, 9, 9, 4, 9, 9], durak: 'Dügâh', guclu: 'Nevâ' },
  hicaz: { key: 'hicaz', name: 'Hicaz', steps: [5, 12, 5, 9, 8, 5, 9], durak: 'Dügâh', guclu: 'Nevâ' },
  huseyni: { key: 'huseyni', name: 'Hüseynî', steps: [8, 5, 9, 9, 8, 5, 9], durak: 'Dügâh', guclu: 'Hüseynî' },
  nihavend: { key: 'nihavend', name: 'Nihavend', steps: [9, 4, 9, 9, 4, 9, 9], durak: 'Rast', guclu: 'Nevâ' },
  kurdi: { key: 'kurdi', name: 'Kürdî', steps: [4, 9, 9, 9, 4, 9, 9], durak: 'Dügâh', guclu: 'Nevâ' },
  // Sonic Pi's steps (MAKAM.md); in practice the upper part often uses the Kürdî tetrachord.
  buselik: { key: 'buselik', name: 'Bûselik', steps: [9, 4, 9, 9, 9, 4, 9], durak: 'Dügâh', guclu: 'Hüseynî' },
};

/** The scale's degrees as koma above Rast, from the durak (or `durak` given) up one octave. */
export function scaleDegrees(makam: MakamKey, durak?: string | null): Array<{ koma: number; name: string | null }> {
  const m = MAKAMS[makam];
  const start = (durak ? perdeKoma(durak) : null) ?? perdeKoma(m.durak) ?? 0;
  const out = [{ koma: start, name: perdeName(start) }];
  let k = start;
  for (const s of m.steps) {
    k += s;
    out.push({ koma: k, name: perdeName(k) });
  }
  return out;
}
