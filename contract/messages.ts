import { z } from 'zod';
import { languageQuery, wholeNumberText } from './common';
import { MESSAGE_LIMITS, MESSAGE_KINDS, MESSAGE_AUTHOR_ROLES } from './messages-limits';

// The limits without zod (the web app imports them from there).
export * from './messages-limits';

/**
 * Messages (docs/decisions/messages.md): per student one conversation between the student, the
 * student's teacher and the student's parents. Plain text (never HTML), optionally linked to one
 * of the student's tasks or takes (at a moment); a teacher's lesson note ("Unterrichtsnotiz") is a
 * kind of message that can be pinned.
 */

export type MessageKind = (typeof MESSAGE_KINDS)[number];

const id = z.number().int();
const iso = z.string().meta({ format: 'date-time' });
const pathId = wholeNumberText(z.number().int().positive().max(2147483647));

/** What a message points to: a task, or a take of a task (at a moment in ms). */
export const messageLinkSchema = z
  .object({
    kind: z.enum(['task', 'take']),
    task_id: id,
    /** The take's id (kind 'take'), else null. */
    recording_id: id.nullable(),
    /** Where in the take the link lands, ms; null: the beginning. */
    at_ms: id.nullable(),
    /** The exercise's title, to show on the link. */
    title: z.string(),
  })
  .meta({ id: 'MessageLink' });
export type MessageLink = z.infer<typeof messageLinkSchema>;

export const messageSchema = z
  .object({
    id,
    student_id: id,
    kind: z.enum(MESSAGE_KINDS),
    body: z.string(),
    /** Who wrote it; null when the account was erased since. */
    author: z.object({ id, name: z.string(), role: z.enum(MESSAGE_AUTHOR_ROLES) }).nullable(),
    link: messageLinkSchema.nullable(),
    /** When a lesson note was pinned; null: not pinned. */
    pinned_at: iso.nullable(),
    created_at: iso,
    /** The caller may delete it (its author, or the student's teacher). */
    can_delete: z.boolean(),
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof messageSchema>;

export const conversationSchema = z
  .object({
    student_id: id,
    student_name: z.string(),
    /** Messages from others the caller has not read. */
    unread: id,
    /** When the oldest of those was written (what is waiting longest comes first). */
    waiting_since: iso.nullable(),
    last_message: z
      .object({ id, body: z.string(), kind: z.enum(MESSAGE_KINDS), author_role: z.enum(MESSAGE_AUTHOR_ROLES).nullable(), created_at: iso })
      .nullable(),
  })
  .meta({ id: 'Conversation' });
export type Conversation = z.infer<typeof conversationSchema>;

export const conversationListResponse = z.object({ data: z.array(conversationSchema) }).meta({ id: 'ConversationList' });
export type ConversationList = z.infer<typeof conversationListResponse>;

export const unreadResponse = z.object({ unread: id }).meta({ id: 'UnreadMessages' });
export type UnreadMessages = z.infer<typeof unreadResponse>;

export const conversationParams = z.object({ studentId: pathId });

export const messagePageQuery = z.strictObject({
  language: languageQuery,
  /** Messages older than this id (the page before); missing: the newest. */
  before: pathId.optional(),
});

export const messagePageResponse = z
  .object({
    student_id: id,
    student_name: z.string(),
    /** Newest first. */
    data: z.array(messageSchema),
    /** The pinned lesson notes, newest pin first (on the first page only; later pages: []). */
    pinned: z.array(messageSchema),
    /** The id to ask `before` for the next (older) page; null: this was the oldest. */
    next_before: id.nullable(),
    /** The id up to which the caller had read before this page (to mark "Neu"). */
    read_up_to: id,
    /** The caller may write lesson notes here (the student's teacher). */
    can_write_notes: z.boolean(),
  })
  .meta({ id: 'MessagePage' });
export type MessagePage = z.infer<typeof messagePageResponse>;

export const messageTexts = {
  empty: { de: 'Die Nachricht ist leer.', tr: 'Mesaj boş.' },
  tooLong: { de: `Eine Nachricht darf höchstens ${MESSAGE_LIMITS.maxChars} Zeichen lang sein.`, tr: `Bir mesaj en fazla ${MESSAGE_LIMITS.maxChars} karakter olabilir.` },
} as const;

export const messageBody = z
  .strictObject({
    body: z
      .string()
      .trim()
      .refine((v) => v.length >= 1, { message: messageTexts.empty.de, params: { msg: messageTexts.empty } })
      .refine((v) => v.length <= MESSAGE_LIMITS.maxChars, { message: messageTexts.tooLong.de, params: { msg: messageTexts.tooLong } })
      .meta({ minLength: 1, maxLength: MESSAGE_LIMITS.maxChars, pattern: '\\S' }),
    kind: z.enum(MESSAGE_KINDS).default('message'),
    /** A task of this student, or a take of one (recording_id), at a moment. */
    link: z
      .strictObject({
        task_id: z.number().int().positive().max(2147483647),
        recording_id: z.number().int().positive().max(2147483647).nullable().default(null),
        at_ms: z.number().int().min(0).max(24 * 3600 * 1000).nullable().default(null),
      })
      .nullable()
      .default(null),
  })
  .meta({ id: 'MessageBody' });
export type MessageBody = z.input<typeof messageBody>;

export const messageReadBody = z.strictObject({ up_to: z.number().int().min(0).max(2147483647) }).meta({ id: 'MessageReadBody' });
export const messagePinBody = z.strictObject({ pinned: z.boolean() }).meta({ id: 'MessagePinBody' });

export const messageRetentionSchema = z
  .object({ retention_days: id })
  .meta({ id: 'MessageRetention' });
export const messageRetentionBody = z
  .strictObject({ retention_days: z.number().int().min(MESSAGE_LIMITS.retentionDays.min).max(MESSAGE_LIMITS.retentionDays.max) })
  .meta({ id: 'MessageRetentionBody' });
