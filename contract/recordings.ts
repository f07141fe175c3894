import { z } from 'zod';
import { courseIdQuery, languageQuery, wholeNumberText, requiredText } from './common';
import { QUICK_REPLY_LIMITS, RECORDING_AUDIO_TYPES, RECORDING_KINDS, RECORDING_LIMITS, RECORDING_MIME_TYPES, VOICE_COMMENT_LIMITS } from './recordings-limits';

// The limits and formats without zod (the web app's screens import them from there).
export * from './recordings-limits';

/**
 * Recordings and feedback (shared/RECORDINGS.md, docs/decisions/recordings.md): a student hands
 * in a take of a task, the teacher comments at moments of it and marks it answered.
 */

/** The German texts of RECORDINGS.md (the web app has them in its locale files too). */
export const RECORDING_TEXTS = {
  tooLarge: { de: 'Die Aufnahme ist zu groß (max. 50 MB).', tr: 'Kayıt çok büyük (en fazla 50 MB).' },
  tooLongAudio: { de: 'Die Aufnahme ist zu lang (max. 20 Minuten).', tr: 'Kayıt çok uzun (en fazla 20 dakika).' },
  tooLongVideo: { de: 'Die Aufnahme ist zu lang (max. 5 Minuten).', tr: 'Kayıt çok uzun (en fazla 5 dakika).' },
  badType: (type: string) => ({
    de: `Dateityp ${type} wird für Aufnahmen nicht unterstützt`,
    tr: `${type} dosya türü kayıtlar için desteklenmiyor`,
  }),
  tooMany: {
    de: 'Zu dieser Aufgabe können höchstens 20 Aufnahmen gesendet werden. Lösche zuerst eine ältere.',
    tr: 'Bu ödev için en fazla 20 kayıt gönderilebilir. Önce eski bir kaydı sil.',
  },
} as const;

/** The refusals of a spoken comment's clip (docs/decisions/spoken-comments-and-quick-replies.md). */
export const VOICE_COMMENT_TEXTS = {
  tooLarge: { de: 'Der gesprochene Kommentar ist zu groß (max. 3 MB).', tr: 'Sesli yorum çok büyük (en fazla 3 MB).' },
  tooLong: { de: 'Der gesprochene Kommentar ist zu lang (max. 60 Sekunden).', tr: 'Sesli yorum çok uzun (en fazla 60 saniye).' },
  notAudio: { de: 'Ein gesprochener Kommentar muss eine Tonaufnahme sein, kein Video.', tr: 'Sesli yorum bir ses kaydı olmalıdır, video olamaz.' },
  badType: (type: string) => ({
    de: `Dateityp ${type} wird für gesprochene Kommentare nicht unterstützt`,
    tr: `${type} dosya türü sesli yorumlar için desteklenmiyor`,
  }),
} as const;

const id = z.number().int();
const iso = z.string().meta({ format: 'date-time' });

/** The clip of a spoken comment: played through GET /api/media/{path} like the take itself. */
export const commentAudioSchema = z
  .object({
    path: z.string(),
    mime_type: z.enum(RECORDING_AUDIO_TYPES),
    size: z.number().int(),
    duration_ms: z.number().int(),
  })
  .meta({ id: 'RecordingCommentAudio' });
export type CommentAudio = z.infer<typeof commentAudioSchema>;

export const recordingCommentSchema = z
  .object({
    id,
    recording_id: id,
    teacher: z.object({ id, name: z.string() }),
    /** The moment in the recording, in ms; null for a general remark. */
    at_ms: z.number().int().nullable(),
    /** Empty only for a spoken comment without words. */
    text: z.string(),
    /** A spoken comment's clip (null for a written one). */
    audio: commentAudioSchema.nullable(),
    created_at: iso,
    updated_at: iso,
  })
  .meta({ id: 'RecordingComment' });
export type RecordingComment = z.infer<typeof recordingCommentSchema>;

export const recordingSchema = z
  .object({
    id,
    submission_id: id,
    student: z.object({ id, name: z.string() }),
    /** The task's title, kept when the exercise is deleted. */
    exercise_title: z.string(),
    kind: z.enum(RECORDING_KINDS),
    mime_type: z.enum(RECORDING_MIME_TYPES),
    size: z.number().int(),
    duration_ms: z.number().int(),
    /** Where the file lives: GET /api/media/{url-encoded path} gives a signed link. */
    path: z.string(),
    message: z.string().nullable(),
    /** The practice session this take recorded ('Diesen Durchgang aufnehmen'), null for one recorded outside a session. */
    practice_session_id: id.nullable(),
    created_at: iso,
    answered_at: iso.nullable(),
    /** When the student last opened its feedback. */
    seen_at: iso.nullable(),
    /** Answered, or commented, after the student's last look (the student's "Neues Feedback"). */
    new_feedback: z.boolean(),
    /** Ordered by at_ms, general remarks (null) first, then by creation. */
    comments: z.array(recordingCommentSchema),
  })
  .meta({ id: 'Recording' });
