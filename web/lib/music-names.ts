import { MAKAM_KEYS, effectiveTempoUnit } from '@contract/music-keys';
import type { MakamKey, TempoUnit, UsulKey } from '@contract/music';
import type { ExerciseSettings } from '@contract/exercise-settings';
import { MAKAMS } from '@contract/makam';

/**
 * Display names of the makam and usul keys (contract/music.ts). They are Turkish proper names and
 * read the same in the German and the Turkish interface (MAKAM.md spells them this way); the makam
 * names come from the makam library (contract/makam.ts).
 */
export const MAKAM_NAMES: Record<MakamKey, string> = Object.fromEntries(MAKAM_KEYS.map((k) => [k, MAKAMS[k].name])) as Record<MakamKey, string>;

export const USUL_NAMES: Record<UsulKey, string> = {
  nim_sofyan: 'Nim Sofyan',
  semai: 'Semai',
  sofyan: 'Sofyan',
  turk_aksagi: 'Türk Aksağı',
  yuruk_semai: 'Yürük Semai',
  devr_i_hindi: 'Devr-i Hindi',
  duyek: 'Düyek',
  aksak: 'Aksak',
  evfer: 'Evfer',
  curcuna: 'Curcuna',
};

/** The usual durak (tonic perde) of each makam (contract/makam.ts); a different one is named in the summary. */
export const MAKAM_DURAK: Record<MakamKey, string> = Object.fromEntries(MAKAM_KEYS.map((k) => [k, MAKAMS[k].durak])) as Record<MakamKey, string>;

/**
 * The note value a tempo counts, as text: '♪ = 80', '♩. = 60'. The half and the sixteenth are the
 * Unicode musical symbols (drawn as NoteValue where a font may lack them: the metronome).
 */
export const TEMPO_UNIT_SYMBOLS: Record<TempoUnit, string> = {
  half: '\u{1D15E}',
  quarter: '♩',
  'dotted-quarter': '♩.',
  eighth: '♪',
  sixteenth: '\u{1D161}',
};

/** '♪ = 80': a tempo in its unit. */
export const tempoText = (bpm: number, unit: TempoUnit): string => `${TEMPO_UNIT_SYMBOLS[unit]} = ${bpm}`;

/** A name for a key that may be newer than this list: the key itself. */
export const makamName = (k: string): string => (MAKAM_NAMES as Record<string, string>)[k] ?? k;
export const usulName = (k: string): string => (USUL_NAMES as Record<string, string>)[k] ?? k;

/**
 * The one-line summary of an exercise's settings: 'Hicaz · Düyek · ♪ = 80', '7/8 (2+2+3) · ♪ = 120',
 * the tempo in its unit (the stored one, else the usul's or meter's written unit);
 * a durak other than the makam's usual one follows it ('Hicaz (Nevâ)'). Empty when nothing is set.
 */
export function settingsSummary(s: Partial<ExerciseSettings> | null | undefined): string {
  const { names, tempo } = settingsParts(s);
  return [...names, ...(tempo ? [tempoText(tempo.bpm, tempo.unit)] : [])].join(' · ');
}

/** The summary's parts: the names (makam, usul, meter) and the tempo in its unit, to render apart. */
export function settingsParts(s: Partial<ExerciseSettings> | null | undefined): { names: string[]; tempo: { bpm: number; unit: TempoUnit } | null } {
  if (!s) return { names: [], tempo: null };
  const parts: string[] = [];
  const usualDurak = s.makam ? (MAKAM_DURAK as Record<string, string>)[s.makam] : undefined;
  if (s.makam) parts.push(s.durak && s.durak !== usualDurak ? `${makamName(s.makam)} (${s.durak})` : makamName(s.makam));
  else if (s.durak) parts.push(s.durak);
  if (s.usul) parts.push(usulName(s.usul));
  if (s.meter) parts.push(s.meter_grouping ? `${s.meter} (${s.meter_grouping})` : s.meter);
  return { names: parts, tempo: s.tempo_bpm ? { bpm: s.tempo_bpm, unit: effectiveTempoUnit(s) } : null };
}
