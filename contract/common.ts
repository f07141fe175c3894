import { z } from 'zod';
import { DATE_PATTERN, DATE_RANGE } from './constants';
import { isDateInRange } from './recurrence';

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

/**
 * A text in both interface languages carried by a zod issue (`params.msg`): the server's error
 * handler answers it instead of zod's generic message for that field.
 */
export type IssueMsg = { de: string; tr: string };

/** The 422 message of a date outside DATE_RANGE or not a date at all. */
export const dateRangeMessage: IssueMsg = {
  de: 'Bitte ein gültiges Datum (JJJJ-MM-TT) zwischen 2000-01-01 und 2100-12-31 angeben.',
  tr: '2000-01-01 ile 2100-12-31 arasında geçerli bir tarih (YYYY-AA-GG) gerekli.',
};

/**
 * A calendar date YYYY-MM-DD that exists and lies in DATE_RANGE (2000-01-01 … 2100-12-31);
 * documented with format date, the pattern DATE_PATTERN and the window.
 */
export const dateString = z
  .string()
  .refine(isDateInRange, { message: dateRangeMessage.de, params: { msg: dateRangeMessage } })
  .meta({
    format: 'date',
    pattern: DATE_PATTERN,
    description: `A calendar date YYYY-MM-DD from ${DATE_RANGE.min} to ${DATE_RANGE.max}.`,
  });

/**
 * An optional course filter: empty or missing means all courses (documented as `allowEmptyValue`).
 * Anything else must be a course id: the text 'null' is refused like any other non-number (422).
 */
export const courseIdQuery = z.preprocess(
  (v) => (v === '' || v === undefined ? undefined : v),
  wholeNumberText(z.number().int().positive().max(2147483647)).optional(),
);

/** `language` in a query: de or tr; missing means Accept-Language decides (an empty value is refused). */
export const languageQuery = languageSchema.optional();

/**
 * The query of a route that takes no parameters but `language`. Every query schema is strict:
 * a parameter the route does not document answers 422 naming it.
 */
export const languageOnlyQuery = z.strictObject({ language: languageQuery });

/** Trimmed text; empty becomes null. */
export const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().max(max).nullable().optional(),
  );

/** An e-mail address in an answer (documented with format email; input is checked with z.email()). */
export const emailText = z.string().meta({ format: 'email' });

/**
 * What z.email() accepts, with the white space around it that is trimmed first: the document
 * carries it beside `format: email`, whose JSON Schema meaning is wider (`0@com`, `a@b.c` and
 * `x@[127.0.0.1]` are addresses to it, not to the server).
 */
export const EMAIL_PATTERN = `^\\s*${z.regexes.email.source.slice(1, -1)}\\s*$`;

/** An e-mail address a person types: trimmed, 1–`max` characters, checked with z.email(). */
export const emailInput = (max = 254) => z.string().trim().min(1).max(max).pipe(z.email()).meta({ format: 'email', pattern: EMAIL_PATTERN });

/**
 * A text that must hold something: trimmed, then `min`–`max` characters. Documented with the
 * pattern `\S` (one character that is not white space), since a text of spaces is refused.
 */
export const requiredText = (max: number, min = 1) => z.string().trim().min(min).max(max).meta({ pattern: '\\S' });

/** The error statuses an answer of the API may have; every one carries errorSchema (409 of the practice routes extends it). */
export type ErrorStatus = 401 | 403 | 404 | 409 | 413 | 415 | 416 | 422 | 429 | 500;

/**
 * The error responses of one route, for its schema: exactly the statuses it can answer, so that
 * the OpenAPI document lists no more and no fewer (the API tests check every answer against it).
 * 422 (a parameter, query or body the contract refuses, an unknown query parameter) and 500 are
 * always included; a route with a request body (POST, PUT, PATCH) adds 413 (too large) and 415
 * (a content type it does not read) itself via `withBody`.
 */
export function errorResponsesOf<const C extends ErrorStatus>(...codes: C[]): Record<C | 422 | 500, typeof errorSchema> {
  const out = {} as Record<C | 422 | 500, typeof errorSchema>;
  for (const code of [...codes, 422 as const, 500 as const].sort((a, b) => a - b)) out[code] = errorSchema;
  return out;
}

/** 413 and 415: added to every route that reads a request body (POST, PUT, PATCH). */
export const bodyErrors = { 413: errorSchema, 415: errorSchema } as const;

/**
 * @deprecated Lists statuses a route may never answer; use errorResponsesOf(…) with the route's own.
 * Kept so that routes not yet converted still compile (and still document 422 and 500).
 */
export const errorResponses = errorResponsesOf(401, 403, 404, 409, 429);

/** The 422 message of an `Idempotency-Key` header that is empty, too long or holds other characters. */
export const idempotencyKeyMessage: IssueMsg = {
  de: 'Der Idempotency-Key muss 1–200 Zeichen aus A–Z, a–z, 0–9 und _ - : . haben.',
  tr: 'Idempotency-Key, A–Z, a–z, 0–9 ve _ - : . karakterlerinden oluşan 1–200 karakter olmalıdır.',
};

/** What an `Idempotency-Key` may hold. */
export const IDEMPOTENCY_KEY_PATTERN = '^[A-Za-z0-9_\\-:.]{1,200}$';

/**
 * The request headers of a write a device may queue offline (docs/decisions/idempotency-and-offline-sessions.md):
 * an optional `Idempotency-Key`. A repeat with the same key by the same user within 24 hours
 * answers the first answer (same status and body) without writing again.
 */
export const idempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .refine((v) => new RegExp(IDEMPOTENCY_KEY_PATTERN).test(v), { message: idempotencyKeyMessage.de, params: { msg: idempotencyKeyMessage } })
    .optional()
    .meta({
      pattern: IDEMPOTENCY_KEY_PATTERN,
      description:
        'Optional. A key the client chose for this write (1–200 characters of A–Z a–z 0–9 _ - : .). Sent again by the same user within 24 hours, the first answer (2xx) comes back without a second write; the same key on another call → 422; while the first request with it still runs → 409.',
    }),
});
