import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { SchoolStorage, StudentStorage } from '@contract/storage';
import { ConfigError, loadConfig } from '../../config';
import { rows } from '../../db/client';
import { diskSpace } from '../../lib/disk-space';
import { multipart } from '../../test/authz-world';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { staffPng } from '../media/sample-files';
import { makeWav } from '../recordings/sample-recordings';

/**
 * Storage quotas (docs/decisions/storage-quota.md): the student's and the school's quota on the
 * real upload routes, the disk check through its seam (diskSpace.free), and the read and settings
 * routes with who may call them. Each case has a school of its own, so the sums are its own.
 */

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
let t: TestApp;

withTestApp((app) => {
  t = app;
});
const realFree = diskSpace.free;
afterEach(() => {
  diskSpace.free = realFree;
});

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

/** A school with its administrator, a teacher and two students. */
async function school() {
  const s = await t.school();
  const admin = await t.admin({ schoolId: s.id });
  const teacher = await t.teacher({ schoolId: s.id });
  const student = await t.student(teacher, { name: `Ada ${randomBytes(3).toString('hex')}` });
  const other = await t.student(teacher, { name: `Ben ${randomBytes(3).toString('hex')}` });
  return { school: s, admin, teacher, student, other };
}

async function task(student: TestUser, teacher: TestUser) {
  const e = await t.exercise(teacher);
  return t.submission(student, teacher, e, { dueDate: inDays(2), expirationDate: inDays(9) });
}

/** A recording row of `size` bytes without its file: fills a quota without writing gigabytes. */
async function storedRecording(student: TestUser, teacher: TestUser, size: number) {
  const sub = await task(student, teacher);
  await t.db.execute(sql`insert into recordings (school_id, submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms)
    values (${student.schoolId}, ${sub.id}, ${student.id}, ${teacher.id}, 'audio', 'audio/wav',
      ${`recordings/${sub.id}/${randomBytes(16).toString('hex')}.wav`}, 'aufnahme.wav', ${size}, 1000)`);
}

async function storedMedia(teacher: TestUser, size: number) {
  const e = await t.exercise(teacher);
  await t.db.execute(sql`insert into media_files (school_id, exercise_id, type, path, filename, size, mime_type)
    values (${teacher.schoolId}, ${e.id}, 'pdf', ${`exercises/${e.id}/media/${randomBytes(16).toString('hex')}.pdf`}, 'blatt.pdf', ${size}, 'application/pdf')`);
}

async function upload(student: TestUser, submissionId: number, file: Buffer, headers: Record<string, string> = {}) {
  const body = await multipart([['file', file, 'aufnahme.wav', 'audio/wav']]);
  return t.app.inject({
    method: 'POST',
    url: `/api/submissions/${submissionId}/recordings`,
    payload: body.payload,
    headers: { ...student.headers, ...body.headers, ...headers },
  });
}

const call = (method: 'GET' | 'PUT', url: string, who: TestUser | null, payload?: object) =>
  t.app.inject({ method, url, headers: who ? who.headers : {}, ...(payload ? { payload } : {}) });

async function setQuotas(admin: TestUser, quota: number | null, studentQuota: number | null) {
  const res = await call('PUT', '/api/school/storage', admin, { quota_bytes: quota, student_quota_bytes: studentQuota });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as SchoolStorage;
}

