import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '@contract/constants';
import type { Recording } from '@contract/recordings';
import { createBackup, restoreBackup } from '../../cli/backup';
import { rows } from '../../db/client';
import { S3_PART_BYTES, type S3Storage } from '../../lib/storage-s3';
import { multipart } from '../../test/authz-world';
import { startS3Server, type TestS3 } from '../../test/s3-server';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { makeWav } from '../recordings/sample-recordings';
import { signMediaUrl } from './media.service';
import { staffPng } from './sample-files';

/**
 * MEDIA_STORE=s3 against a real S3-compatible server (s3rver, in this process): uploads streamed
 * to the bucket (multipart for large files), reads streamed back through the signed links with
 * their rules, deletes, and failed uploads that leave neither an object nor a row.
 */
let s3: TestS3;
let t: TestApp;
let teacher: TestUser;
let storage: S3Storage;

beforeAll(async () => {
  s3 = await startS3Server();
  t = await setupTestApp(s3.env);
  teacher = await t.teacher();
  expect(t.app.deps.storage.kind).toBe('s3');
  storage = t.app.deps.storage as S3Storage;
});
afterAll(async () => {
  await t?.close();
  await s3?.close();
});

/** Every key in the bucket under a prefix, read with the SDK (not through the app's storage). */
async function keys(prefix: string): Promise<string[]> {
  const r = await storage.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix }));
  return (r.Contents ?? []).map((o) => o.Key ?? '').sort();
}
async function objectBytes(key: string): Promise<Buffer> {
  const r = await storage.client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  return Buffer.from(await r.Body!.transformToByteArray());
}

type Part = Parameters<typeof multipart>[0][number];
async function post(url: string, parts: Part[], who: TestUser = teacher) {
  const body = await multipart(parts);
  return t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...who.headers, ...body.headers } });
}
const exerciseForm = (files: Array<[Buffer, string]>): Part[] => [
  ['title', `S3 ${randomBytes(3).toString('hex')}`],
  ...files.map(([b, name], i): Part => [`media_files[${i}]`, b, name, 'image/png']),
];
async function mediaRows(exerciseId: number): Promise<number> {
  const [r] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from media_files where exercise_id = ${exerciseId}`);
  return Number(r?.n ?? 0);
}
const link = async (path: string, who: TestUser = teacher) => (await t.app.inject({ method: 'GET', url: `/api/media/${path}`, headers: who.headers })).json<{ url: string }>().url;

/** A PNG padded to `size` bytes with random data (the type is read from its first bytes). */
const bigPng = (size: number) => {
  const head = staffPng(60, 30);
  return Buffer.concat([head, randomBytes(size - head.length)]);
};

describe('exercise media on S3', () => {
  let exerciseId: number;
  let small: { path: string };
  let large: { path: string };
  const smallPng = staffPng(80, 40);
  const largePng = bigPng(2 * S3_PART_BYTES + 12345); // three parts of a multipart upload

  it('streams uploads into the bucket (a large one in parts) and serves them back byte for byte', async () => {
    const res = await post('/api/exercises', exerciseForm([[smallPng, 'klein.png'], [largePng, 'groß.png']]));
    expect(res.statusCode, res.body).toBe(201);
    const e = res.json<{ id: number; media_files: Array<{ path: string; filename: string }> }>();
    exerciseId = e.id;
    [small, large] = [e.media_files.find((m) => m.filename === 'klein.png')!, e.media_files.find((m) => m.filename === 'groß.png')!];
    expect(await keys(`exercises/${e.id}/`)).toEqual([small.path, large.path].sort());
    expect((await objectBytes(small.path)).equals(smallPng)).toBe(true);
    expect((await objectBytes(large.path)).equals(largePng)).toBe(true);
    // nothing left in the local temporary folder, and no media file on the local disk
    expect(readdirSync(join(t.deps.mediaDir, 'tmp'))).toEqual([]);
    expect(existsSync(join(t.deps.mediaDir, 'exercises'))).toBe(false);

    const file = await t.app.inject({ method: 'GET', url: await link(large.path) });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-length']).toBe(String(largePng.length));
    expect(file.rawPayload.equals(largePng)).toBe(true);
  });

  it('answers a Range request with 206 and exactly those bytes (across a part boundary), and 416 past the end', async () => {
    const url = await link(large.path);
    const start = S3_PART_BYTES - 10;
    const end = S3_PART_BYTES + 9;
    const part = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${start}-${end}` } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes ${start}-${end}/${largePng.length}`);
    expect(part.headers['content-length']).toBe('20');
    expect(part.rawPayload.equals(largePng.subarray(start, end + 1))).toBe(true);
    const tail = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-100' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(largePng.subarray(largePng.length - 100))).toBe(true);
    const past = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${largePng.length}-` } });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${largePng.length}`);
  });

  it('keeps the rules of signed links: nosniff, download names, one hour, only the owner', async () => {
    const url = await link(small.path);
    const inline = await t.app.inject({ method: 'GET', url });
    expect(inline.headers['x-content-type-options']).toBe('nosniff');
    expect(inline.headers['content-type']).toBe('image/png');
    expect(inline.headers['content-disposition']).toMatch(/^inline; filename="klein.png"/);
    const download = await t.app.inject({ method: 'GET', url: `${url}&download=1` });
    expect(download.headers['content-disposition']).toMatch(/^attachment; filename="klein.png"/);
    expect(download.rawPayload.equals(smallPng)).toBe(true);
    // expired (signed two hours ago), tampered, another teacher, nobody
    const old = signMediaUrl(t.deps.secret, small.path, Date.now() - 2 * 3600_000);
    expect((await t.app.inject({ method: 'GET', url: old })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: url.replace(/sig=(.)/, (_m, c: string) => `sig=${c === 'A' ? 'B' : 'A'}`) })).statusCode).toBe(403);
    const other = await t.teacher();
    expect((await t.app.inject({ method: 'GET', url: `/api/media/${small.path}`, headers: other.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/media/${small.path}` })).statusCode).toBe(401);
    // the link names the app, never the bucket (no presigned S3 URL leaves the server)
    expect(url.startsWith('/api/media-file/')).toBe(true);
  });

  it('deletes the object when the medium is removed; a link to it is then 404', async () => {
    const [row] = await rows<{ id: number }>(t.db, sql`select id from media_files where path = ${small.path}`);
    const url = await link(small.path);
    const res = await post(`/api/exercises/${exerciseId}`, [['title', 'Weniger'], ['remove_media[0]', String(row!.id)]]);
    expect(res.statusCode, res.body).toBe(200);
    expect(await keys(`exercises/${exerciseId}/`)).toEqual([large.path]);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });
});

