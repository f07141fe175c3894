import { z } from 'zod';

/** Every error answer of the API. */
export const errorSchema = z
  .object({
    message: z.string(),
    errors: z.record(z.string(), z.array(z.string())).optional(),
  })
  .meta({ id: 'Error' });
export type ApiError = z.infer<typeof errorSchema>;

export const languages = ['de', 'tr'] as const;
export const languageSchema = z.enum(languages);
export type Language = z.infer<typeof languageSchema>;

/**
 * A whole number sent as text (a path or query parameter): decimal digits only, so '0x2', '2e0',
 * ' 2' or '2.0' are refused (422) instead of being read as 2. Numbers pass as they are.
 */
export const wholeNumberText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' && /^[0-9]{1,12}$/.test(v) ? Number(v) : v), schema);

/** A positive integer id in a path, e.g. /api/students/{id}. */
export const idParams = z.object({ id: wholeNumberText(z.number().int().positive().max(2147483647)) });

/** A calendar date YYYY-MM-DD that exists. */
export const dateString = z.iso.date();

/** An optional course filter: empty or missing means all courses. */
export const courseIdQuery = z.preprocess(
  (v) => (v === '' || v === 'null' || v === undefined ? undefined : v),
  wholeNumberText(z.number().int().positive().max(2147483647)).optional(),
);

export const languageQuery = z.preprocess((v) => (v === '' ? undefined : v), languageSchema.optional());

/** Trimmed text; empty becomes null. */
export const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().max(max).nullable().optional(),
  );

/** Standard error responses to list in route schemas. */
export const errorResponses = {
  401: errorSchema,
  403: errorSchema,
  404: errorSchema,
  409: errorSchema,
  422: errorSchema,
  429: errorSchema,
} as const;