async function recordingCount(studentId: number): Promise<number> {
  const [r] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recordings where student_id = ${studentId}`);
  return r!.n;
}

async function tempFiles(): Promise<string[]> {
  return readdir(join(t.deps.mediaDir, 'tmp')).catch(() => []);
}

const wav = makeWav(2000); // 32 KB

describe('GET /api/storage/usage (the student, before recording)', () => {
  it("answers the student's own bytes against the default quota, and counts an upload", async () => {
    const w = await school();
    const first = await call('GET', '/api/storage/usage', w.student);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ used_bytes: 0, quota_bytes: 1024 * MiB, available_bytes: 1024 * MiB, school_full: false });

    const sub = await task(w.student, w.teacher);
    expect((await upload(w.student, sub.id, wav)).statusCode).toBe(201);
    await storedRecording(w.other, w.teacher, 5 * MiB); // another student's bytes are not this one's
    const after = (await call('GET', '/api/storage/usage', w.student)).json() as StudentStorage;
    expect(after.used_bytes).toBe(wav.length);
    expect(after.available_bytes).toBe(1024 * MiB - wav.length);
  });

  it("says when the school's room is smaller than the student's", async () => {
    const w = await school();
    await setQuotas(w.admin, GiB, 500 * MiB);
    await storedMedia(w.teacher, GiB - 100 * MiB);
    const u = (await call('GET', '/api/storage/usage', w.student)).json() as StudentStorage;
    expect(u).toMatchObject({ used_bytes: 0, quota_bytes: 500 * MiB, available_bytes: 100 * MiB, school_full: true });
  });

  it('is refused to everyone but a student (403), and to a guest (401)', async () => {
    const w = await school();
    expect((await call('GET', '/api/storage/usage', w.teacher)).statusCode).toBe(403);
    expect((await call('GET', '/api/storage/usage', w.admin)).statusCode).toBe(403);
    expect((await call('GET', '/api/storage/usage', null)).statusCode).toBe(401);
  });
});

describe('GET and PUT /api/school/storage (the administrator)', () => {
  it("sums the school's recordings and exercise media, lists the largest students, and no other school's", async () => {
    const w = await school();
    const elsewhere = await school();
    await storedRecording(w.student, w.teacher, 3 * MiB);
    await storedRecording(w.student, w.teacher, 1 * MiB);
    await storedRecording(w.other, w.teacher, 7 * MiB);
    await storedMedia(w.teacher, 2 * MiB);
    await storedRecording(elsewhere.student, elsewhere.teacher, 100 * MiB);
    const res = await call('GET', '/api/school/storage', w.admin);
    expect(res.statusCode, res.body).toBe(200);
    const s = res.json() as SchoolStorage;
    expect(s).toMatchObject({
      used_bytes: 13 * MiB,
      recordings_bytes: 11 * MiB,
      media_bytes: 2 * MiB,
      quota_bytes: 50 * GiB,
      student_quota_bytes: 1024 * MiB,
      defaults: { quota_bytes: 50 * GiB, student_quota_bytes: 1024 * MiB },
      custom: { quota: false, student_quota: false },
    });
    expect(s.top_students.map((x) => [x.id, x.used_bytes, x.recordings, x.teacher.id])).toEqual([
      [w.other.id, 7 * MiB, 1, w.teacher.id],
      [w.student.id, 4 * MiB, 2, w.teacher.id],
    ]);
  });

  it('sets both quotas, goes back to the defaults with null, and writes the audit log', async () => {
    const w = await school();
    const set = await setQuotas(w.admin, 2 * GiB, 100 * MiB);
    expect(set).toMatchObject({ quota_bytes: 2 * GiB, student_quota_bytes: 100 * MiB, custom: { quota: true, student_quota: true } });
    expect(((await call('GET', '/api/storage/usage', w.student)).json() as StudentStorage).quota_bytes).toBe(100 * MiB);
    const back = await setQuotas(w.admin, null, null);
    expect(back).toMatchObject({ quota_bytes: 50 * GiB, student_quota_bytes: 1024 * MiB, custom: { quota: false, student_quota: false } });
    const log = await rows<{ action: string }>(t.db, sql`select action from audit_log where school_id = ${w.school.id} order by id`);
    expect(log.map((l) => l.action)).toEqual(['school.storage_quota', 'school.storage_quota']);
  });

  it('refuses a per-student quota above the school quota, and values out of range (422)', async () => {
    const w = await school();
    const above = await call('PUT', '/api/school/storage', w.admin, { quota_bytes: GiB, student_quota_bytes: 2 * GiB });
    expect(above.statusCode).toBe(422);
    expect(above.json().errors.student_quota_bytes[0]).toMatch(/nicht größer/);
    const tiny = await call('PUT', '/api/school/storage', w.admin, { quota_bytes: MiB, student_quota_bytes: null });
    expect(tiny.statusCode).toBe(422);
    expect(tiny.json().errors.quota_bytes).toBeDefined();
    const missing = await call('PUT', '/api/school/storage', w.admin, { quota_bytes: null });
    expect(missing.statusCode).toBe(422);
  });

  it('is refused to teachers and students (403) and guests (401); another school is never touched', async () => {
    const w = await school();
    const elsewhere = await school();
    for (const who of [w.teacher, w.student]) {
      expect((await call('GET', '/api/school/storage', who)).statusCode).toBe(403);
      expect((await call('PUT', '/api/school/storage', who, { quota_bytes: GiB, student_quota_bytes: null })).statusCode).toBe(403);
    }
    expect((await call('GET', '/api/school/storage', null)).statusCode).toBe(401);
    await setQuotas(elsewhere.admin, 3 * GiB, 60 * MiB);
    const mine = (await call('GET', '/api/school/storage', w.admin)).json() as SchoolStorage;
    expect(mine.custom).toEqual({ quota: false, student_quota: false });
  });
});

describe('uploads against the quotas', () => {
  it("refuses a recording past the student's quota with 413 storage_quota_student, and stores nothing", async () => {
    const w = await school();
    await setQuotas(w.admin, null, 50 * MiB);
    await storedRecording(w.student, w.teacher, 50 * MiB - 10_000);
    const sub = await task(w.student, w.teacher);
    const res = await upload(w.student, sub.id, wav, { 'accept-language': 'tr' });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ code: 'storage_quota_student', used_bytes: 50 * MiB - 10_000, quota_bytes: 50 * MiB });
    expect(res.json().message).toMatch(/depolama alanın dolu/);
    expect(await recordingCount(w.student.id)).toBe(1);
    expect(await tempFiles()).toEqual([]);
    // the other student of the same school still has room
    const theirs = await task(w.other, w.teacher);
    expect((await upload(w.other, theirs.id, wav)).statusCode).toBe(201);
  });

  it('accepts a recording that fits exactly, then refuses the next', async () => {
    const w = await school();
    await setQuotas(w.admin, null, 50 * MiB);
    await storedRecording(w.student, w.teacher, 50 * MiB - wav.length);
    const sub = await task(w.student, w.teacher);
    expect((await upload(w.student, sub.id, wav)).statusCode).toBe(201);
    const next = await upload(w.student, sub.id, wav);
    expect(next.statusCode).toBe(413);
    expect(next.json().message).toMatch(/Speicherplatz für Aufnahmen ist voll/);
  });

  it('refuses before the body by the declared Content-Length', async () => {
    const w = await school();
    await setQuotas(w.admin, null, 50 * MiB);
    await storedRecording(w.student, w.teacher, 45 * MiB);
    const sub = await task(w.student, w.teacher);
    // the body itself would fit: only the declared length is past the room
    const body = await multipart([['file', wav, 'aufnahme.wav', 'audio/wav']]);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/submissions/${sub.id}/recordings`,
      payload: body.payload,
      headers: { ...w.student.headers, ...body.headers, 'content-length': String(6 * MiB) },
    });
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().code).toBe('storage_quota_student');
    expect((await upload(w.student, sub.id, wav)).statusCode).toBe(201);
  });

  it("refuses past the school's quota (exercise media count) with 413 storage_quota_school, for students and teachers", async () => {
    const w = await school();
    await setQuotas(w.admin, GiB, null);
    await storedMedia(w.teacher, GiB - 100);
    const sub = await task(w.student, w.teacher);
    const res = await upload(w.student, sub.id, wav);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({ code: 'storage_quota_school', quota_bytes: GiB });

    const png = staffPng(60, 30);
    expect(png.length).toBeGreaterThan(100);
    const form = await multipart([
      ['title', 'Noten'],
      ['media_files[0]', png, 'noten.png', 'image/png'],
    ]);
    const ex = await t.app.inject({ method: 'POST', url: '/api/exercises', payload: form.payload, headers: { ...w.teacher.headers, ...form.headers } });
    expect(ex.statusCode, ex.body).toBe(413);
    expect(ex.json()).toMatchObject({ code: 'storage_quota_school' });
    expect(ex.json().errors.media_files[0]).toMatch(/Speicherplatz der Schule/);
    // an exercise without new media is not held up by a full school
    const plain = await multipart([['title', 'Nur Text']]);
    const ok = await t.app.inject({ method: 'POST', url: '/api/exercises', payload: plain.payload, headers: { ...w.teacher.headers, ...plain.headers } });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('parallel uploads near the quota: exactly those that fit are stored, none beyond', async () => {
    const w = await school();
    await setQuotas(w.admin, null, 50 * MiB);
    // room for two recordings and a half
    await storedRecording(w.student, w.teacher, 50 * MiB - Math.floor(2.5 * wav.length));
    const subs = await Promise.all([1, 2, 3, 4, 5].map(() => task(w.student, w.teacher)));
    const results = await Promise.all(subs.map((s) => upload(w.student, s.id, wav)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 413, 413, 413]);
    const [u] = await rows<{ used: string }>(t.db, sql`select sum(size) as used from recordings where student_id = ${w.student.id}`);
    expect(Number(u!.used)).toBeLessThanOrEqual(50 * MiB);
  });

  it("parallel uploads of different students near the school's quota do not overshoot it", async () => {
    const w = await school();
    await setQuotas(w.admin, GiB, null);
    await storedMedia(w.teacher, GiB - Math.floor(1.5 * wav.length));
    const subs = [await task(w.student, w.teacher), await task(w.other, w.teacher), await task(w.student, w.teacher)];
    const results = await Promise.all(subs.map((s, i) => upload(i === 1 ? w.other : w.student, s.id, wav)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 413, 413]);
  });
});

