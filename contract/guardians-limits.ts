/**
 * What a parent's view of a child covers (contract/guardians.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

/** How far back and ahead (days from today, APP_TIMEZONE) a guardian sees a child's tasks. */
export const GUARDIAN_TASK_DAYS = { back: 30, ahead: 30 } as const;

/** The child's latest recordings a guardian sees. */
export const GUARDIAN_RECORDINGS_MAX = 20;
