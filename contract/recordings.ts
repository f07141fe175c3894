import { z } from 'zod';
import { courseIdQuery, languageQuery, wholeNumberText } from './common';

/**
 * Recordings and feedback (shared/RECORDINGS.md, docs/decisions/recordings.md): a student hands
 * in a take of a task, the teacher comments at moments of it and marks it answered.
 */

/** Audio types read from the bytes (RECORDINGS.md). */
export const RECORDING_AUDIO_TYPES = ['audio/webm', 'audio/ogg', 'audio/mp4', 'audio/mpeg', 'audio/wav'] as const;
/** Video types read from the bytes. */
export const RECORDING_VIDEO_TYPES = ['video/webm', 'video/mp4', 'video/quicktime'] as const;
export const RECORDING_MIME_TYPES = [...RECORDING_AUDIO_TYPES, ...RECORDING_VIDEO_TYPES] as const;
export type RecordingMimeType = (typeof RECORDING_MIME_TYPES)[number];
export const RECORDING_KINDS = ['audio', 'video'] as const;
export type RecordingKind = (typeof RECORDING_KINDS)[number];

export const RECORDING_LIMITS = {
  /** 50 MiB per recording, enforced while streaming. */
  maxBytes: 52_428_800,
  /** Audio: at most 20 minutes. */
  audioMaxMs: 20 * 60 * 1000,
  /** Video: at most 5 minutes. */
  videoMaxMs: 5 * 60 * 1000,
  /** Recordings per task (and so per student). */
  perTask: 20,
  /** A comment's text. */
  commentMin: 1,
  commentMax: 2000,
  /** The student's message with a recording. */
  message: 500,
  /**
   * A length the file does not tell (WebM/MP4 without one) comes from the recorder, but is never
   * believed beyond what the size allows: between size / maxBytesPerSecond and size / minBytesPerSecond.
   * 1,000 B/s is 8 kbit/s (below the lowest Opus speech setting); 80,000 B/s is 640 kbit/s for audio,
   * 2,500,000 B/s is 20 Mbit/s for video.
   */
  minBytesPerSecond: 1000,
  audioMaxBytesPerSecond: 80_000,
  videoMaxBytesPerSecond: 2_500_000,
  /** Uncompressed PCM (WAV) up to 192 kHz, 32 bit, stereo. */
  wavMaxBytesPerSecond: 1_536_000,
  /** Inbox pages. */
  inboxPerPage: 20,
  inboxPerPageMax: 100,
} as const;

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
    de: 'Zu dieser Aufgabe können höchstens 20 Aufnahmen gesendet werden. Bitte löschen Sie zuerst eine ältere.',
    tr: 'Bu ödev için en fazla 20 kayıt gönderilebilir. Lütfen önce eski bir kaydı silin.',
  },
} as const;

const id = z.number().int();
const iso = z.string().meta({ format: 'date-time' });

export const recordingCommentSchema = z
  .object({
    id,
    recording_id: id,
    teacher: z.object({ id, name: z.string() }),
    /** The moment in the recording, in ms; null for a general remark. */
    at_ms: z.number().int().nullable(),
    text: z.string(),
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
});

const commentText = z.string().trim().min(RECORDING_LIMITS.commentMin).max(RECORDING_LIMITS.commentMax);
const atMs = z.number().int().min(0).max(24 * 3600 * 1000).nullable();

export const createCommentBody = z.strictObject({ at_ms: atMs.optional().default(null), text: commentText }).meta({ id: 'RecordingCommentCreate' });
export type CreateCommentBody = z.infer<typeof createCommentBody>;

export const updateCommentBody = z
  .strictObject({ at_ms: atMs.optional(), text: commentText.optional() })
  .refine((b) => b.at_ms !== undefined || b.text !== undefined, { message: 'at_ms or text' })
  .meta({ id: 'RecordingCommentUpdate' });
export type UpdateCommentBody = z.infer<typeof updateCommentBody>;

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

/** "Kommentar bei {mm:ss}": a moment in ms as m:ss (h:mm:ss from an hour on). */
export function formatMoment(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
