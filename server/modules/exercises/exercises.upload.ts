import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import type { UPLOAD_MIME_TYPES } from '@contract/constants';
import { UPLOAD_MAX_BYTES } from '@contract/constants';
import { USUL_PATTERN_MAX } from '@contract/exercise-settings';
import { EXERCISE_LIMITS } from '@contract/exercises';
import { AppError, invalid, messages, type Msg } from '../../errors';
import { MediaRefused, probeMedia } from '../../lib/media-guard';
import type { Storage } from '../../lib/storage';
import { asUploadError, dropRest, skipFile, streamToTemp } from '../../lib/upload';
import { withTypeExtension } from '../media/media.service';

export type MediaKind = 'image' | 'pdf' | 'video';

/** A checked upload waiting in the temporary folder for its database row to commit. */
export type StagedFile = {
  index: number;
  tempFile: string;
  filename: string;
  size: number;
  mimeType: string;
  ext: string;
  kind: MediaKind;
};

export type ParsedForm = {
  /** Text fields; array fields (tags[0], tags[]) gathered into arrays under their base name. */
  fields: Record<string, string | string[]>;
  files: StagedFile[];
  fileErrors: Record<string, Msg[]>;
};

/** Detected type (file-type's name) → the stored mime type of SPEC.md's list, the extension and the kind. */
const DETECTED: Record<string, { mime: (typeof UPLOAD_MIME_TYPES)[number]; ext: string; kind: MediaKind }> = {
  'image/jpeg': { mime: 'image/jpeg', ext: 'jpg', kind: 'image' },
  'image/png': { mime: 'image/png', ext: 'png', kind: 'image' },
  'image/gif': { mime: 'image/gif', ext: 'gif', kind: 'image' },
  'image/webp': { mime: 'image/webp', ext: 'webp', kind: 'image' },
  'video/mp4': { mime: 'video/mp4', ext: 'mp4', kind: 'video' },
  'video/x-m4v': { mime: 'video/mp4', ext: 'mp4', kind: 'video' },
  'video/vnd.avi': { mime: 'video/x-msvideo', ext: 'avi', kind: 'video' },
  'video/avi': { mime: 'video/x-msvideo', ext: 'avi', kind: 'video' },
  'video/x-msvideo': { mime: 'video/x-msvideo', ext: 'avi', kind: 'video' },
  'video/quicktime': { mime: 'video/quicktime', ext: 'mov', kind: 'video' },
  'video/webm': { mime: 'video/webm', ext: 'webm', kind: 'video' },
  'video/matroska': { mime: 'video/x-matroska', ext: 'mkv', kind: 'video' },
  'video/x-matroska': { mime: 'video/x-matroska', ext: 'mkv', kind: 'video' },
  'application/pdf': { mime: 'application/pdf', ext: 'pdf', kind: 'pdf' },
};

/**
 * The type of a file from its own bytes, if it is one SPEC.md allows; read through the media
 * guard (server/lib/media-guard.ts), which throws MediaRefused (422) for a file over its bounds.
 */
export async function detectType(file: string): Promise<{ mime: string; ext: string; kind: MediaKind } | null> {
  const { mime } = await probeMedia(file, { deep: false });
  return (mime ? DETECTED[mime] : undefined) ?? null;
}

/**
 * The original name for display: no markup, no folder parts, no control or bidi-override
 * characters, at most 200 characters (the extension kept), never empty. With the detected
 * `mimeType`, the extension is that type's (media.service.ts withTypeExtension).
 */
export function cleanFilename(name: string | undefined, ext: string, mimeType?: string): string {
  let n = (name ?? '').normalize('NFC');
  // Tags first: `../<b>böse</b>.png` keeps `böse.png`, not the `b>.png` after the last slash.
  n = n.replace(/<[^<>]*>/g, '').replace(/[<>]/g, '');
  n = n.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  n = n.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, '').trim();
  if (/^\.[^.]*$/.test(n)) n = ''; // only an extension (`.png`) or a dot file: no name to keep
  n = n.replace(/^\.+/, '').trim();
  if (n === '') n = `datei.${ext}`;
  if (mimeType) n = withTypeExtension(n, mimeType);
  const chars = [...n];
  if (chars.length > EXERCISE_LIMITS.filename) {
    const dot = n.lastIndexOf('.');
    const extPart = dot > 0 && n.length - dot <= 10 ? [...n.slice(dot)] : [];
    n = chars.slice(0, EXERCISE_LIMITS.filename - extPart.length).join('').trimEnd() + extPart.join('');
  }
  return n;
}

