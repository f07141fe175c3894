import { z } from 'zod';
import type { IssueMsg } from './common';
import { makamKeySchema, STROKES, strokeSchema, TEMPO_RANGE, tempoUnitSchema, usulKeySchema, type Stroke } from './music';
import { USUL_PATTERN_MAX, DURAK_MAX, parseMeter, parseGrouping, strokeList } from './exercise-settings-limits';

// The limits without zod (the web app imports them from there).
export * from './exercise-settings-limits';

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

export const settingsMessages = {
  meter: { de: 'Bitte geben Sie eine Taktart wie 4/4 oder 7/8 an.', tr: 'Lütfen 4/4 veya 7/8 gibi bir ölçü girin.' },
  grouping: { de: 'Bitte geben Sie die Gruppierung wie 2+2+3 an.', tr: 'Lütfen gruplamayı 2+2+3 biçiminde girin.' },
  groupingSum: (beats: number): IssueMsg => ({
    de: `Die Gruppen müssen zusammen ${beats} Schläge ergeben.`,
    tr: `Grupların toplamı ${beats} vuruş olmalı.`,
  }),
  groupingWithoutMeter: { de: 'Eine Gruppierung braucht eine Taktart.', tr: 'Gruplama için bir ölçü gerekir.' },
  stroke: { de: 'Erlaubt sind nur dum, tek und rest.', tr: 'Yalnızca düm, tek ve es (rest) kullanılabilir.' },
  tempo: {
    de: `Bitte geben Sie ein Tempo von ${TEMPO_RANGE.min} bis ${TEMPO_RANGE.max} BPM an (ganze Zahl).`,
    tr: `Lütfen ${TEMPO_RANGE.min} ile ${TEMPO_RANGE.max} BPM arasında bir tempo girin (tam sayı).`,
  },
} satisfies Record<string, IssueMsg | ((n: number) => IssueMsg)>;

const withMsg = (msg: IssueMsg) => ({ message: msg.de, params: { msg } });
const emptyToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

/** A whole tempo in BPM within TEMPO_RANGE, from a number or its text. */
export const tempoBpm = z
  .number()
  .refine((n) => Number.isInteger(n) && n >= TEMPO_RANGE.min && n <= TEMPO_RANGE.max, withMsg(settingsMessages.tempo));
const tempoText = (v: unknown) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v);

/** The settings' fields of the exercise form (multipart text, blank = not set); see exerciseFields. */
export const exerciseSettingsFields = {
  tempo_bpm: z.preprocess((v) => tempoText(emptyToNull(v)), tempoBpm.nullable().optional()),
  tempo_unit: z.preprocess(emptyToNull, tempoUnitSchema.nullable().optional()),
  meter: z.preprocess(
    emptyToNull,
    z
      .string()
      .refine((t) => parseMeter(t) !== null, withMsg(settingsMessages.meter))
      .transform((t) => {
        const m = parseMeter(t)!;
        return `${m.beats}/${m.unit}`;
      })
      .nullable()
      .optional(),
  ),
  meter_grouping: z.preprocess(
    emptyToNull,
    z
      .string()
      .refine((t) => parseGrouping(t) !== null, withMsg(settingsMessages.grouping))
      .transform((t) => parseGrouping(t)!.join('+'))
      .nullable()
      .optional(),
  ),
  usul: z.preprocess(emptyToNull, usulKeySchema.nullable().optional()),
  usul_pattern: z.preprocess(
    strokeList,
    z
      .array(z.string())
      .max(USUL_PATTERN_MAX)
      .refine((l) => l.every((s) => (STROKES as readonly string[]).includes(s)), withMsg(settingsMessages.stroke))
      .transform((l) => l as Stroke[])
      .nullable()
      .optional(),
  ),
  makam: z.preprocess(emptyToNull, makamKeySchema.nullable().optional()),
  durak: z.preprocess(emptyToNull, z.string().trim().max(DURAK_MAX).nullable().optional()),
};

/** Cross-field check: a grouping needs a meter and must add up to its beats (reported on meter_grouping). */
export function checkGrouping(v: { meter?: string | null; meter_grouping?: string | null }, ctx: z.RefinementCtx): void {
  if (!v.meter_grouping) return;
  const meter = v.meter ? parseMeter(v.meter) : null;
  if (!meter) {
    if (!v.meter) ctx.addIssue({ code: 'custom', path: ['meter_grouping'], ...withMsg(settingsMessages.groupingWithoutMeter) });
    return;
  }
  const groups = parseGrouping(v.meter_grouping);
  if (!groups) return; // reported by the field itself
  const sum = groups.reduce((a, b) => a + b, 0);
  if (sum !== meter.beats) ctx.addIssue({ code: 'custom', path: ['meter_grouping'], ...withMsg(settingsMessages.groupingSum(meter.beats)) });
}

