import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, resolve, sep } from 'node:path';

/**
 * Where media files live. Paths are relative ("exercises/12/media/ab….png") and checked before
 * any file is touched: no "..", no absolute paths, no backslashes, no NUL or other control
 * characters, no percent signs (encoded variants), nothing outside the root.
 */
export interface Storage {
  /** Moves a finished temporary file (from `tempPath()`) into place, atomically. */
  putFile(relPath: string, tempFile: string): Promise<void>;
  /** Writes bytes (small files, e.g. the demo school) through a temporary file and a rename. */
  putBytes(relPath: string, data: Uint8Array): Promise<void>;
  /** Reads a file, or the byte range start..end (inclusive). */
  open(relPath: string, range?: { start: number; end: number }): ReadStream;
  stat(relPath: string): Promise<{ size: number; mtime: Date } | null>;
  remove(relPath: string): Promise<void>;
  /** A fresh temporary file name on the same disk, for streaming an upload into. */
  tempPath(): Promise<string>;
}

export class UnsafePathError extends Error {
  constructor() {
    super('unsafe media path');
    this.name = 'UnsafePathError';
  }
}

/** True for a relative path made of plain segments (letters, digits, dot, dash, underscore). */
export function isSafeRelativePath(p: string): boolean {
  if (typeof p !== 'string' || p.length === 0 || p.length > 500) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\%]/.test(p)) return false;
  if (p.startsWith('/') || isAbsolute(p) || /^[A-Za-z]:/.test(p)) return false;
  const segments = p.split('/');
  return segments.every((s) => s !== '' && s !== '.' && s !== '..' && /^[A-Za-z0-9._-]+$/.test(s));
}

export class LocalStorage implements Storage {
  readonly root: string;
  private readonly tmpDir: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.tmpDir = join(this.root, 'tmp');
  }

  /** The absolute file of a relative path, or UnsafePathError: never leaves the root. */
  resolve(relPath: string): string {
    if (!isSafeRelativePath(relPath) || relPath === 'tmp' || relPath.startsWith('tmp/')) throw new UnsafePathError();
    const abs = resolve(this.root, normalize(relPath));
    if (!abs.startsWith(this.root + sep)) throw new UnsafePathError();
    return abs;
  }

  async tempPath(): Promise<string> {
    await mkdir(this.tmpDir, { recursive: true });
    return join(this.tmpDir, `${Date.now()}-${randomBytes(12).toString('hex')}.part`);
  }

  /** Deletes temporary files older than `maxAgeMs` (left behind by a crash). */
  async sweepTemp(maxAgeMs = 60 * 60 * 1000): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.tmpDir);
    } catch {
      return;
    }
    const now = Date.now();
    await Promise.all(
      names.map(async (n) => {
        const f = join(this.tmpDir, n);
        try {
          const s = await stat(f);
          if (now - s.mtimeMs > maxAgeMs) await rm(f, { force: true });
        } catch {
          /* gone already */
        }
      }),
    );
  }

  async putFile(relPath: string, tempFile: string): Promise<void> {
    const abs = this.resolve(relPath);
    if (!resolve(tempFile).startsWith(this.tmpDir + sep)) throw new UnsafePathError();
    await mkdir(join(abs, '..'), { recursive: true });
    await rename(tempFile, abs);
  }

  async putBytes(relPath: string, data: Uint8Array): Promise<void> {
    const tmp = await this.tempPath();
    try {
      await writeFile(tmp, data, { flag: 'wx' });
      await this.putFile(relPath, tmp);
    } finally {
      await rm(tmp, { force: true });
    }
  }

  open(relPath: string, range?: { start: number; end: number }): ReadStream {
    return createReadStream(this.resolve(relPath), range ? { start: range.start, end: range.end } : {});
  }

  async stat(relPath: string): Promise<{ size: number; mtime: Date } | null> {
    try {
      const s = await stat(this.resolve(relPath));
      return s.isFile() ? { size: s.size, mtime: s.mtime } : null;
    } catch (e) {
      if (e instanceof UnsafePathError) throw e;
      return null;
    }
  }

  async remove(relPath: string): Promise<void> {
    try {
      await unlink(this.resolve(relPath));
    } catch (e) {
      if (e instanceof UnsafePathError) throw e;
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
}