const fieldMessages = {
  tooManyFiles: {
    de: `Höchstens ${EXERCISE_LIMITS.files} Dateien auf einmal. Bitte speichern Sie und fügen Sie weitere danach hinzu.`,
    tr: `Tek seferde en fazla ${EXERCISE_LIMITS.files} dosya. Lütfen kaydedip kalanları sonra ekleyin.`,
  } satisfies Msg,
  tooLarge: (name: string): Msg => ({ de: `Datei ${name} ist zu groß (max. 20MB)`, tr: `${name} dosyası çok büyük (en fazla 20MB)` }),
  badType: (name: string): Msg => ({
    de: `Dateityp von ${name} wird nicht unterstützt`,
    tr: `${name} dosyasının türü desteklenmiyor`,
  }),
  empty: (name: string): Msg => ({ de: `Datei ${name} ist leer`, tr: `${name} dosyası boş` }),
  unexpected: { de: 'Hier wird keine Datei erwartet.', tr: 'Burada dosya beklenmiyor.' },
  tooLong: { de: 'Der Wert ist zu lang.', tr: 'Değer çok uzun.' },
};

const ARRAY_FIELD = /^([a-z_]+)\[(\d{0,4})\]$/;

/** The text fields of the form (SPEC.md, contract/exercises.ts exerciseFields); any other name is refused. */
const TEXT_FIELDS = new Set([
  'title',
  'description',
  'category',
  'difficulty',
  'target',
  'estimated_minutes',
  'priority',
  'language',
  // practice-tool settings (contract/exercise-settings.ts)
  'tempo_bpm',
  'tempo_unit',
  'meter',
  'meter_grouping',
  'usul',
  'makam',
  'durak',
]);
/** Fields sent once per item (`tags[0]`, `tags[]`, or repeated `tags`). */
const LIST_FIELDS = new Set(['tags', 'course_ids', 'remove_media', 'usul_pattern']);

/**
 * What one request of the form may hold (exerciseFields' limits): text is kept in memory, so it
 * gets a small budget for all fields together; files stream to disk.
 */
export const FORM_LIMITS = {
  /** All text fields together, in bytes: the fullest real form (a 5,000-character description at 3 bytes a character, 20 tags, 400 ids) is about 25 KB. */
  textBytes: 32 * 1024,
  /** One text field, in bytes: the description with room for surrounding whitespace. */
  fieldBytes: 16 * 1024,
  /** Text fields: 14 single ones, 20 tags, 200 course ids, 200 media ids to remove, 64 pattern steps (or one text). */
  fields: TEXT_FIELDS.size + EXERCISE_LIMITS.tags + 200 + 200 + USUL_PATTERN_MAX,
  /** The longest real name is `remove_media[9999]`. */
  fieldNameBytes: 32,
} as const;

const tooMuchText: Msg = {
  de: 'Die Textfelder sind zusammen zu lang.',
  tr: 'Metin alanları toplamda çok uzun.',
};

/**
 * Reads a multipart request part by part: text fields into `fields`, each file streamed to a
 * temporary file (20 MiB enforced while streaming, never buffered whole) and its type read from
 * its bytes. Rejected files are deleted at once and reported under `media_files.{i}`; the files
 * that pass stay staged. On any error the staged files are deleted before the error leaves.
 */
