import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, type Msg } from '../errors';
import type { Storage } from './storage';

/**
 * What every multipart upload of the app shares (exercise media, recordings): a file part
 * streamed to a temporary file through a byte counter (the limit enforced while streaming, never
 * buffered whole), the rest of a refused body dropped, and a broken body told apart from a disk fault.
 */

/** Stops parsing a refused form: the rest of the body is read and dropped, never gathered. */
export function dropRest(req: FastifyRequest): void {
  req.raw.unpipe();
  req.raw.resume();
}

export type StreamedFile = { tempFile: string; size: number; tooLarge: false } | { tempFile: null; size: number; tooLarge: true };

/**
 * Streams one file part (busboy's stream) into a fresh temporary file of `storage`. Over
 * `maxBytes` (busboy's `limit` event, its `truncated` flag, or the counter) the temporary file is
 * deleted and `tooLarge` answered. When the body breaks off, the temporary file is deleted before
 * the error leaves: the caller only owns a file it got back.
 */
export async function streamToTemp(file: Readable & { truncated?: boolean }, storage: Storage, maxBytes: number): Promise<StreamedFile> {
  const temp = await storage.tempPath();
  let size = 0;
  let tooLarge = false;
  file.once('limit', () => {
    tooLarge = true;
  });
  const counter = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      size += chunk.length;
      if (size > maxBytes) {
        tooLarge = true;
        cb(); // drop the rest; busboy truncates at the same limit
        return;
      }
      cb(null, chunk);
    },
  });
  const sink = createWriteStream(temp, { flags: 'wx' });
  try {
    await pipeline(file, counter, sink);
  } catch (e) {
    // The file is opened asynchronously: when the body breaks off before the open finished, the
    // stream creates the file after pipeline() has failed. Wait for it to close, so that the file
    // removed below exists, not one that appears a moment later.
    if (!sink.closed) await new Promise<void>((r) => sink.once('close', () => r()));
    await rm(temp, { force: true });
    throw e;
  }
  if (tooLarge || file.truncated) {
    await rm(temp, { force: true });
    return { tempFile: null, size, tooLarge: true };
  }
  return { tempFile: temp, size, tooLarge: false };
}

/** A multipart file part that is not wanted: read to its end and dropped. */
export async function skipFile(file: Readable): Promise<void> {
  file.resume();
  await new Promise<void>((r) => (file.readableEnded ? r() : file.once('end', () => r()).once('error', () => r())));
}

export const brokenUpload: Msg = {
  de: 'Die Übertragung wurde unterbrochen oder ist beschädigt. Bitte erneut versuchen.',
  tr: 'Aktarım kesildi veya bozuk. Tekrar denenmeli.',
};

/**
 * A truncated or malformed multipart body is the caller's fault (422); disk faults (ENOSPC,
 * EACCES…) stay 500, AppErrors and 413 keep their status. `other` may map an error first.
 */
export function asUploadError(e: unknown, other?: (err: { code?: string; statusCode?: number }) => unknown): unknown {
  if (e instanceof AppError) return e;
  const err = e as { code?: string; statusCode?: number };
  if (typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code) && err.code !== 'ECONNRESET') return e;
  const mapped = other?.(err);
  if (mapped) return mapped;
  if (err.statusCode === 413) return e;
  return new AppError(422, brokenUpload);
}
