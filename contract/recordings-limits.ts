/**
 * The limits, types and formats of recordings (shared/RECORDINGS.md) without any schema: the web
 * app's screens import them from here, so a screen that shows a recording does not load zod and
 * every schema of the contract (contract/recordings.ts re-exports them for the server).
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

/**
 * A spoken comment: a short audio clip the teacher records at a moment of a take
 * (docs/decisions/spoken-comments-and-quick-replies.md). Audio only; its text is optional.
 */
export const VOICE_COMMENT_LIMITS = {
  /** 60 seconds. */
  maxMs: 60 * 1000,
  /** 3 MiB: a minute of Opus at 128 kbit/s is under 1 MB; room for WAV-free formats at higher rates. */
  maxBytes: 3 * 1024 * 1024,
} as const;

/** The teacher's saved quick replies (docs/decisions/spoken-comments-and-quick-replies.md). */
export const QUICK_REPLY_LIMITS = {
  /** Replies per teacher. */
  perTeacher: 50,
  /** Characters per reply. */
  maxChars: 500,
} as const;

/** "Kommentar bei {mm:ss}": a moment in ms as m:ss (h:mm:ss from an hour on). */
export function formatMoment(ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