/** The settings as answered in Exercise and in a task's `exercise` (null = not set). */
export const exerciseSettingsSchema = z.object({
  tempo_bpm: z.number().int().min(TEMPO_RANGE.min).max(TEMPO_RANGE.max).nullable(),
  /** As stored: null = the usul's or meter's written unit (effectiveTempoUnit in contract/music-keys.ts). */
  tempo_unit: tempoUnitSchema.nullable(),
  meter: z.string().meta({ pattern: '^[0-9]{1,2}/[0-9]{1,2}$', example: '7/8' }).nullable(),
  meter_grouping: z.string().meta({ pattern: '^[0-9]{1,2}(\\+[0-9]{1,2}){0,15}$', example: '2+2+3' }).nullable(),
  usul: usulKeySchema.nullable(),
  usul_pattern: z.array(strokeSchema).min(1).max(USUL_PATTERN_MAX).nullable(),
  makam: makamKeySchema.nullable(),
  durak: z.string().max(DURAK_MAX).nullable(),
});
export type ExerciseSettings = z.infer<typeof exerciseSettingsSchema>;

/*
 * What parseMeter, parseGrouping and strokeList take, as the document's patterns (ECMAScript
 * regular expressions; blank counts as not set): a generated client or a schema-driven test then
 * sends only what the server keeps.
 */
const SP = '\\s*';
const BEATS = '(?:0?[1-9]|1[0-6])';
const GROUP = '(?:0?[1-9]|[1-9][0-9])';
const STROKE = '(?:[dD][uUüÜ][mM]|[tT][eE][kK]|[rR][eE][sS][tT]|-|\\.)';
const METER_FORM_PATTERN = `^${SP}(?:${BEATS}${SP}/${SP}(?:0?2|0?4|0?8|16)${SP})?$`;
const GROUPING_FORM_PATTERN = `^${SP}(?:${GROUP}${SP}(?:\\+${SP}${GROUP}${SP}){0,15})?$`;
const STROKES_FORM_PATTERN = `^[\\s,]*(?:${STROKE}(?:[\\s,]+${STROKE}){0,${USUL_PATTERN_MAX - 1}}[\\s,]*)?$`;

/** The form's documentation of these fields (OpenAPI, multipart: every value is text). */
export const exerciseSettingsDoc = {
  tempo_bpm: z.number().int().min(TEMPO_RANGE.min).max(TEMPO_RANGE.max).optional().describe('Tempo target: tempo_unit notes per minute'),
  tempo_unit: tempoUnitSchema
    .optional()
    .describe("The note value tempo_bpm counts ('eighth': ♪ = 80); blank = the written unit of the usul or meter (9/8 → eighth, 4/4 → quarter)"),
  meter: z
    .string()
    .meta({ pattern: METER_FORM_PATTERN, example: '7/8' })
    .optional()
    .describe('Western meter beats/unit; unit 2, 4, 8 or 16; beats 1–16; blank: none'),
  meter_grouping: z
    .string()
    .meta({ pattern: GROUPING_FORM_PATTERN, example: '2+2+3' })
    .optional()
    .describe("Groups of the meter joined by +, at most 16; together exactly the meter's beats and only with a meter (otherwise 422 errors.meter_grouping); blank: none"),
  usul: usulKeySchema.optional(),
  usul_pattern: z
    .string()
    .meta({ pattern: STROKES_FORM_PATTERN, example: 'dum tek tek dum tek' })
    .optional()
    .describe(`The teacher's stroke pattern: dum, tek or rest (also düm and -) separated by spaces or commas, 1–${USUL_PATTERN_MAX} steps`),
  makam: makamKeySchema.optional(),
  durak: z.string().max(DURAK_MAX).optional().describe('The perde the piece rests on, e.g. Dügâh'),
};

/** Null settings (an exercise without any). */
export const NO_SETTINGS: ExerciseSettings = {
  tempo_bpm: null,
  tempo_unit: null,
  meter: null,
  meter_grouping: null,
  usul: null,
  usul_pattern: null,
  makam: null,
  durak: null,
};
