import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { STORAGE_TEXTS } from '@contract/storage';
import { AppError } from '../errors';

/**
 * The free space of the disk uploads are streamed to (DATA_DIR/media: its tmp/ folder holds every
 * upload while it is checked, with either media store). docs/decisions/storage-quota.md.
 */
export const diskSpace = {
  /**
   * Bytes an unprivileged process may still write on the disk of `dir` (or of its nearest existing
   * parent). The API tests replace this function to set the free bytes (the test seam).
   */
  async free(dir: string): Promise<number> {
    for (let d = dir; ; d = dirname(d)) {
      try {
        const s = await statfs(d);
        return Number(s.bavail) * Number(s.bsize);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(d) === d) throw err;
      }
    }
  },
};

/** 507 unless the disk keeps `marginBytes` free beyond `bytes` (the file about to be written). */
export async function assertDiskRoom(dir: string, bytes: number, marginBytes: number): Promise<void> {
  const free = await diskSpace.free(dir);
  if (free < bytes + marginBytes) throw new AppError(507, STORAGE_TEXTS.insufficientStorage, undefined, { code: 'insufficient_storage' });
}

/** Room a multipart form takes besides its file (boundaries, part headers, the small text fields). */
const FORM_OVERHEAD_BYTES = 16 * 1024;

/**
 * The file's size as far as the request's Content-Length tells it (the body less what a form adds
 * besides the file); undefined without a length (a chunked body: checked when the bytes are in).
 */
export function declaredUploadBytes(contentLength: string | undefined): number | undefined {
  if (contentLength === undefined || !/^\d{1,15}$/.test(contentLength)) return undefined;
  return Math.max(0, Number(contentLength) - FORM_OVERHEAD_BYTES);
}
