import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, isAbsolute, join, normalize, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';

/** A stored file as a listing names it. */
export type StoredFile = { path: string; size: number; mtime: Date };

/**
 * Where media files live: the local folder DATA_DIR/media (LocalStorage, the default) or an
 * S3-compatible bucket (S3Storage, server/lib/storage-s3.ts, MEDIA_STORE=s3). Exercise media,
 * recordings, the demo school, the jobs and the CLI all go through this one interface.
 *
 * Paths are relative ("exercises/12/media/ab….png") and checked before any file is touched: no
 * "..", no absolute paths, no backslashes, no NUL or other control characters, no percent signs
 * (encoded variants), nothing outside the root, nothing under tmp/.
 *
 * Uploads are first streamed to a temporary file on the local disk (`tempPath()`, checked there:
 * size, type, length) and only then stored with `putFile` — a rename on the local folder, a
 * streamed multipart upload to the bucket.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  /** Where the files are, for logs and the operator: a folder, or s3://bucket. */
  readonly where: string;
  /** Stores a finished temporary file (from `tempPath()`); the temporary file is consumed or left for the caller to delete. */
  putFile(relPath: string, tempFile: string): Promise<void>;
  /** Writes bytes (small files, e.g. the demo school). */
  putBytes(relPath: string, data: Uint8Array): Promise<void>;
  /** Reads a file, or the byte range start..end (inclusive). Rejects with NotStoredError when it is gone. */
  open(relPath: string, range?: { start: number; end: number }): Promise<Readable>;
  stat(relPath: string): Promise<{ size: number; mtime: Date } | null>;
  /** Deletes a file; a file already gone is no error. */
  remove(relPath: string): Promise<void>;
  /** Deletes every file under a folder ("recordings/12"). */
  removeFolder(relFolder: string): Promise<void>;
  /** Every file under a folder, at any depth. */
  list(relFolder: string): AsyncIterable<StoredFile>;
  /** Moves a file without a database row out of the way (never deletes it): DATA_DIR/media-orphans, or media-orphans/ in the bucket. */
  moveAside(relPath: string): Promise<void>;
  /** Removes the empty sub-folders of a folder (the local folder; a bucket has none). */
  removeEmptyFolders(relFolder: string): Promise<void>;
  /** A fresh temporary file name on the local disk, for streaming an upload into. */
  tempPath(): Promise<string>;
  /** Deletes leftover temporary files (see LocalStorage.sweepTemp). */
  sweepTemp(maxAgeMs?: number, opts?: { deadOwners?: boolean }): Promise<void>;
  /** Frees connections (the S3 client); the local folder has nothing to free. */
  close(): Promise<void>;
}

/** A file the storage does not hold (deleted between a check and the read). */
export class NotStoredError extends Error {
  constructor(relPath: string) {
    super(`not stored: ${relPath}`);
    this.name = 'NotStoredError';
  }
}

export class UnsafePathError extends Error {
  constructor() {
    super('unsafe media path');
    this.name = 'UnsafePathError';
  }
}

