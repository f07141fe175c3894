
/**
 * The vocabulary of the practice tools that exercises store (issue "Practice tools"):
 * makam and usul keys. The facts behind them (koma steps, perde names, stroke patterns, sources)
 * live beside the keys once the tools are built; /work/shared/MAKAM.md lists the sources.
 */
export const MAKAM_KEYS = [
  'rast',
  'ussak',
  'hicaz',
  'huseyni',
  'nihavend',
  'kurdi',
  'buselik',
  'acemasiran',
  'acemkurdi',
  'bestenigar',
  'beyati',
  'hicazkar',
  'huzzam',
  'karcigar',
  'kurdilihicazkar',
  'mahur',
  'muhayyer',
  'neva',
  'saba',
  'segah',
  'sultaniyegah',
  'suzinak',
] as const;
export type MakamKey = (typeof MAKAM_KEYS)[number];

export const USUL_KEYS = [
  'nim_sofyan',
  'semai',
  'sofyan',
  'turk_aksagi',
  'yuruk_semai',
  'devr_i_hindi',
  'duyek',
  'aksak',
  'evfer',
  'curcuna',
] as const;
export type UsulKey = (typeof USUL_KEYS)[number];

/** One step of a rhythmic pattern: a low stroke, a high stroke, or a rest. */
export const STROKES = ['dum', 'tek', 'rest'] as const;
export type Stroke = (typeof STROKES)[number];

export const TEMPO_RANGE = { min: 20, max: 300 } as const;

/**
 * The note value a tempo counts (docs/decisions/exercise-settings.md): '♪ = 80' means 80 eighths a
 * minute. Each with its length in whole notes.
 */
export const TEMPO_UNITS = ['half', 'quarter', 'dotted-quarter', 'eighth', 'sixteenth'] as const;
export type TempoUnit = (typeof TEMPO_UNITS)[number];

export const TEMPO_UNIT_WHOLES: Record<TempoUnit, number> = {
  half: 1 / 2,
  quarter: 1 / 4,
  'dotted-quarter': 3 / 8,
  eighth: 1 / 8,
  sixteenth: 1 / 16,
};

/** The undotted unit a meter's lower number writes: 2 → half, 4 → quarter, 8 → eighth, 16 → sixteenth. */
export function writtenUnit(denominator: number): TempoUnit {
  return denominator === 2 ? 'half' : denominator === 8 ? 'eighth' : denominator === 16 ? 'sixteenth' : 'quarter';
}

/**
 * How each usul is written (MAKAM.md: beats/mertebe) and counted: Sofyan 4/4 in quarters, Aksak 9/8
 * in eighths. The metronome plays one step per written beat.
 */
export const USUL_METERS: Record<UsulKey, { beats: number; unit: 4 | 8; groups: readonly number[] }> = {
  nim_sofyan: { beats: 2, unit: 4, groups: [2] },
  semai: { beats: 3, unit: 4, groups: [3] },
  sofyan: { beats: 4, unit: 4, groups: [2, 2] },
  turk_aksagi: { beats: 5, unit: 8, groups: [2, 3] },
  yuruk_semai: { beats: 6, unit: 8, groups: [3, 3] },
  devr_i_hindi: { beats: 7, unit: 8, groups: [3, 4] },
  duyek: { beats: 8, unit: 8, groups: [3, 1, 2, 2] },
  aksak: { beats: 9, unit: 8, groups: [2, 2, 2, 3] },
  evfer: { beats: 9, unit: 8, groups: [2, 3, 2, 2] },
  curcuna: { beats: 10, unit: 8, groups: [3, 2, 2, 3] },
};

/**
 * The units a tempo may sensibly count in a bar of `beats`/`unit` grouped as `groups`: always the
 * written unit (first, the default); a compound bar (eighths in groups of three: 6/8, 12/8, Yürük
 * Semai, or 6/8 and 9/8 without a grouping) also in dotted quarters. Aksak 9/8 (2+2+2+3) is not one.
 */
export function tempoUnitChoices(beats: number, unit: number, groups: readonly number[] = [beats]): TempoUnit[] {
  const written = writtenUnit(unit);
  const threes = groups.length === 1 ? beats >= 6 : groups.length > 0 && groups.every((g) => g === 3);
  const compound = unit === 8 && beats % 3 === 0 && threes;
  return compound ? [written, 'dotted-quarter'] : [written];
}

/**
 * The bar an exercise's settings describe, as the tools play it: the usul when set (it wins over a
 * meter, as in the metronome), else the meter text '7/8' with its grouping '2+2+3'; null when none.
 */
export function barOf(s: { usul?: string | null; meter?: string | null; meter_grouping?: string | null }): { beats: number; unit: number; groups: readonly number[] } | null {
  if (s.usul && (USUL_KEYS as readonly string[]).includes(s.usul)) return USUL_METERS[s.usul as UsulKey];
  const m = s.meter ? /^\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*$/.exec(s.meter) : null;
  if (!m) return null;
  const beats = Number(m[1]);
  const unit = Number(m[2]);
  const groups = s.meter_grouping ? s.meter_grouping.split('+').map((g) => Number(g.trim())) : [beats];
  const valid = groups.every((g) => Number.isInteger(g) && g > 0) && groups.reduce((a, b) => a + b, 0) === beats;
  return { beats, unit, groups: valid ? groups : [beats] };
}

/**
 * The unit an exercise's tempo counts: the stored one, else the written unit of its usul or meter
 * (what the metronome always clicked: a row stored before units existed means what it meant),
 * else the quarter.
 */
export function effectiveTempoUnit(s: { tempo_unit?: TempoUnit | string | null; usul?: string | null; meter?: string | null; meter_grouping?: string | null }): TempoUnit {
  if (s.tempo_unit && (TEMPO_UNITS as readonly string[]).includes(s.tempo_unit)) return s.tempo_unit as TempoUnit;
  const bar = barOf(s);
  return bar ? writtenUnit(bar.unit) : 'quarter';
}

/**
 * Steps of a bar written in 1/`stepDenominator` notes per counted unit: ♩. over eighths = 3,
 * ♩ over eighths = 2, ♪ over quarters = 0.5. The metronome's step lasts 60 / (bpm × this) seconds.
 */
export function stepsPerUnit(unit: TempoUnit, stepDenominator: number): number {
  return TEMPO_UNIT_WHOLES[unit] * stepDenominator;
}