export type Recording = z.infer<typeof recordingSchema>;

export const recordingListResponse = z.object({ data: z.array(recordingSchema) }).meta({ id: 'RecordingList' });
export type RecordingListResponse = z.infer<typeof recordingListResponse>;

/**
 * The multipart form of POST /api/submissions/{id}/recordings, as documented (the server reads
 * the parts itself): one file part `file`, optional `duration_ms` (the recorder's length, used
 * when the file does not tell its own) and `message`.
 */
export const recordingUploadDoc = z
  .object({
    file: z.string().meta({ format: 'binary' }).describe(`One recording (${RECORDING_MIME_TYPES.join(', ')}; at most ${RECORDING_LIMITS.maxBytes} bytes)`),
    duration_ms: z.number().int().min(0).max(24 * 3600 * 1000).optional().describe("The recorder's length in ms; used only when the file does not tell its own"),
    message: z.string().max(RECORDING_LIMITS.message).optional(),
    practice_session_id: z
      .number()
      .int()
      .min(1)
      .max(2147483647)
      .optional()
      .describe('The practice session this take recorded: one of the same student and task (else 422)'),
  })
  .meta({ id: 'RecordingForm' });

/** The OpenAPI `encoding` of that form. */
export const RECORDING_FORM_ENCODING = { file: { contentType: RECORDING_MIME_TYPES.join(', ') } } as const;

/** The text fields of the form after the server gathered them. */
export const recordingFields = z.strictObject({
  duration_ms: z.preprocess(
    (v) => (v === '' ? undefined : v),
    wholeNumberText(z.number().int().min(0).max(24 * 3600 * 1000)).optional(),
  ),
  message: z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? null : v.trim()) : v),
    z.string().max(RECORDING_LIMITS.message).nullable().optional(),
  ),
  practice_session_id: z.preprocess(
    (v) => (v === '' ? undefined : v),
    wholeNumberText(z.number().int().min(1).max(2147483647)).optional(),
  ),
});

const commentText = requiredText(RECORDING_LIMITS.commentMax, RECORDING_LIMITS.commentMin);
const atMs = z.number().int().min(0).max(24 * 3600 * 1000).nullable();

export const createCommentBody = z.strictObject({ at_ms: atMs.optional().default(null), text: commentText }).meta({ id: 'RecordingCommentCreate' });
export type CreateCommentBody = z.infer<typeof createCommentBody>;

export const updateCommentBody = z
  .strictObject({ at_ms: atMs.optional(), text: commentText.optional() })
  .refine((b) => b.at_ms !== undefined || b.text !== undefined, { message: 'at_ms or text' })
  // the refine above, in the document: no other properties are allowed, so one of the two must be there
  .meta({ id: 'RecordingCommentUpdate', minProperties: 1, description: 'At least one of at_ms and text.' });
export type UpdateCommentBody = z.infer<typeof updateCommentBody>;

/**
 * The multipart form of POST /api/recordings/{id}/voice-comments: one audio clip `file` (at most
 * VOICE_COMMENT_LIMITS), optional `duration_ms` (the recorder's length), `at_ms` (empty: a general
 * remark) and `text` (words to go with it).
 */
export const voiceCommentUploadDoc = z
  .object({
    file: z.string().meta({ format: 'binary' }).describe(`One audio clip (${RECORDING_AUDIO_TYPES.join(', ')}; at most ${VOICE_COMMENT_LIMITS.maxBytes} bytes and ${VOICE_COMMENT_LIMITS.maxMs / 1000} s)`),
    duration_ms: z.number().int().min(0).max(24 * 3600 * 1000).optional().describe("The recorder's length in ms; used only when the file does not tell its own"),
    at_ms: z.number().int().min(0).max(24 * 3600 * 1000).optional().describe('The moment of the take; absent or empty for a general remark'),
    text: z.string().max(RECORDING_LIMITS.commentMax).optional(),
  })
  .meta({ id: 'VoiceCommentForm' });

/** The OpenAPI `encoding` of that form. */
export const VOICE_COMMENT_FORM_ENCODING = { file: { contentType: RECORDING_AUDIO_TYPES.join(', ') } } as const;

