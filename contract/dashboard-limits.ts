/**
 * What the teacher's attention card looks for (contract/dashboard.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

/**
 * The thresholds of the 'needs attention' card (docs/decisions/teacher-day-actions.md): a student
 * is quiet after QUIET_DAYS school days without a practice session, piling up from OVERDUE_MIN
 * overdue tasks; each list shows at most ROWS entries and the total.
 */
export const ATTENTION = { quietDays: 5, overdueMin: 3, rows: 3 } as const;
