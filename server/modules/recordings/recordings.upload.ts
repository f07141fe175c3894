import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { RECORDING_LIMITS, RECORDING_TEXTS, recordingFields, type RecordingKind, type RecordingMimeType } from '@contract/recordings';
import { AppError, invalid, messages, type Msg } from '../../errors';
import { MediaRefused } from '../../lib/media-guard';
import type { Storage } from '../../lib/storage';
import { asUploadError, dropRest, skipFile, streamToTemp } from '../../lib/upload';
import { probeRecording } from './recordings.probe';

/** A checked recording in the temporary folder, waiting for its row. */
export type StagedRecording = {
  tempFile: string;
  size: number;
  mimeType: RecordingMimeType;
  ext: string;
  kind: RecordingKind;
  durationMs: number;
  message: string | null;
  /** The practice session the take recorded ('Diesen Durchgang aufnehmen'); the service checks whose it is. */
  practiceSessionId: number | null;
  /** The name as sent, for display (cleaned by the caller). */
  filename: string | undefined;
};

/** The form's text fields: `duration_ms`, `message` (500 characters, up to 4 bytes each, and room) and `practice_session_id`. */
export const RECORDING_FORM_LIMITS = { fields: 3, fieldBytes: 4096, fieldNameBytes: 32, files: 1 } as const;

const text = {
  missingFile: { de: 'Bitte wähle eine Aufnahme aus.', tr: 'Lütfen bir kayıt seç.' },
  oneFile: { de: 'Bitte sende eine Aufnahme auf einmal.', tr: 'Lütfen tek seferde bir kayıt gönder.' },
  empty: { de: 'Die Aufnahme ist leer.', tr: 'Kayıt boş.' },
  unknownType: { de: 'unbekannt', tr: 'bilinmeyen' },
  needsDuration: {
    de: 'Die Länge der Aufnahme ist nicht bekannt. Bitte sende sie mit (duration_ms).',
    tr: 'Kaydın süresi bilinmiyor. Lütfen süreyi de gönder (duration_ms).',
  },
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
 * Reads the recording form: the file streamed to a temporary file (50 MiB enforced while
 * streaming), its type and length read from its bytes, the limits of RECORDINGS.md checked. On
 * any refusal or a broken body the temporary file is gone before the error leaves.
 */
export async function readRecordingForm(req: FastifyRequest, storage: Storage): Promise<StagedRecording> {
  const fields: Record<string, string> = {};
  let staged: { tempFile: string; size: number; filename: string | undefined; declared: string } | null = null;
  let ok = false;
  try {
    try {
      for await (const part of req.parts()) {
        if (part.type === 'field') {
          if (part.fieldnameTruncated || !(part.fieldname === 'duration_ms' || part.fieldname === 'message' || part.fieldname === 'practice_session_id') || part.fieldname in fields) {
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
          throw invalid({ [part.fieldname === 'file' ? 'file' : part.fieldname.slice(0, 64)]: part.fieldname === 'file' ? text.oneFile : messages.unknownField });
        }
        const streamed = await streamToTemp(part.file, storage, RECORDING_LIMITS.maxBytes);
        if (streamed.tooLarge) {
          dropRest(req);
          throw fileError(RECORDING_TEXTS.tooLarge, 413);
        }
        staged = { tempFile: streamed.tempFile, size: streamed.size, filename: part.filename, declared: part.mimetype };
      }
    } catch (e) {
      throw asUploadError(e, (err) => (err.code === 'FST_FILES_LIMIT' ? invalid({ file: text.oneFile }) : undefined));
    }
    const parsed = recordingFields.safeParse(fields);
    if (!parsed.success) {
      const errors: Record<string, Msg> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'body')] = messages.validation;
      throw invalid(errors);
    }
    if (!staged) throw fileError(text.missingFile);
    if (staged.size === 0) throw fileError(text.empty);
    const probe = await probeRecording(staged.tempFile).catch((e: unknown) => {
      if (!(e instanceof MediaRefused)) throw e;
      req.log.warn({ code: e.code, reason: e.reason, size: staged?.size }, 'recording refused by the media guard');
      throw fileError(e.msg);
    });
    if (!probe.ok) throw fileError(badTypeMessage(probe.detected ?? (/^[a-z]+\/[a-z0-9.+-]{1,60}$/i.test(staged.declared) ? staged.declared : null)));
    const durationMs = decideDuration({ fileMs: probe.durationMs, claimedMs: parsed.data.duration_ms, size: staged.size, kind: probe.kind, mime: probe.mime });
    if (durationMs === null) throw invalid({ duration_ms: text.needsDuration });
    const max = probe.kind === 'video' ? RECORDING_LIMITS.videoMaxMs : RECORDING_LIMITS.audioMaxMs;
    if (durationMs > max) throw fileError(probe.kind === 'video' ? RECORDING_TEXTS.tooLongVideo : RECORDING_TEXTS.tooLongAudio);
    ok = true;
    return {
      tempFile: staged.tempFile,
      size: staged.size,
      mimeType: probe.mime,
      ext: probe.ext,
      kind: probe.kind,
      durationMs,
      message: parsed.data.message ?? null,
      practiceSessionId: parsed.data.practice_session_id ?? null,
      filename: staged.filename,
    };
  } finally {
    if (!ok && staged) await rm(staged.tempFile, { force: true });
  }
}

/** 'Dateityp {type} wird für Aufnahmen nicht unterstützt': the type read from the bytes, else the declared one (only named, never believed). */
function badTypeMessage(type: string | null): Msg {
  return type ? RECORDING_TEXTS.badType(type) : { de: RECORDING_TEXTS.badType(text.unknownType.de).de, tr: RECORDING_TEXTS.badType(text.unknownType.tr).tr };
}
