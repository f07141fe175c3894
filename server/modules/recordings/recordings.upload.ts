import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { RECORDING_LIMITS, RECORDING_TEXTS, recordingFields, type RecordingKind, type RecordingMimeType } from '@contract/recordings';
import { AppError, invalid, messages, type Msg } from '../../errors';
import { MediaRefused } from '../../lib/media-guard';
import type { Storage } from '../../lib/storage';
import { asUploadError, dropRest, skipFile, streamToTemp } from '../../lib/upload';
import { probeRecording } from './recordings.probe';

/**
 * The one upload pipeline of this module: a take (here) and a spoken comment
 * (voice-comment.upload.ts) stream, probe and measure their file the same way; a MediaFormSpec
 * says only what differs (limits, texts, fields, audio only). docs/decisions/recordings.md,
 * docs/decisions/spoken-comments-and-quick-replies.md.
 */

/** What differs between the module's uploads. `F` are the form's text fields after zod; each has `duration_ms`. */
export type MediaFormSpec<F extends { duration_ms?: number | undefined }> = {
  /** For the log: 'recording', 'voice comment'. */
  what: string;
  /** The file's byte limit, enforced while streaming (413 with `tooLarge`). */
  maxBytes: number;
  /** The form's text fields (a strict zod object: its keys are the only field names allowed) and each field's byte limit. */
  fields: z.ZodType<F> & { shape: Record<string, unknown> };
  fieldBytes: number;
  /** Only audio (a video is refused with `texts.notAudio`). */
  audioOnly: boolean;
  /** The longest length of a kind, and its message. */
  maxMs: (kind: RecordingKind) => number;
  texts: {
    tooLarge: Msg;
    tooLong: (kind: RecordingKind) => Msg;
    badType: (type: string) => Msg;
    notAudio?: Msg;
    missingFile: Msg;
    oneFile: Msg;
    empty: Msg;
    needsDuration: Msg;
  };
};

/** A checked file in the temporary folder, waiting for its row, with the form's text fields. */
export type StagedMedia<F> = {
  tempFile: string;
  size: number;
  mimeType: RecordingMimeType;
  ext: string;
  kind: RecordingKind;
  durationMs: number;
  /** The name as sent, for display (cleaned by the caller). */
  filename: string | undefined;
  fields: F;
};

/** Every form of the module: one file, three text fields at most. */
const FORM = { fields: 3, fieldNameBytes: 32, files: 1 } as const;

const text = {
  unknownType: { de: 'unbekannt', tr: 'bilinmeyen' },
  tooLong: { de: 'Der Wert ist zu lang.', tr: 'Değer çok uzun.' },
} satisfies Record<string, Msg>;

/** A 422 about the file whose message is the field's message (the web app shows either). */
const fileError = (msg: Msg, status = 422) => new AppError(status, msg, { file: [msg] });

/**
 * The length to store: the file's own where its format tells it and its size can carry it;
 * otherwise the recorder's, kept within what the size allows (size / max bytes per second …
 * size / min bytes per second). A length the file declares is a claim like the recorder's: one
 * longer than size / 1,000 B/s (a 62-byte WebM saying 19:59) is not believed, and the length is
 * decided as for a file that tells none (docs/decisions/media-parser-guard.md).
 */
export function decideDuration(o: { fileMs: number | null; claimedMs: number | undefined; size: number; kind: RecordingKind; mime: RecordingMimeType }): number | null {
  const upper = Math.ceil((o.size / RECORDING_LIMITS.minBytesPerSecond) * 1000);
  if (o.fileMs !== null && o.fileMs > 0 && o.fileMs <= upper) return o.fileMs;
  if (o.claimedMs === undefined) return null;
  const maxBps = o.kind === 'video' ? RECORDING_LIMITS.videoMaxBytesPerSecond : o.mime === 'audio/wav' ? RECORDING_LIMITS.wavMaxBytesPerSecond : RECORDING_LIMITS.audioMaxBytesPerSecond;
  const lower = Math.floor((o.size / maxBps) * 1000);
  return Math.min(Math.max(o.claimedMs, lower), upper);
}

/**
 * Reads a form of one media file and a few text fields: the file streamed to a temporary file
 * (its limit enforced while streaming), its type and length read from its bytes through the media
 * guard (recordings.probe.ts), the spec's limits checked. On any refusal or a broken body the
 * temporary file is gone before the error leaves.
 */