/** The text fields of that form after the server gathered them. */
export const voiceCommentFields = z.strictObject({
  duration_ms: z.preprocess((v) => (v === '' ? undefined : v), wholeNumberText(z.number().int().min(0).max(24 * 3600 * 1000)).optional()),
  at_ms: z.preprocess((v) => (v === '' ? undefined : v), wholeNumberText(z.number().int().min(0).max(24 * 3600 * 1000)).optional()),
  text: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), z.string().max(RECORDING_LIMITS.commentMax).optional()),
});

/** Where the "Neues Feedback" link lands: the take, and its newest comment (and that comment's moment). */
export const feedbackTargetSchema = z
  .object({
    recording_id: id,
    submission_id: id,
    comment_id: id.nullable(),
    at_ms: z.number().int().nullable(),
  })
  .meta({ id: 'FeedbackTarget' });
export type FeedbackTarget = z.infer<typeof feedbackTargetSchema>;

/** GET /api/recordings/new-feedback/count: how many, and where the newest lands. */
export const newFeedbackResponse = z
  .object({ count: z.number().int(), latest: feedbackTargetSchema.nullable() })
  .meta({ id: 'NewFeedback' });
export type NewFeedbackResponse = z.infer<typeof newFeedbackResponse>;

/** A teacher's saved reply text ("Schöner Ton! Achte auf …"), only theirs. */
export const quickReplySchema = z
  .object({ id, text: z.string(), created_at: iso })
  .meta({ id: 'QuickReply' });
export type QuickReply = z.infer<typeof quickReplySchema>;
export const quickReplyListResponse = z.object({ data: z.array(quickReplySchema) }).meta({ id: 'QuickReplyList' });
export type QuickReplyListResponse = z.infer<typeof quickReplyListResponse>;
export const quickReplyBody = z
  .strictObject({ text: requiredText(QUICK_REPLY_LIMITS.maxChars) })
  .meta({ id: 'QuickReplyBody' });
export type QuickReplyBody = z.infer<typeof quickReplyBody>;

/** A recording waiting in the teacher's inbox ("Zu prüfen"). */
export const inboxItemSchema = z
  .object({
    id,
    submission_id: id,
    student: z.object({ id, name: z.string() }),
    exercise_title: z.string(),
    course_id: id.nullable(),
    due_date: z.string(),
    kind: z.enum(RECORDING_KINDS),
    mime_type: z.enum(RECORDING_MIME_TYPES),
    duration_ms: z.number().int(),
    size: z.number().int(),
    path: z.string(),
    message: z.string().nullable(),
    created_at: iso,
    comments_count: z.number().int(),
  })
  .meta({ id: 'InboxItem' });
export type InboxItem = z.infer<typeof inboxItemSchema>;

const blank = (v: unknown) => (v === '' ? undefined : v);

/** GET /api/recordings/inbox: oldest first, one page (`page` from 1, `per_page` up to 100). */
export const inboxQuery = z.strictObject({
  language: languageQuery,
  course_id: courseIdQuery,
  page: z.preprocess(blank, wholeNumberText(z.number().int().min(1).max(100_000)).optional()),
  per_page: z.preprocess(blank, wholeNumberText(z.number().int().min(1).max(RECORDING_LIMITS.inboxPerPageMax)).optional()),
});
export type InboxQuery = z.infer<typeof inboxQuery>;

export const inboxResponse = z
  .object({
    data: z.array(inboxItemSchema),
    pagination: z.object({ current_page: z.number().int(), per_page: z.number().int(), has_more: z.boolean() }),
  })
  .meta({ id: 'Inbox' });
export type InboxResponse = z.infer<typeof inboxResponse>;

/** GET /api/recordings/inbox/count and GET /api/recordings/new-feedback/count. */
export const countQuery = z.strictObject({ language: languageQuery, course_id: courseIdQuery });
export const countResponse = z.object({ count: z.number().int() }).meta({ id: 'RecordingCount' });
export type CountResponse = z.infer<typeof countResponse>;

/** Where a recording's file lives: recordings/{submissionId}/{32 hex}.{ext} */
export const STORED_RECORDING_PATH = /^recordings\/[1-9]\d{0,9}\/[a-f0-9]{32}\.(?:webm|ogg|m4a|mp4|mp3|wav|mov)$/;

/** Where a spoken comment's clip lives: recordings/{submissionId}/c{32 hex}.{ext} (with the take, so it goes with the task). */
export const STORED_COMMENT_AUDIO_PATH = /^recordings\/[1-9]\d{0,9}\/c[a-f0-9]{32}\.(?:webm|ogg|m4a|mp3|wav)$/;
