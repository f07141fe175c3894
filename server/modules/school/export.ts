import type { FastifyBaseLogger } from 'fastify';
import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import type { Storage } from '../../lib/storage';
import type { ExportFile } from './school.service';

/**
 * The export zip of a student (docs/decisions/schools-and-roles.md, data rights), streamed: `student.json` (compressed) and each
 * recording as `recordings/<id>-<name>`, stored as it is (audio and video are compressed already),
 * read from the media store (folder or bucket) one at a time while the zip goes out, so that neither
 * the files nor the zip sit whole in memory. A file that cannot be read after the answer started
 * breaks the download (the client sees an incomplete zip, never a silently partial one) and is logged.
 */
export function studentZip(storage: Storage, json: Buffer, files: ExportFile[], log: FastifyBaseLogger, now = new Date()): Readable {
  const zip = new ZipFile();
  const out = zip.outputStream as Readable;
  zip.on('error', (err: unknown) => {
    log.warn({ err }, 'export: the zip could not be completed');
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  zip.addBuffer(json, 'student.json', { mtime: now, compress: true });
  for (const f of files) {
    zip.addReadStreamLazy(f.name, { mtime: f.mtime, compress: false }, (cb) => {
      storage.open(f.path).then(
        (stream) => cb(null, stream),
        (err: unknown) => cb(err, undefined as unknown as NodeJS.ReadableStream),
      );
    });
  }
  zip.end();
  return out;
}
