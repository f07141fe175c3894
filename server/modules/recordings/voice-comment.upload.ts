import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { VOICE_COMMENT_LIMITS, VOICE_COMMENT_TEXTS, voiceCommentFields } from '@contract/recordings';
import type { Storage } from '../../lib/storage';
import { readMediaForm, type MediaFormSpec, type StagedMedia } from './recordings.upload';

/** A checked clip of a spoken comment in the temporary folder, waiting for its row. */
export type StagedVoiceComment = Omit<StagedMedia<unknown>, 'fields' | 'kind' | 'filename'> & {
  atMs: number | null;
  text: string;
};

/**
 * What a spoken comment's upload does differently from a take's (the pipeline is
 * recordings.upload.ts): 3 MiB, audio only, 60 s, the teacher's texts ("Sie"), the fields
 * duration_ms, at_ms and text (2,000 characters of up to 4 bytes, and room).
 */
const VOICE_COMMENT: MediaFormSpec<z.infer<typeof voiceCommentFields>> = {
  what: 'voice comment',
  maxBytes: VOICE_COMMENT_LIMITS.maxBytes,
  fields: voiceCommentFields,
  fieldBytes: 8192,
  audioOnly: true,
  maxMs: () => VOICE_COMMENT_LIMITS.maxMs,
  texts: {
    tooLarge: VOICE_COMMENT_TEXTS.tooLarge,
    tooLong: () => VOICE_COMMENT_TEXTS.tooLong,
    badType: VOICE_COMMENT_TEXTS.badType,
    notAudio: VOICE_COMMENT_TEXTS.notAudio,
    missingFile: { de: 'Bitte nehmen Sie einen gesprochenen Kommentar auf.', tr: 'Lütfen bir sesli yorum kaydedin.' },
    oneFile: { de: 'Bitte senden Sie einen gesprochenen Kommentar auf einmal.', tr: 'Lütfen tek seferde bir sesli yorum gönderin.' },
    empty: { de: 'Der gesprochene Kommentar ist leer.', tr: 'Sesli yorum boş.' },
    needsDuration: {
      de: 'Die Länge des gesprochenen Kommentars ist nicht bekannt. Bitte senden Sie sie mit (duration_ms).',
      tr: 'Sesli yorumun süresi bilinmiyor. Lütfen süreyi de gönderin (duration_ms).',
    },
  },
};

/** Reads the form of a spoken comment (docs/decisions/spoken-comments-and-quick-replies.md). */
export async function readVoiceCommentForm(req: FastifyRequest, storage: Storage): Promise<StagedVoiceComment> {
  const { fields, tempFile, size, mimeType, ext, durationMs } = await readMediaForm(req, storage, VOICE_COMMENT);
  return { tempFile, size, mimeType, ext, durationMs, atMs: fields.at_ms ?? null, text: fields.text ?? '' };
}
