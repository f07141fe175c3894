/**
 * Reading an exercise's meter, grouping and strokes (contract/exercise-settings.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
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
