
/**
 * The vocabulary of the practice tools that exercises store (issue "Practice tools"):
 * makam and usul keys. The facts behind them (koma steps, perde names, stroke patterns, sources)
 * live beside the keys once the tools are built; /work/shared/MAKAM.md lists the sources.
 */
export const MAKAM_KEYS = ['rast', 'ussak', 'hicaz', 'huseyni', 'nihavend', 'kurdi', 'buselik'] as const;
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
