/**
 * The limits of an exercise's fields (contract/exercises.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

/** Field limits of an exercise (SPEC.md: title required, estimated minutes at least 1, priority 1–5). */
export const EXERCISE_LIMITS = {
  title: 200,
  description: 5000,
  target: 500,
  tag: 50,
  tags: 20,
  minutesMax: 1440,
  /** Files in one request. */
  files: 10,
  /** Original file names are kept (cleaned) up to this length. */
  filename: 200,
} as const;

/** Priority labels of SPEC.md section 5 (German; the web app translates them). */
export const PRIORITIES = [1, 2, 3, 4, 5] as const;