export async function readMediaForm<F extends { duration_ms?: number | undefined }>(req: FastifyRequest, storage: Storage, spec: MediaFormSpec<F>): Promise<StagedMedia<F>> {
  const names = new Set(Object.keys(spec.fields.shape));
  const fields: Record<string, string> = {};
  let staged: { tempFile: string; size: number; filename: string | undefined; declared: string } | null = null;
  let ok = false;
  try {
    try {
      const parts = req.parts({
        limits: {
          fileSize: spec.maxBytes,
          files: FORM.files,
          fields: FORM.fields,
          fieldSize: spec.fieldBytes,
          fieldNameSize: FORM.fieldNameBytes,
          parts: FORM.fields + FORM.files,
          headerPairs: 20,
        },
      });
      for await (const part of parts) {
        if (part.type === 'field') {
          if (part.fieldnameTruncated || !names.has(part.fieldname) || part.fieldname in fields) {
            dropRest(req);
            throw invalid({ [part.fieldname.slice(0, 64)]: messages.unknownField });
          }
          if (part.valueTruncated) {
            dropRest(req);
            throw invalid({ [part.fieldname]: text.tooLong });
          }
          fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
          continue;
        }
        if (part.fieldname !== 'file' || staged) {
          await skipFile(part.file);
          dropRest(req);
          throw invalid({ [part.fieldname === 'file' ? 'file' : part.fieldname.slice(0, 64)]: part.fieldname === 'file' ? spec.texts.oneFile : messages.unknownField });
        }
        const streamed = await streamToTemp(part.file, storage, spec.maxBytes);
        if (streamed.tooLarge) {
          dropRest(req);
          throw fileError(spec.texts.tooLarge, 413);
        }
        staged = { tempFile: streamed.tempFile, size: streamed.size, filename: part.filename, declared: part.mimetype };
      }
    } catch (e) {
      throw asUploadError(e, (err) => (err.code === 'FST_FILES_LIMIT' ? invalid({ file: spec.texts.oneFile }) : undefined));
    }
    const parsed = spec.fields.safeParse(fields);
    if (!parsed.success) {
      const errors: Record<string, Msg> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'body')] = messages.validation;
      throw invalid(errors);
    }
    if (!staged) throw fileError(spec.texts.missingFile);
    if (staged.size === 0) throw fileError(spec.texts.empty);
    const probe = await probeRecording(staged.tempFile).catch((e: unknown) => {
      if (!(e instanceof MediaRefused)) throw e;
      req.log.warn({ code: e.code, reason: e.reason, size: staged?.size }, `${spec.what} refused by the media guard`);
      throw fileError(e.msg);
    });
    if (!probe.ok) {
      // the type read from the bytes, else the declared one (only named, never believed)
      const type = probe.detected ?? (/^[a-z]+\/[a-z0-9.+-]{1,60}$/i.test(staged.declared) ? staged.declared : null);
      throw fileError(type ? spec.texts.badType(type) : { de: spec.texts.badType(text.unknownType.de).de, tr: spec.texts.badType(text.unknownType.tr).tr });
    }
    if (spec.audioOnly && probe.kind !== 'audio') throw fileError(spec.texts.notAudio ?? spec.texts.badType(probe.mime));
    const durationMs = decideDuration({ fileMs: probe.durationMs, claimedMs: parsed.data.duration_ms, size: staged.size, kind: probe.kind, mime: probe.mime });
    if (durationMs === null) throw invalid({ duration_ms: spec.texts.needsDuration });
    if (durationMs > spec.maxMs(probe.kind)) throw fileError(spec.texts.tooLong(probe.kind));
    ok = true;
    return { tempFile: staged.tempFile, size: staged.size, mimeType: probe.mime, ext: probe.ext, kind: probe.kind, durationMs, filename: staged.filename, fields: parsed.data };
  } finally {
    if (!ok && staged) await rm(staged.tempFile, { force: true });
  }
}

// --- A take -------------------------------------------------------------------------------------

/** A checked take in the temporary folder, waiting for its row. */
export type StagedRecording = Omit<StagedMedia<unknown>, 'fields'> & {
  message: string | null;
  /** The practice session the take recorded ('Diesen Durchgang aufnehmen'); the service checks whose it is. */
  practiceSessionId: number | null;
};

/** The form's text fields: `duration_ms`, `message` (500 characters, up to 4 bytes each, and room) and `practice_session_id`. */
export const RECORDING_FORM_LIMITS = { fields: FORM.fields, fieldBytes: 4096, fieldNameBytes: FORM.fieldNameBytes, files: FORM.files } as const;

const TAKE: MediaFormSpec<z.infer<typeof recordingFields>> = {
  what: 'recording',
  maxBytes: RECORDING_LIMITS.maxBytes,
  fields: recordingFields,
  fieldBytes: RECORDING_FORM_LIMITS.fieldBytes,
  audioOnly: false,
  maxMs: (kind) => (kind === 'video' ? RECORDING_LIMITS.videoMaxMs : RECORDING_LIMITS.audioMaxMs),
  texts: {
    tooLarge: RECORDING_TEXTS.tooLarge,
    tooLong: (kind) => (kind === 'video' ? RECORDING_TEXTS.tooLongVideo : RECORDING_TEXTS.tooLongAudio),
    badType: RECORDING_TEXTS.badType,
    missingFile: { de: 'Bitte wähle eine Aufnahme aus.', tr: 'Lütfen bir kayıt seç.' },
    oneFile: { de: 'Bitte sende eine Aufnahme auf einmal.', tr: 'Lütfen tek seferde bir kayıt gönder.' },
    empty: { de: 'Die Aufnahme ist leer.', tr: 'Kayıt boş.' },
    needsDuration: {
      de: 'Die Länge der Aufnahme ist nicht bekannt. Bitte sende sie mit (duration_ms).',
      tr: 'Kaydın süresi bilinmiyor. Lütfen süreyi de gönder (duration_ms).',
    },
  },
};

/** Reads a student's take: at most 50 MiB, audio 20 minutes, video 5 (RECORDINGS.md). */
export async function readRecordingForm(req: FastifyRequest, storage: Storage): Promise<StagedRecording> {
  const { fields, ...file } = await readMediaForm(req, storage, TAKE);
  return { ...file, message: fields.message ?? null, practiceSessionId: fields.practice_session_id ?? null };
}