export async function readExerciseForm(req: FastifyRequest, storage: Storage): Promise<ParsedForm> {
  const fields: Record<string, string | string[]> = {};
  const indexed: Record<string, Array<[number, string]>> = {};
  const files: StagedFile[] = [];
  const fileErrors: Record<string, Msg[]> = {};
  let autoIndex = 0;
  let ok = false;
  let currentTemp: string | null = null;
  let textBytes = 0;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        const m = ARRAY_FIELD.exec(part.fieldname);
        if (part.fieldnameTruncated || !(TEXT_FIELDS.has(part.fieldname) || LIST_FIELDS.has(m?.[1] ?? part.fieldname))) {
          dropRest(req);
          throw invalid({ [part.fieldname]: messages.unknownField });
        }
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        textBytes += Buffer.byteLength(value) + part.fieldname.length;
        if (textBytes > FORM_LIMITS.textBytes) {
          dropRest(req);
          throw new AppError(413, tooMuchText);
        }
        if (part.valueTruncated) {
          (fileErrors[part.fieldname] ??= []).push(fieldMessages.tooLong);
          continue;
        }
        if (m && m[1]) {
          const base = m[1];
          const list = (indexed[base] ??= []);
          list.push([m[2] === '' ? 10000 + list.length : Number(m[2]), value]);
        } else if (part.fieldname in fields) {
          // a repeated plain field (tags=a&tags=b): an array as well
          const prev = fields[part.fieldname];
          fields[part.fieldname] = Array.isArray(prev) ? [...prev, value] : [prev as string, value];
        } else {
          fields[part.fieldname] = value;
        }
        continue;
      }
      // a file
      const m = ARRAY_FIELD.exec(part.fieldname);
      const base = m?.[1] ?? part.fieldname;
      if (base !== 'media_files') {
        await skipFile(part.file);
        (fileErrors[part.fieldname] ??= []).push(fieldMessages.unexpected);
        continue;
      }
      const index = m && m[2] !== '' && m[2] !== undefined ? Number(m[2]) : autoIndex;
      autoIndex = Math.max(autoIndex, index) + 1;
      const key = `media_files.${index}`;
      const shownName = cleanFilename(part.filename, 'bin');
      // lib/upload.ts: the counter, busboy's limit, and the temporary file removed if the body breaks off
      const streamed = await streamToTemp(part.file, storage, UPLOAD_MAX_BYTES);
      if (streamed.tooLarge) {
        (fileErrors[key] ??= []).push(fieldMessages.tooLarge(shownName));
        continue;
      }
      const temp = streamed.tempFile;
      const size = streamed.size;
      currentTemp = temp;
      if (size === 0) {
        await rm(temp, { force: true });
        currentTemp = null;
        (fileErrors[key] ??= []).push(fieldMessages.empty(shownName));
        continue;
      }
      let type: Awaited<ReturnType<typeof detectType>>;
      try {
        type = await detectType(temp);
      } catch (e) {
        if (!(e instanceof MediaRefused)) throw e;
        req.log.warn({ code: e.code, reason: e.reason, size }, 'exercise media refused by the media guard');
        await rm(temp, { force: true });
        currentTemp = null;
        (fileErrors[key] ??= []).push(e.msg);
        continue;
      }
      if (!type) {
        await rm(temp, { force: true });
        currentTemp = null;
        (fileErrors[key] ??= []).push(fieldMessages.badType(shownName));
        continue;
      }
      files.push({
        index,
        tempFile: temp,
        filename: cleanFilename(part.filename, type.ext, type.mime),
        size,
        mimeType: type.mime,
        ext: type.ext,
        kind: type.kind,
      });
      currentTemp = null;
    }
    for (const [base, list] of Object.entries(indexed)) {
      const values = list.sort((a, b) => a[0] - b[0]).map(([, v]) => v);
      const prev = fields[base];
      fields[base] = prev === undefined ? values : [...(Array.isArray(prev) ? prev : [prev]), ...values];
    }
    ok = true;
    return { fields, files, fileErrors };
  } catch (e) {
    throw exerciseUploadError(e);
  } finally {
    if (currentTemp) await rm(currentTemp, { force: true });
    if (!ok) await discardStaged(files);
  }
}

/**
 * A truncated or malformed multipart body is the caller's fault (422); disk faults stay 500
 * (lib/upload.ts). More files in one request than the form may send: say how many, not "the
 * request is too large".
 */
function exerciseUploadError(e: unknown): unknown {
  return asUploadError(e, (err) => (err.code === 'FST_FILES_LIMIT' ? invalid({ media_files: fieldMessages.tooManyFiles }) : undefined));
}

/** Deletes staged temporary files (after a rejection, or a failed commit). */
export async function discardStaged(files: StagedFile[]): Promise<void> {
  await Promise.all(files.map((f) => rm(f.tempFile, { force: true })));
}
