import { TEMPO_UNITS, USUL_METERS, USUL_KEYS, tempoUnitChoices, writtenUnit, type Stroke, type TempoUnit, type UsulKey } from '@contract/music-keys';

/**
 * Rhythm presets of the metronome: the usul of MAKAM.md as düm / tek / rest per step, and western
 * meters with their grouping (an accent on each group's first step). One step = one beat of the
 * written unit (mertebe): Düyek 8/8 has 8 steps, Aksak 9/8 has 9; the tempo counts steps.
 *
 * The usul strokes are the forms commonly taught in Turkish usul instruction (düm = low, strong;
 * tek = high, light; a longer stroke is followed by rests), e.g. Düyek "Düm tek – tek düm – tek –"
 * and Aksak "Düm – te ke düm – tek – –" (2+2+2+3). MAKAM.md: "Stroke patterns differ slightly
 * between teachers: ship the common ones and let a teacher edit a pattern". Beat counts and
 * groupings are MAKAM.md's (Devr-i Hindi 3+4, Aksak 2+2+2+3, Curcuna 3+2+2+3); a unit test checks
 * that each pattern has as many steps as its usul has beats.
 */

/** An usul: its strokes, and how it is written (`beats`/`unit`, contract USUL_METERS): Aksak 9/8 counts eighths. */
export type Usul = { key: UsulKey; name: string; beats: number; unit: 4 | 8; groups: readonly number[]; pattern: readonly Stroke[] };

const D = 'dum' as const;
const T = 'tek' as const;
const R = 'rest' as const;

export const USULS: Record<UsulKey, Usul> = {
  // Nim Sofyan 2/4: düm tek.
  nim_sofyan: { key: 'nim_sofyan', name: 'Nim Sofyan', ...USUL_METERS.nim_sofyan, pattern: [D, T] },
  // Semai 3/4: düm tek tek.
  semai: { key: 'semai', name: 'Semai', ...USUL_METERS.semai, pattern: [D, T, T] },
  // Sofyan 4/4: düm (2) te (1) ke (1).
  sofyan: { key: 'sofyan', name: 'Sofyan', ...USUL_METERS.sofyan, pattern: [D, R, T, T] },
  // Türk Aksağı 5/8: düm (2) tek (1) tek (2).
  turk_aksagi: { key: 'turk_aksagi', name: 'Türk Aksağı', ...USUL_METERS.turk_aksagi, pattern: [D, R, T, T, R] },
  // Yürük Semai 6/8: düm tek tek düm tek (2).
  yuruk_semai: { key: 'yuruk_semai', name: 'Yürük Semai', ...USUL_METERS.yuruk_semai, pattern: [D, T, T, D, T, R] },
  // Devr-i Hindi 7/8 (3+4): düm tek (2) düm (2) tek (2).
  devr_i_hindi: { key: 'devr_i_hindi', name: 'Devr-i Hindi', ...USUL_METERS.devr_i_hindi, pattern: [D, T, R, D, R, T, R] },
  // Düyek 8/8: düm tek (2) tek düm (2) tek (2).
  duyek: { key: 'duyek', name: 'Düyek', ...USUL_METERS.duyek, pattern: [D, T, R, T, D, R, T, R] },
  // Aksak 9/8 (2+2+2+3): düm (2) te ke düm (2) tek (3).
  aksak: { key: 'aksak', name: 'Aksak', ...USUL_METERS.aksak, pattern: [D, R, T, T, D, R, T, R, R] },
  // Evfer 9/8: düm (2) düm tek (2) tek (2) tek (1)… forms vary most here: check with the teacher.
  evfer: { key: 'evfer', name: 'Evfer', ...USUL_METERS.evfer, pattern: [D, R, D, T, R, T, R, T, R] },
  // Curcuna 10/8 (3+2+2+3): düm (2) tek düm (2) tek (2) tek (3).
  curcuna: { key: 'curcuna', name: 'Curcuna', ...USUL_METERS.curcuna, pattern: [D, R, T, D, R, T, R, T, R, R] },
};

/** A western meter: steps per bar, the written unit and the grouping (accent per group). */
export type Meter = { key: string; label: string; beats: number; unit: number; groups: readonly number[] };