describe('the disk check before a write', () => {
  it('refuses with 507 insufficient_storage when the disk would keep less than the margin, and writes nothing', async () => {
    const w = await school();
    const sub = await task(w.student, w.teacher);
    // STORAGE_FREE_MARGIN_MB defaults to 512: a file needs its own size and 512 MiB free
    diskSpace.free = async () => 512 * MiB + 1000;
    const res = await upload(w.student, sub.id, wav);
    expect(res.statusCode, res.body).toBe(507);
    expect(res.json()).toMatchObject({ code: 'insufficient_storage' });
    expect(res.json().message).toMatch(/nicht genug Speicherplatz/);
    expect(await recordingCount(w.student.id)).toBe(0);
    expect(await tempFiles()).toEqual([]);

    const form = await multipart([
      ['title', 'Noten'],
      ['media_files[0]', staffPng(60, 30), 'noten.png', 'image/png'],
    ]);
    // checked before the body, by the declared length (here 100 KB more than the body)
    const ex = await t.app.inject({
      method: 'POST',
      url: '/api/exercises',
      payload: form.payload,
      headers: { ...w.teacher.headers, ...form.headers, 'content-length': String(form.payload.length + 100_000) },
    });
    expect(ex.statusCode, ex.body).toBe(507);

    diskSpace.free = async () => 600 * MiB;
    expect((await upload(w.student, sub.id, wav)).statusCode).toBe(201);
  });

  it('reads the real free space of the media folder (statfs)', async () => {
    expect(await realFree(join(t.deps.mediaDir, 'not-made-yet'))).toBeGreaterThan(0);
  });
});

