import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type DbOrTx } from '../../db/client';
import { isSafeRelativePath } from '../../lib/storage';
import { MEDIA_LINK_TTL_SECONDS, STORED_MEDIA_PATH } from '../../../contract/media';
import type { AuthUser } from '../../lib/auth';

/** A path that can name a stored media file; anything else is refused before the disk is touched. */
export function isMediaPath(path: string): boolean {
  return isSafeRelativePath(path) && STORED_MEDIA_PATH.test(path);
}

function hmac(secret: string, path: string, exp: number): Buffer {
  return createHmac('sha256', secret).update(`media-link\n${path}\n${exp}`).digest();
}

/** A link to a media file, signed over path and expiry, valid for one hour. */
export function signMediaUrl(secret: string, path: string, now = Date.now(), ttlSeconds = MEDIA_LINK_TTL_SECONDS): string {
  const exp = Math.floor(now / 1000) + ttlSeconds;
  const sig = hmac(secret, path, exp).toString('base64url');
  return `/api/media-file/${path}?exp=${exp}&sig=${sig}`;
}

export type LinkCheck = 'ok' | 'expired' | 'bad-signature';

export function verifyMediaSignature(secret: string, path: string, exp: number, sig: string, now = Date.now()): LinkCheck {
  const expected = hmac(secret, path, exp);
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad-signature';
  if (exp * 1000 < now) return 'expired';
  return 'ok';
}

/**
 * A single byte range of a Range header (RFC 9110): the range to send, 'unsatisfiable' (416),
 * or null to send the whole file (no header, several ranges, or a header we do not understand).
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m) return null;
  const [, a = '', b = ''] = m;
  if (a === '' && b === '') return null;
  if (a.length > 15 || b.length > 15) return 'unsatisfiable';
  if (a === '') {
    const n = Number(b);
    if (n === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(a);
  if (start >= size) return 'unsatisfiable';
  const end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  if (end < start) return null;
  return { start, end };
}

/** Content-Disposition with an ASCII fallback and the original name RFC 5987 encoded. */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\;%]/g, '_').trim() || 'download';
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export type StoredMedia = { id: number; path: string; filename: string; mime_type: string; size: number };

/** The media file at this path if the user may see it: the owning teacher, or a student with a task of that exercise. */
export async function findVisibleMedia(db: DbOrTx, user: AuthUser, path: string): Promise<StoredMedia | null> {
  const visible =
    user.role === 'teacher'
      ? sql`e.teacher_id = ${user.id}`
      : sql`exists (select 1 from submissions s where s.exercise_id = m.exercise_id and s.student_id = ${user.id})`;
  const r = await rows<StoredMedia>(
    db,
    sql`select m.id, m.path, m.filename, m.mime_type, m.size from media_files m
        join exercises e on e.id = m.exercise_id
        where m.path = ${path} and ${visible} limit 1`,
  );
  return r[0] ?? null;
}

export async function findMediaByPath(db: DbOrTx, path: string): Promise<StoredMedia | null> {
  const r = await rows<StoredMedia>(db, sql`select id, path, filename, mime_type, size from media_files where path = ${path} limit 1`);
  return r[0] ?? null;
}