export const METERS: readonly Meter[] = [
  { key: '2/4', label: '2/4', beats: 2, unit: 4, groups: [2] },
  { key: '3/4', label: '3/4', beats: 3, unit: 4, groups: [3] },
  { key: '4/4', label: '4/4', beats: 4, unit: 4, groups: [4] },
  { key: '5/8', label: '5/8 (2+3)', beats: 5, unit: 8, groups: [2, 3] },
  { key: '5/8:3+2', label: '5/8 (3+2)', beats: 5, unit: 8, groups: [3, 2] },
  { key: '6/8', label: '6/8 (3+3)', beats: 6, unit: 8, groups: [3, 3] },
  { key: '7/8', label: '7/8 (2+2+3)', beats: 7, unit: 8, groups: [2, 2, 3] },
  { key: '7/8:3+2+2', label: '7/8 (3+2+2)', beats: 7, unit: 8, groups: [3, 2, 2] },
  { key: '9/8', label: '9/8 (2+2+2+3)', beats: 9, unit: 8, groups: [2, 2, 2, 3] },
  { key: '12/8', label: '12/8 (3+3+3+3)', beats: 12, unit: 8, groups: [3, 3, 3, 3] },
];

/**
 * A meter from a stored or typed text: '4/4', '7/8', '7/8 (3+2+2)', '7/8:3+2+2'. A grouping that
 * does not add up to the beats is ignored (then the meter's first preset or one group for the bar).
 */
export function parseMeter(text: string | null | undefined): Meter | null {
  if (!text) return null;
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*(?:[:(]\s*([\d+\s]+)\)?)?\s*$/.exec(text);
  if (!m) return null;
  const beats = Number(m[1]);
  const unit = Number(m[2]);
  if (beats < 1 || beats > 16 || ![2, 4, 8, 16].includes(unit)) return null;
  const groups = m[3]?.split('+').map((g) => Number(g.trim())) ?? null;
  const valid = groups && groups.every((g) => g > 0) && groups.reduce((a, b) => a + b, 0) === beats;
  const preset = METERS.find((p) => p.beats === beats && p.unit === unit && (!valid || p.groups.join('+') === groups.join('+')));
  if (preset) return preset;
  const g = valid ? groups : [beats];
  return { key: `${beats}/${unit}:${g.join('+')}`, label: `${beats}/${unit} (${g.join('+')})`, beats, unit, groups: g };
}

/** The bar the metronome plays for an usul key (it wins) or a meter text; null when neither is valid. */
export function barFor(usul: string | null | undefined, meter: string | null | undefined): { unit: number; beats: number; groups: readonly number[] } | null {
  if (usul && (USUL_KEYS as readonly string[]).includes(usul)) return USULS[usul as UsulKey];
  return parseMeter(meter);
}

/**
 * The unit the tempo counts for a bar: `stored` when it is a unit, else the bar's written unit
 * (Aksak 9/8 → eighth, 4/4 → quarter), else the quarter (docs/decisions/exercise-settings.md).
 */
export function tempoUnitFor(bar: { unit: number } | null, stored?: string | null): TempoUnit {
  if (stored && (TEMPO_UNITS as readonly string[]).includes(stored)) return stored as TempoUnit;
  return bar ? writtenUnit(bar.unit) : 'quarter';
}

/** The units the metronome offers for a bar (tempoUnitChoices), with `current` kept when it is another. */
export function unitChoicesFor(bar: { beats: number; unit: number; groups: readonly number[] }, current: TempoUnit): TempoUnit[] {
  const choices = tempoUnitChoices(bar.beats, bar.unit, bar.groups);
  return choices.includes(current) ? choices : [...choices, current];
}

/** What each step of a bar plays: an accent on each group's first step, else a normal click. */
export function meterPattern(meter: Meter): Array<'accent' | 'normal'> {
  const out: Array<'accent' | 'normal'> = [];
  for (const g of meter.groups) for (let i = 0; i < g; i++) out.push(i === 0 ? 'accent' : 'normal');
  return out;
}

/** The next stroke when a step of the pattern editor is tapped: düm → tek → rest → düm. */
export const nextStroke = (s: Stroke): Stroke => (s === 'dum' ? 'tek' : s === 'tek' ? 'rest' : 'dum');

/** Group starts (step indices) of a grouping: [2,2,2,3] → [0,2,4,6]. */
export function groupStarts(groups: readonly number[]): number[] {
  const out: number[] = [];
  let at = 0;
  for (const g of groups) {
    out.push(at);
    at += g;
  }
  return out;
}