describe('the settings', () => {
  it('default to 1 GiB per student, 50 GB per school and a 512 MB margin, and refuse bad values at start', () => {
    const c = loadConfig({});
    expect([c.STORAGE_QUOTA_STUDENT_MB, c.STORAGE_QUOTA_SCHOOL_GB, c.STORAGE_FREE_MARGIN_MB]).toEqual([1024, 50, 512]);
    expect(loadConfig({ STORAGE_QUOTA_STUDENT_MB: '200', STORAGE_QUOTA_SCHOOL_GB: '500', STORAGE_FREE_MARGIN_MB: '0' })).toMatchObject({
      STORAGE_QUOTA_STUDENT_MB: 200,
      STORAGE_QUOTA_SCHOOL_GB: 500,
      STORAGE_FREE_MARGIN_MB: 0,
    });
    for (const [key, bad] of [
      ['STORAGE_QUOTA_STUDENT_MB', '10'],
      ['STORAGE_QUOTA_STUDENT_MB', '1.5'],
      ['STORAGE_QUOTA_SCHOOL_GB', '0'],
      ['STORAGE_QUOTA_SCHOOL_GB', 'viel'],
      ['STORAGE_FREE_MARGIN_MB', '-1'],
    ] as const)
      expect(() => loadConfig({ [key]: bad }), `${key}=${bad}`).toThrow(ConfigError);
  });
});