/** A safe relative path that is not in the temporary folder, or UnsafePathError. */
export function checkedPath(relPath: string): string {
  if (!isSafeRelativePath(relPath) || relPath === 'tmp' || relPath.startsWith('tmp/')) throw new UnsafePathError();
  return relPath;
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

/** This machine in temporary file names: letters and digits of its host name. */
const TEMP_OWNER = (hostname().replace(/[^A-Za-z0-9]/g, '').slice(0, 40) || 'host').toLowerCase();

/** A temporary file of this machine whose process has ended (never our own). */
function writtenByDeadLocalProcess(name: string): boolean {
  const m = /^\d+-([a-z0-9]+)\.(\d+)-[0-9a-f]+\.part$/.exec(name);
  if (!m || m[1] !== TEMP_OWNER) return false;
  const pid = Number(m[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false; // alive (or a reused pid: then the age rule removes it later)
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  readonly root: string;
  private readonly tmpDir: string;

  constructor(root: string) {
    this.root = resolve(root);
    this.tmpDir = join(this.root, 'tmp');
  }

  get where(): string {
    return this.root;
  }

  /** True for a file made by `tempPath()` of this folder. */
  isTempFile(file: string): boolean {
    return resolve(file).startsWith(this.tmpDir + sep);
  }

  /** The absolute file of a relative path, or UnsafePathError: never leaves the root. */
  resolve(relPath: string): string {
    checkedPath(relPath);
    const abs = resolve(this.root, normalize(relPath));
    if (!abs.startsWith(this.root + sep)) throw new UnsafePathError();
    return abs;
  }

  async tempPath(): Promise<string> {
    await mkdir(this.tmpDir, { recursive: true });
    // Named by their writer (host and pid), so that a process sharing the folder can tell the
    // leftovers of a dead process on its own machine from uploads running elsewhere.
    return join(this.tmpDir, `${Date.now()}-${TEMP_OWNER}.${process.pid}-${randomBytes(12).toString('hex')}.part`);
  }

  /**
   * Deletes temporary files older than `maxAgeMs`, and with `deadOwners` also younger ones written
   * by a process of this machine that no longer runs (left behind by a crash). Files of processes
   * on other machines, or of live ones, are only removed by age.
   */
  async sweepTemp(maxAgeMs = 60 * 60 * 1000, opts: { deadOwners?: boolean } = {}): Promise<void> {
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
          if (now - s.mtimeMs > maxAgeMs || (opts.deadOwners && writtenByDeadLocalProcess(n))) await rm(f, { force: true });
        } catch {
          /* gone already */
        }
      }),
    );
  }

  async putFile(relPath: string, tempFile: string): Promise<void> {
    const abs = this.resolve(relPath);
    if (!this.isTempFile(tempFile)) throw new UnsafePathError();
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

  async open(relPath: string, range?: { start: number; end: number }): Promise<Readable> {
    const abs = this.resolve(relPath);
    const stream = createReadStream(abs, range ? { start: range.start, end: range.end } : {});
    // Opened before the answer starts: a file deleted since the check is a 404, not a broken body.
    await new Promise<void>((ok, fail) => {
      stream.once('open', () => ok());
      stream.once('error', (e: NodeJS.ErrnoException) => fail(e.code === 'ENOENT' ? new NotStoredError(relPath) : e));
    });
    return stream;
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

  async removeFolder(relFolder: string): Promise<void> {
    await rm(this.resolve(relFolder), { recursive: true, force: true });
  }

  async *list(relFolder: string): AsyncIterable<StoredFile> {
    const walk = async function* (abs: string, rel: string): AsyncGenerator<StoredFile> {
      for (const e of await readdir(abs, { withFileTypes: true }).catch(() => [])) {
        const childRel = `${rel}/${e.name}`;
        if (e.isDirectory()) yield* walk(join(abs, e.name), childRel);
        else if (e.isFile() && isSafeRelativePath(childRel)) {
          const st = await stat(join(abs, e.name)).catch(() => null);
          if (st) yield { path: childRel, size: st.size, mtime: st.mtime };
        }
      }
    };
    yield* walk(this.resolve(relFolder), relFolder);
  }

  async moveAside(relPath: string): Promise<void> {
    const target = join(dirname(this.root), 'media-orphans', checkedPath(relPath));
    await mkdir(dirname(target), { recursive: true });
    await rename(this.resolve(relPath), target);
  }

  async removeEmptyFolders(relFolder: string): Promise<void> {
    const base = this.resolve(relFolder);
    for (const e of await readdir(base, { withFileTypes: true }).catch(() => [])) {
      if (!e.isDirectory()) continue;
      // rmdir refuses a folder that is not empty (or was filled meanwhile): only empty ones go.
      await rmdir(join(base, e.name)).catch(() => {});
    }
  }

  async close(): Promise<void> {}
}

/** The settings createStorage reads (server/config.ts). */
export type StorageConfig = {
  MEDIA_STORE: 'local' | 's3';
  S3_ENDPOINT?: string | undefined;
  S3_BUCKET?: string | undefined;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_FORCE_PATH_STYLE: boolean;
};

/**
 * The media store the settings name: the folder `mediaDir` (default), or the S3 bucket (its
 * temporary upload files still in `mediaDir/tmp`). The AWS SDK is only loaded for S3; with
 * `check`, a bucket that cannot be reached fails here with a clear message.
 */
export async function createStorage(config: StorageConfig, mediaDir: string, opts: { check?: boolean } = {}): Promise<Storage> {
  if (config.MEDIA_STORE !== 's3') return new LocalStorage(mediaDir);
  if (!config.S3_BUCKET) throw new Error('MEDIA_STORE=s3 needs S3_BUCKET');
  const { S3Storage } = await import('./storage-s3');
  const storage = new S3Storage(
    {
      endpoint: config.S3_ENDPOINT,
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    },
    mediaDir,
  );
  if (opts.check) {
    try {
      await storage.check();
    } catch (e) {
      await storage.close();
      throw e;
    }
  }
  return storage;
}
