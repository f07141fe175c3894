import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { ConfigError } from '../config';
import { checkedPath, isSafeRelativePath, LocalStorage, NotStoredError, UnsafePathError, type Storage, type StoredFile } from './storage';

/** The S3 settings of server/config.ts (MEDIA_STORE=s3). */
export type S3Settings = {
  endpoint?: string | undefined;
  bucket: string;
  region: string;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  forcePathStyle: boolean;
};

/**
 * Multipart uploads in parts of 5 MiB (S3's minimum), two at a time: an upload holds at most
 * 10 MiB in memory whatever the file's size. A file under 5 MiB is one PutObject.
 */
export const S3_PART_BYTES = 5 * 1024 * 1024;
export const S3_PARTS_AT_ONCE = 2;

/** Objects moved aside by the orphan sweeps (never deleted, like DATA_DIR/media-orphans). */
const ORPHANS_PREFIX = 'media-orphans/';

function isNotFound(e: unknown): boolean {
  const err = e as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } };
  return err.name === 'NotFound' || err.name === 'NoSuchKey' || err.Code === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404;
}

export function s3ClientConfig(s: S3Settings): S3ClientConfig {
  return {
    region: s.region,
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    forcePathStyle: s.forcePathStyle,
    ...(s.accessKeyId && s.secretAccessKey ? { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } } : {}),
    // Checksums only where S3 requires them: the SDK's newer default (a CRC32 trailer in
    // aws-chunked bodies) is not understood by every S3-compatible store (MinIO before 2025,
    // Garage, R2, s3rver). TLS and S3's own MD5 of each part protect the bytes in transit.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: {
      connectionTimeout: 5_000,
      // A store that sends nothing for a minute is given up (also while a file streams through).
      requestTimeout: 60_000,
      // Every media file in flight (a playing video) holds one connection to the store.
      httpAgent: { keepAlive: true, maxSockets: 256 },
      httpsAgent: { keepAlive: true, maxSockets: 256 },
    },
  };
}

/**
 * Media in an S3-compatible bucket (AWS S3, MinIO, Garage, Cloudflare R2), through the AWS SDK v3.
 * The object key is the relative media path. Temporary upload files stay on the local disk
 * (DATA_DIR/media/tmp): the upload is checked there (size, type, length), then streamed to the
 * bucket with lib-storage's multipart Upload. Reads are streamed back through the app
 * (docs/decisions/0014-media-on-s3.md: signed links keep their rules).
 */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  private readonly staging: LocalStorage;

  constructor(settings: S3Settings, localRoot: string) {
    this.client = new S3Client(s3ClientConfig(settings));
    this.bucket = settings.bucket;
    this.staging = new LocalStorage(localRoot);
  }

  get where(): string {
    return `s3://${this.bucket}`;
  }

  /** Fails with a clear message when the bucket cannot be reached with these settings. */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (e) {
      const err = e as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
      const status = err.$metadata?.httpStatusCode;
      const why =
        status === 404 ? 'the bucket does not exist' : status === 403 ? 'access denied (check S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY)' : `${err.name ?? 'error'}: ${err.message ?? String(e)}`;
      throw new ConfigError([`S3_BUCKET (got "${this.bucket}"): cannot be used with MEDIA_STORE=s3: ${why}. Check S3_ENDPOINT, S3_BUCKET, S3_REGION and S3_FORCE_PATH_STYLE.`]);
    }
  }

  tempPath(): Promise<string> {
    return this.staging.tempPath();
  }

  sweepTemp(maxAgeMs?: number, opts?: { deadOwners?: boolean }): Promise<void> {
    return this.staging.sweepTemp(maxAgeMs, opts);
  }

  async putFile(relPath: string, tempFile: string): Promise<void> {
    const key = checkedPath(relPath);
    if (!this.staging.isTempFile(tempFile)) throw new UnsafePathError();
    await this.upload(key, createReadStream(tempFile));
  }

  async putBytes(relPath: string, data: Uint8Array): Promise<void> {
    await this.upload(checkedPath(relPath), Readable.from([Buffer.from(data)]));
  }

  /**
   * Streams `body` to the object `key`: parts of 5 MiB, two at a time, never the whole file in
   * memory. When it fails half-way (the source breaks, a part is refused, the store goes away)
   * lib-storage aborts the multipart upload: no object appears, the parts are dropped.
   */
  async upload(key: string, body: Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: S3_PART_BYTES,
      queueSize: S3_PARTS_AT_ONCE,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (e) {
      body.destroy();
      throw e;
    }
  }

  async open(relPath: string, range?: { start: number; end: number }): Promise<Readable> {
    try {
      const got = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: checkedPath(relPath), ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}) }),
      );
      if (!(got.Body instanceof Readable)) throw new Error('S3 GetObject: no stream');
      return got.Body;
    } catch (e) {
      if (isNotFound(e)) throw new NotStoredError(relPath);
      throw e;
    }
  }

  async stat(relPath: string): Promise<{ size: number; mtime: Date } | null> {
    try {
      const h = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: checkedPath(relPath) }));
      return { size: h.ContentLength ?? 0, mtime: h.LastModified ?? new Date(0) };
    } catch (e) {
      if (e instanceof UnsafePathError) throw e;
      if (isNotFound(e)) return null;
      throw e;
    }
  }

  async remove(relPath: string): Promise<void> {
    // S3 answers a delete of a missing key with success: nothing to tell apart.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: checkedPath(relPath) }));
  }

  async removeFolder(relFolder: string): Promise<void> {
    // One DeleteObject each (a task holds at most 20 recordings): DeleteObjects needs a
    // Content-MD5 or checksum header that not every S3-compatible store takes alike.
    for await (const f of this.list(relFolder)) await this.remove(f.path);
  }

  async *list(relFolder: string): AsyncIterable<StoredFile> {
    const prefix = `${checkedPath(relFolder)}/`;
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
      for (const o of page.Contents ?? []) {
        if (!o.Key || !isSafeRelativePath(o.Key)) continue;
        yield { path: o.Key, size: o.Size ?? 0, mtime: o.LastModified ?? new Date(0) };
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async moveAside(relPath: string): Promise<void> {
    const key = checkedPath(relPath);
    await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: `${ORPHANS_PREFIX}${key}`, CopySource: `${this.bucket}/${key}` }));
    await this.remove(key);
  }

  async removeEmptyFolders(): Promise<void> {
    // A bucket has keys, not folders.
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
