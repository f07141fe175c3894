import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { rows, type DbOrTx } from '../../db/client';
import { isSafeRelativePath } from '../../lib/storage';
import { MEDIA_LINK_TTL_SECONDS, STORED_MEDIA_PATH } from '@contract/media';
import type { AuthUser } from '../../lib/auth';
import { STORED_COMMENT_AUDIO_PATH, STORED_RECORDING_PATH } from '@contract/recordings';

/** A path that can name a stored media file; anything else is refused before the disk is touched. */
export function isMediaPath(path: string): boolean {
  return isSafeRelativePath(path) && (STORED_MEDIA_PATH.test(path) || STORED_RECORDING_PATH.test(path) || STORED_COMMENT_AUDIO_PATH.test(path));
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

/** An HMAC-SHA256 in canonical base64url: 43 characters, no padding, the last one's unused bits zero. */
const CANONICAL_SIG = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

export function verifyMediaSignature(secret: string, path: string, exp: number, sig: string, now = Date.now()): LinkCheck {
  // Only the one spelling signMediaUrl produces: Buffer.from(…, 'base64url') would also take
  // padding, '+' and '/', spaces and stray bits, so one link would have many valid forms.
  if (!CANONICAL_SIG.test(sig)) return 'bad-signature';
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

/** The extensions of each stored type; the first is given to a name that has none of them. */
export const TYPE_EXTENSIONS: Record<string, readonly string[]> = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/gif': ['gif'],
  'image/webp': ['webp'],
  'video/mp4': ['mp4', 'm4v'],
  'video/avi': ['avi'],
  'video/x-msvideo': ['avi'],
  'video/quicktime': ['mov', 'qt'],
  'video/webm': ['webm'],
  'video/x-matroska': ['mkv'],
  'application/pdf': ['pdf'],
  // recordings (contract/recordings.ts)
  'audio/webm': ['webm', 'weba'],
  'audio/ogg': ['ogg', 'oga', 'opus'],
  'audio/mp4': ['m4a', 'mp4'],
  'audio/mpeg': ['mp3'],
  'audio/wav': ['wav'],
};

/**
 * The name with the extension of the file's real (detected) type: a PNG sent as `x.html` is
 * `x.png`, `report.pdf.html` is `report.pdf.png`; a name already ending in one of the type's
 * extensions (any letter case) stays as it is.
 */
export function withTypeExtension(name: string, mimeType: string): string {
  const exts = TYPE_EXTENSIONS[mimeType];
  if (!exts) return name;
  const m = /\.([A-Za-z0-9]{1,10})$/.exec(name);
  if (m && exts.includes((m[1] ?? '').toLowerCase())) return name;
  const base = (m ? name.slice(0, m.index) : name).trim();
  return `${base || 'datei'}.${exts[0]}`;
}

/** Content-Disposition with an ASCII fallback and the original name RFC 5987 encoded. */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  let ascii = filename.normalize('NFKD').replace(/[^\x20-\x7e]/g, '').replace(/["\\;%]/g, '_').trim();
  if (ascii === '' || ascii.startsWith('.')) ascii = `download${ascii}`; // only an extension left of a non-Latin name
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A spoken comment's clip is saved as 'kommentar-{id}.{ext}' (the extension follows its type, withTypeExtension). */
const commentFilename = (idCol: SQL) => sql`'kommentar-' || ${idCol}`;

export type StoredMedia = { id: number; path: string; filename: string; mime_type: string; size: number };

/**
 * The media file at this path if the user may see it: the owning teacher, a teacher or a student with
 * a task of that exercise, or a guardian of such a student (docs/decisions/schools-and-roles.md); anyone else (an administrator
 * too) nothing.
 */
export async function findVisibleMedia(db: DbOrTx, user: AuthUser, path: string): Promise<StoredMedia | null> {
  // The students a guardian follows (guardian_links of the guardian's school).
  const childOf = (studentCol: SQL) =>
    sql`exists (select 1 from guardian_links gl where gl.guardian_id = ${user.id} and gl.school_id = ${user.schoolId} and gl.student_id = ${studentCol})`;
  // A recording, or a spoken comment on one: only the student who sent it, their teacher and their guardians (everyone else: 404).
  const recordingWho = () =>
      user.role === 'teacher'
        ? sql`r.teacher_id = ${user.id}`
        : user.role === 'student'
          ? sql`r.student_id = ${user.id}`
          : user.role === 'guardian'
            ? childOf(sql`r.student_id`)
            : sql`false`;
  if (STORED_RECORDING_PATH.test(path)) {
    const found = await rows<StoredMedia>(
      db,
      sql`select r.id, r.path, r.filename, r.mime_type, r.size from recordings r
          where r.path = ${path} and r.school_id = ${user.schoolId} and ${recordingWho()} limit 1`,
    );
    return found[0] ?? null;
  }
  if (STORED_COMMENT_AUDIO_PATH.test(path)) {
    const found = await rows<StoredMedia>(
      db,
      sql`select c.id, c.audio_path as path, ${commentFilename(sql`c.id`)} as filename, c.audio_mime_type as mime_type, c.audio_size as size
          from recording_comments c join recordings r on r.id = c.recording_id and r.school_id = c.school_id
          where c.audio_path = ${path} and c.school_id = ${user.schoolId} and ${recordingWho()} limit 1`,
    );
    return found[0] ?? null;
  }
  const visible =
    user.role === 'teacher'
      ? // their own exercise, or one of a task of theirs (a student moved to them brings tasks of another teacher's exercises)
        sql`(e.teacher_id = ${user.id} or exists (select 1 from submissions s where s.exercise_id = m.exercise_id and s.school_id = m.school_id and s.teacher_id = ${user.id}))`
      : user.role === 'student'
        ? sql`exists (select 1 from submissions s where s.exercise_id = m.exercise_id and s.school_id = m.school_id and s.student_id = ${user.id})`
        : user.role === 'guardian'
          ? sql`exists (select 1 from submissions s where s.exercise_id = m.exercise_id and s.school_id = m.school_id and ${childOf(sql`s.student_id`)})`
          : sql`false`;
  const r = await rows<StoredMedia>(
    db,
    sql`select m.id, m.path, m.filename, m.mime_type, m.size from media_files m
        join exercises e on e.id = m.exercise_id and e.school_id = m.school_id
        where m.path = ${path} and m.school_id = ${user.schoolId} and ${visible} limit 1`,
  );
  return r[0] ?? null;
}

/**
 * The file behind a signed link, by its path in any school: the HMAC over the path is the
 * permission (no sign-in, so no school to filter by); paths are unique across schools.
 */
export async function findMediaByPath(db: DbOrTx, path: string): Promise<StoredMedia | null> {
  if (STORED_RECORDING_PATH.test(path)) {
    const found = await rows<StoredMedia>(db, sql`select id, path, filename, mime_type, size from recordings where path = ${path} limit 1`);
    return found[0] ?? null;
  }
  if (STORED_COMMENT_AUDIO_PATH.test(path)) {
    const found = await rows<StoredMedia>(
      db,
      sql`select id, audio_path as path, ${commentFilename(sql`id`)} as filename, audio_mime_type as mime_type, audio_size as size from recording_comments where audio_path = ${path} limit 1`,
    );
    return found[0] ?? null;
  }
  const r = await rows<StoredMedia>(db, sql`select id, path, filename, mime_type, size from media_files where path = ${path} limit 1`);
  return r[0] ?? null;
}
