/**
 * The ranges of a review (contract/metrics.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

export const ACCURACY_RANGE = { min: 0, max: 100 } as const;

export const TEACHER_FEEDBACK_MAX = 2000;
