/**
 * The limits of messages and their kinds (contract/messages.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

export const MESSAGE_LIMITS = {
  /** Characters of one message (after trimming). */
  maxChars: 2000,
  /** Messages per page, newest first. */
  pageSize: 30,
  /** Pinned lesson notes per conversation. */
  maxPinned: 5,
  /** Messages one person may write in one conversation within an hour (then 429). */
  perHour: 60,
  /** The retention a school may set, in days (default 365). */
  retentionDays: { min: 30, max: 3650, default: 365 },
} as const;

export const MESSAGE_KINDS = ['message', 'lesson_note'] as const;

export const MESSAGE_AUTHOR_ROLES = ['teacher', 'student', 'guardian'] as const;
