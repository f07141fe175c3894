/**
 * Reading an exercise's meter, grouping and strokes (contract/exercise-settings.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

/**
 * The practice-tool settings an exercise may carry (docs/decisions/exercise-settings.md; docs in
 * docs/decisions/exercise-settings.md). All optional; the task detail opens the tools with them.
 *
 * - `tempo_bpm`: whole number TEMPO_RANGE (20–300), counted in `tempo_unit`.
 * - `tempo_unit`: the note value the tempo counts (TEMPO_UNITS: 'eighth' for ♪ = 80); null = the
 *   written unit of the usul or meter (effectiveTempoUnit), which is what rows without it meant.
 * - `meter`: a western meter `beats/unit` as text, '7/8' (beats 1–16; unit 2, 4, 8 or 16, what the metronome plays),
 *   stored and answered without spaces.
 * - `meter_grouping`: the meter's beats in groups, '2+2+3' (each at least 1, together exactly the
 *   meter's beats, at most 16 groups); only together with `meter`.
 * - `usul`: one of USUL_KEYS; `usul_pattern`: the teacher's own stroke list (dum / tek / rest),
 *   1–64 steps, which replaces the usul's preset when set.
 * - `makam`: one of MAKAM_KEYS; `durak`: the perde the piece rests on, free text up to 40 characters
 *   (e.g. 'Dügâh').
 */
export const METER_LIMITS = { beatsMax: 16, units: [2, 4, 8, 16], groupsMax: 16 } as const;

export const USUL_PATTERN_MAX = 64;

export const DURAK_MAX = 40;

/** '7/8' (spaces allowed around the slash) → { beats: 7, unit: 8 }; null when it is not a valid meter. */
export function parseMeter(text: string): { beats: number; unit: number } | null {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*$/.exec(text);
  if (!m) return null;
  const beats = Number(m[1]);
  const unit = Number(m[2]);
  if (beats < 1 || beats > METER_LIMITS.beatsMax || !(METER_LIMITS.units as readonly number[]).includes(unit)) return null;
  return { beats, unit };
}

/** '2 + 2 + 3' → [2, 2, 3]; null when it is not groups of at least 1 joined by '+'. */
export function parseGrouping(text: string): number[] | null {
  const parts = text.split('+').map((p) => p.trim());
  if (parts.length > METER_LIMITS.groupsMax || parts.some((p) => !/^\d{1,2}$/.test(p))) return null;
  const groups = parts.map(Number);
  return groups.some((g) => g < 1) ? null : groups;
}

/** A stroke as a teacher may type it: 'düm', 'DUM', 'tek', 'rest' or '-' (a rest). */
export function normalizeStroke(word: string): string {
  const w = word.trim().toLocaleLowerCase('tr');
  if (w === 'düm') return 'dum';
  if (w === '-' || w === '.') return 'rest';
  return w;
}

/** A pattern sent as text ('dum tek - tek', commas or spaces) or as repeated fields → a list; empty → null. */
export function strokeList(v: unknown): unknown {
  if (v === undefined || v === null) return v;
  const items = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(/[\s,]+/) : [x]));
  const list = items.filter((x) => !(typeof x === 'string' && x.trim() === '')).map((x) => (typeof x === 'string' ? normalizeStroke(x) : x));
  return list.length ? list : null;
}
