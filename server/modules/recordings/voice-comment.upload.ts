import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { VOICE_COMMENT_LIMITS, VOICE_COMMENT_TEXTS, voiceCommentFields, type RecordingMimeType } from '@contract/recordings';
import { AppError, invalid, messages, type Msg } from '../../errors';
import { MediaRefused } from '../../lib/media-guard';
import type { Storage } from '../../lib/storage';
import { asUploadError, dropRest, skipFile, streamToTemp } from '../../lib/upload';
import { probeRecording } from './recordings.probe';
import { decideDuration } from './recordings.upload';

/** A checked clip of a spoken comment in the temporary folder, waiting for its row. */
export type StagedVoiceComment = {
  tempFile: string;
  size: number;
  mimeType: RecordingMimeType;
  ext: string;
  durationMs: number;
  atMs: number | null;
  text: string;
};

/** The form's text fields: duration_ms, at_ms and text (2,000 characters of up to 4 bytes, and room). */
export const VOICE_COMMENT_FORM_LIMITS = { fields: 3, fieldBytes: 8192, fieldNameBytes: 32, files: 1 } as const;
const FIELDS = new Set(['duration_ms', 'at_ms', 'text']);

const text = {
  missingFile: { de: 'Bitte nehmen Sie einen gesprochenen Kommentar auf.', tr: 'Lütfen bir sesli yorum kaydedin.' },
  oneFile: { de: 'Bitte senden Sie einen gesprochenen Kommentar auf einmal.', tr: 'Lütfen tek seferde bir sesli yorum gönderin.' },
  empty: { de: 'Der gesprochene Kommentar ist leer.', tr: 'Sesli yorum boş.' },
  unknownType: { de: 'unbekannt', tr: 'bilinmeyen' },
  needsDuration: {
    de: 'Die Länge des gesprochenen Kommentars ist nicht bekannt. Bitte senden Sie sie mit (duration_ms).',
    tr: 'Sesli yorumun süresi bilinmiyor. Lütfen süreyi de gönderin (duration_ms).',
  },
  tooLong: { de: 'Der Wert ist zu lang.', tr: 'Değer çok uzun.' },
} satisfies Record<string, Msg>;

const fileError = (msg: Msg, status = 422) => new AppError(status, msg, { file: [msg] });

/**
 * Reads the form of a spoken comment: the clip streamed to a temporary file (3 MiB enforced while
 * streaming), its type and length read from its bytes through the media guard exactly as a take's
 * (recordings.probe.ts), audio only and at most 60 s. On any refusal or a broken body the
 * temporary file is gone before the error leaves.
 */
export async function readVoiceCommentForm(req: FastifyRequest, storage: Storage): Promise<StagedVoiceComment> {
  const fields: Record<string, string> = {};
  let staged: { tempFile: string; size: number; declared: string } | null = null;
  let ok = false;
  try {
    try {
      const parts = req.parts({
        limits: {
          fileSize: VOICE_COMMENT_LIMITS.maxBytes,
          files: VOICE_COMMENT_FORM_LIMITS.files,
          fields: VOICE_COMMENT_FORM_LIMITS.fields,
          fieldSize: VOICE_COMMENT_FORM_LIMITS.fieldBytes,
          fieldNameSize: VOICE_COMMENT_FORM_LIMITS.fieldNameBytes,
          parts: VOICE_COMMENT_FORM_LIMITS.fields + VOICE_COMMENT_FORM_LIMITS.files,
          headerPairs: 20,
        },
      });
      for await (const part of parts) {
        if (part.type === 'field') {
          if (part.fieldnameTruncated || !FIELDS.has(part.fieldname) || part.fieldname in fields) {
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
        const streamed = await streamToTemp(part.file, storage, VOICE_COMMENT_LIMITS.maxBytes);
        if (streamed.tooLarge) {
          dropRest(req);
          throw fileError(VOICE_COMMENT_TEXTS.tooLarge, 413);
        }
        staged = { tempFile: streamed.tempFile, size: streamed.size, declared: part.mimetype };
      }
    } catch (e) {
      throw asUploadError(e, (err) => (err.code === 'FST_FILES_LIMIT' ? invalid({ file: text.oneFile }) : undefined));
    }
    const parsed = voiceCommentFields.safeParse(fields);
    if (!parsed.success) {
      const errors: Record<string, Msg> = {};
      for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? 'body')] = messages.validation;
      throw invalid(errors);
    }
    if (!staged) throw fileError(text.missingFile);
    if (staged.size === 0) throw fileError(text.empty);
    const probe = await probeRecording(staged.tempFile).catch((e: unknown) => {
      if (!(e instanceof MediaRefused)) throw e;
      req.log.warn({ code: e.code, reason: e.reason, size: staged?.size }, 'voice comment refused by the media guard');
      throw fileError(e.msg);
    });
    if (!probe.ok) {
      const type = probe.detected ?? (/^[a-z]+\/[a-z0-9.+-]{1,60}$/i.test(staged.declared) ? staged.declared : null);
      throw fileError(
        type ? VOICE_COMMENT_TEXTS.badType(type) : { de: VOICE_COMMENT_TEXTS.badType(text.unknownType.de).de, tr: VOICE_COMMENT_TEXTS.badType(text.unknownType.tr).tr },
      );
    }
    if (probe.kind !== 'audio') throw fileError(VOICE_COMMENT_TEXTS.notAudio);
    const durationMs = decideDuration({ fileMs: probe.durationMs, claimedMs: parsed.data.duration_ms, size: staged.size, kind: 'audio', mime: probe.mime });
    if (durationMs === null) throw invalid({ duration_ms: text.needsDuration });
    if (durationMs > VOICE_COMMENT_LIMITS.maxMs) throw fileError(VOICE_COMMENT_TEXTS.tooLong);
    ok = true;
    return {
      tempFile: staged.tempFile,
      size: staged.size,
      mimeType: probe.mime,
      ext: probe.ext,
      durationMs,
      atMs: parsed.data.at_ms ?? null,
      text: parsed.data.text ?? '',
    };
  } finally {
    if (!ok && staged) await rm(staged.tempFile, { force: true });
  }
}