describe('a media upload that fails half-way leaves no object and no row', () => {
  it('a file over the limit (refused while streaming) stores nothing', async () => {
    const e = await t.exercise(teacher);
    const res = await post(`/api/exercises/${e.id}`, [['title', 'Zu groß'], ['media_files[0]', bigPng(UPLOAD_MAX_BYTES + 1024), 'riesig.png', 'image/png']]);
    expect(res.statusCode).toBe(422);
    expect(await keys(`exercises/${e.id}/`)).toEqual([]);
    expect(await mediaRows(e.id)).toBe(0);
  });

  it('a body that breaks off in the middle of a file stores nothing', async () => {
    const e = await t.exercise(teacher);
    const body = await multipart([['title', 'Abgebrochen'], ['media_files[0]', bigPng(3 * 1024 * 1024), 'halb.png', 'image/png']]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/exercises/${e.id}`,
      payload: body.payload.subarray(0, 2 * 1024 * 1024),
      headers: { ...teacher.headers, ...body.headers },
    });
    expect(res.statusCode).toBe(422);
    expect(await keys(`exercises/${e.id}/`)).toEqual([]);
    expect(await mediaRows(e.id)).toBe(0);
  });

  it('a database failure at the commit (after the object was stored) removes the object again', async () => {
    const e = await t.exercise(teacher);
    // A real failure of the commit: a deferred constraint trigger that refuses this exercise's media.
    await t.db.execute(sql.raw(`create function uk_test_refuse_media() returns trigger language plpgsql as $$
      begin if new.exercise_id = ${e.id} then raise exception 'refused by the test'; end if; return new; end $$`));
    await t.db.execute(
      sql.raw(`create constraint trigger uk_test_refuse_media after insert on media_files deferrable initially deferred for each row execute function uk_test_refuse_media()`),
    );
    try {
      const res = await post(`/api/exercises/${e.id}`, [['title', 'Commit scheitert'], ['media_files[0]', bigPng(S3_PART_BYTES + 1000), 'x.png', 'image/png']]);
      expect(res.statusCode).toBe(500);
    } finally {
      await t.db.execute(sql.raw(`drop trigger uk_test_refuse_media on media_files`));
      await t.db.execute(sql.raw(`drop function uk_test_refuse_media()`));
    }
    expect(await keys(`exercises/${e.id}/`)).toEqual([]);
    expect(await mediaRows(e.id)).toBe(0);
  });

  it('a source that fails in the middle of a multipart upload leaves no object', async () => {
    const key = `exercises/999999/media/${'c'.repeat(32)}.png`;
    let sent = 0;
    const failing = new Readable({
      read() {
        if (sent >= S3_PART_BYTES + 1024 * 1024) {
          this.destroy(new Error('disk read failed'));
          return;
        }
        sent += 256 * 1024;
        this.push(randomBytes(256 * 1024));
      },
    });
    await expect(storage.upload(key, failing)).rejects.toThrow();
    expect(await storage.stat(key)).toBeNull();
    expect(await keys('exercises/999999/')).toEqual([]);
  });
});

describe('recordings on S3', () => {
  it('stores a recording in the bucket, plays it back (whole and by range), and deletes it', async () => {
    const course = await t.course(teacher);
    const student = await t.student(teacher, { courseIds: [course.id] });
    const e = await t.exercise(teacher);
    const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);
    const s = await t.submission(student, teacher, e, { courseId: course.id, dueDate: inDays(2), expirationDate: inDays(9) });
    const wav = makeWav(3000);
    const res = await post(`/api/submissions/${s.id}/recordings`, [['file', wav, 'aufnahme.wav', 'audio/wav']], student);
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json<Recording>();
    expect(await keys(`recordings/${s.id}/`)).toEqual([r.path]);
    expect((await objectBytes(r.path)).equals(wav)).toBe(true);

    // the teacher listens: whole, then a range as a player asks for it
    const url = await link(r.path, teacher);
    const whole = await t.app.inject({ method: 'GET', url });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('audio/wav');
    expect(whole.rawPayload.equals(wav)).toBe(true);
    const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=44-1043' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 44-1043/${wav.length}`);
    expect(part.rawPayload.equals(wav.subarray(44, 1044))).toBe(true);
    // another student of the same teacher gets no link
    const sibling = await t.student(teacher, { courseIds: [course.id] });
    expect((await t.app.inject({ method: 'GET', url: `/api/media/${r.path}`, headers: sibling.headers })).statusCode).toBe(404);

    expect((await t.app.inject({ method: 'DELETE', url: `/api/recordings/${r.id}`, headers: student.headers })).statusCode).toBe(204);
    expect(await keys(`recordings/${s.id}/`)).toEqual([]);

    // deleting the task removes its folder of recordings from the bucket
    const again = await post(`/api/submissions/${s.id}/recordings`, [['file', makeWav(500), 'b.wav', 'audio/wav']], student);
    expect(again.statusCode).toBe(201);
    expect(await keys(`recordings/${s.id}/`)).toHaveLength(1);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/submissions/${s.id}`, headers: teacher.headers })).statusCode).toBe(204);
    expect(await keys(`recordings/${s.id}/`)).toEqual([]);
  });
});

describe('backup and restore with media on S3', () => {
  it('downloads the objects into the archive and uploads them again on restore', async () => {
    const res = await post('/api/exercises', exerciseForm([[staffPng(90, 30), 'gesichert.png']]));
    expect(res.statusCode, res.body).toBe(201);
    const path = res.json<{ media_files: Array<{ path: string }> }>().media_files[0]!.path;
    const bytes = await objectBytes(path);
    const target = { db: t.db, kind: t.dbKind, mediaDir: t.deps.mediaDir, storage };
    const file = join(t.deps.mediaDir, '..', 'backup-s3.tar.gz');
    const { manifest } = await createBackup(target, file);
    expect(manifest.media.files.map((f) => f.path)).toContain(path);
    expect(manifest.media.missing).toEqual([]);
    await storage.remove(path);
    expect(await storage.stat(path)).toBeNull();
    await restoreBackup(target, file);
    t.forgetReads();
    expect((await objectBytes(path)).equals(bytes)).toBe(true);
  });
});
