import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUICK_REPLY_LIMITS, type NewFeedbackResponse, type QuickReply, type Recording, type RecordingComment } from '@contract/recordings';
import type { GuardianChildrenResponse } from '@contract/guardians';
import { rows } from '../../db/client';
import { multipart } from '../../test/authz-world';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { staffPng } from '../media/sample-files';
import { runRetention } from './recordings.service';
import { id3Alone, wavWithFact } from '../../test/hostile-media';
import { makeWav, makeWebm } from './sample-recordings';

/**
 * Spoken comments and saved quick replies (docs/decisions/spoken-comments-and-quick-replies.md),
 * through the real routes on PGlite: who may record, who may play, what is refused, and that a
 * clip lives and dies with its take (retention sweep, the student's delete, export, erasure).
 */

let t: TestApp;
let teacher: TestUser;
let student: TestUser;
let otherTeacher: TestUser;
let otherStudent: TestUser;
let parent: TestUser;
let otherParent: TestUser;
let admin: TestUser;

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await setupTestApp();
  teacher = await t.teacher({ name: 'Frau Stimme' });
  otherTeacher = await t.teacher();
  student = await t.student(teacher, { name: 'Ada Hörer' });
  otherStudent = await t.student(teacher);
  parent = await t.guardian([student]);
  otherParent = await t.guardian([otherStudent]);
  admin = await t.admin();
});
afterAll(async () => {
  await t.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, headers: who ? who.headers : {}, ...(payload !== undefined ? { payload: payload as object } : {}) });

async function take(): Promise<Recording> {
  const e = await t.exercise(teacher);
  const s = await t.submission(student, teacher, e, { dueDate: inDays(2), expirationDate: inDays(9) });
  const body = await multipart([['file', makeWav(5000), 'take.wav', 'audio/wav']]);
  const res = await t.app.inject({ method: 'POST', url: `/api/submissions/${s.id}/recordings`, payload: body.payload, headers: { ...student.headers, ...body.headers } });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Recording;
}

async function speak(recordingId: number, file: Buffer | null, o: { as?: TestUser; fields?: Array<[string, string]>; name?: string; type?: string } = {}) {
  const parts: Array<[string, string] | [string, Uint8Array, string, string?]> = [...(o.fields ?? [])];
  if (file) parts.push(['file', file, o.name ?? 'kommentar.wav', o.type ?? 'audio/wav']);
  const body = await multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: `/api/recordings/${recordingId}/voice-comments`,
    payload: body.payload,
    headers: { ...(o.as ?? teacher).headers, ...body.headers },
  });
}

// in the media store the test runs on (a folder, or S3 with TEST_MEDIA_STORE=s3)
const onDisk = (path: string) => t.stored(path);

describe('POST /api/recordings/{id}/voice-comments', () => {
  it('pins a clip at a moment; the student, the teacher and the parent play it, nobody else learns of it', async () => {
    const r = await take();
    const res = await speak(r.id, makeWav(4000), { fields: [['at_ms', '2500'], ['text', '  Hör hier genau hin  ']] });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json() as RecordingComment;
    expect(c).toMatchObject({ recording_id: r.id, at_ms: 2500, text: 'Hör hier genau hin', teacher: { id: teacher.id, name: 'Frau Stimme' } });
    expect(c.audio).toMatchObject({ mime_type: 'audio/wav', duration_ms: 4000, size: makeWav(4000).length });
    expect(c.audio!.path).toMatch(new RegExp(`^recordings/${r.submission_id}/c[a-f0-9]{32}\\.wav$`));
    expect(await onDisk(c.audio!.path)).toBe(true);

    // the comment list of every reader carries the clip
    const forStudent = (await call('GET', `/api/recordings/${r.id}`, student)).json() as Recording;
    expect(forStudent.comments.map((x) => x.audio?.path)).toEqual([c.audio!.path]);
    expect(forStudent.new_feedback).toBe(true);

    const link = (who: TestUser) => call('GET', `/api/media/${encodeURIComponent(c.audio!.path)}`, who);
    for (const who of [student, teacher, parent]) {
      const l = await link(who);
      expect(l.statusCode, l.body).toBe(200);
      const file = await t.app.inject({ method: 'GET', url: (l.json() as { url: string }).url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('audio/wav');
      expect(file.headers['content-disposition']).toMatch(/kommentar-\d+\.wav/);
      expect(file.rawPayload.equals(makeWav(4000))).toBe(true);
    }
    const missing = await call('GET', `/api/media/${encodeURIComponent(`recordings/${r.submission_id}/c${'0'.repeat(32)}.wav`)}`, teacher);
    expect(missing.statusCode).toBe(404);
    for (const who of [otherStudent, otherTeacher, otherParent]) {
      const l = await link(who);
      expect(l.statusCode).toBe(404);
      expect(l.body).toBe(missing.body);
    }
    expect((await link(admin)).statusCode).toBe(403);
    expect((await call('GET', `/api/media/${encodeURIComponent(c.audio!.path)}`, null)).statusCode).toBe(401);
  });

  it('takes a general remark without words; only the take’s own teacher records, others get the same 404 as none', async () => {
    const r = await take();
    const res = await speak(r.id, makeWav(1500));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ at_ms: null, text: '' });

    const none = await speak(2147483000, makeWav(1500));
    expect(none.statusCode).toBe(404);
    const foreign = await speak(r.id, makeWav(1500), { as: otherTeacher });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(none.body);
    for (const who of [student, parent, admin]) expect((await speak(r.id, makeWav(1500), { as: who })).statusCode).toBe(403);
    const [n] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recording_comments where recording_id = ${r.id}`);
    expect(n!.n).toBe(1);
  });

  it('refuses an oversized, overlong, video, hostile or empty clip, and a moment past the take, with clear messages, leaving nothing', async () => {
    const r = await take();
    const before = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recording_comments`);

    const big = await speak(r.id, makeWav(200_000));
    expect(big.statusCode).toBe(413);
    expect(big.json().message).toBe('Der gesprochene Kommentar ist zu groß (max. 3 MB).');

    const long = await speak(r.id, makeWav(61_000));
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.file[0]).toBe('Der gesprochene Kommentar ist zu lang (max. 60 Sekunden).');

    const video = await speak(r.id, makeWebm({ video: true, durationMs: 2000 }), { name: 'x.webm', type: 'video/webm' });
    expect(video.statusCode).toBe(422);
    expect(video.json().errors.file[0]).toBe('Ein gesprochener Kommentar muss eine Tonaufnahme sein, kein Video.');

    const png = await speak(r.id, staffPng(40, 20), { name: 'kommentar.wav', type: 'audio/wav' });
    expect(png.statusCode).toBe(422);
    expect(png.json().errors.file[0]).toBe('Dateityp image/png wird für gesprochene Kommentare nicht unterstützt');

    const trBody = await multipart([['file', makeWav(61_000), 'k.wav', 'audio/wav']]);
    const tr = await t.app.inject({
      method: 'POST',
      url: `/api/recordings/${r.id}/voice-comments?language=tr`,
      payload: trBody.payload,
      headers: { ...teacher.headers, ...trBody.headers },
    });
    expect(tr.json().errors.file[0]).toBe('Sesli yorum çok uzun (en fazla 60 saniye).');

    expect((await speak(r.id, Buffer.alloc(0))).statusCode).toBe(422);
    expect((await speak(r.id, null, { fields: [['text', 'nur Text']] })).json().errors.file[0]).toBe('Bitte nehmen Sie einen gesprochenen Kommentar auf.');
    const past = await speak(r.id, makeWav(1000), { fields: [['at_ms', '9000']] });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors.at_ms[0]).toMatch(/nach dem Ende der Aufnahme/);
    const unknown = await speak(r.id, makeWav(1000), { fields: [['message', 'x']] });
    expect(unknown.statusCode).toBe(422);

    const after = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recording_comments`);
    expect(after[0]!.n).toBe(before[0]!.n);
    const files = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recording_comments where audio_path is not null and recording_id = ${r.id}`);
    expect(files[0]!.n).toBe(0);
  });

  it('measures a clip from its data as a take is (a fact chunk claiming 1 s of 300 s), and refuses clips that are not audio, in German and Turkish', async () => {
    const r = await take();
    const before = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recording_comments where recording_id = ${r.id}`);
    const forged = wavWithFact({ seconds: 300, factSamples: 8000 });
    expect(forged.length).toBeLessThan(3 * 1024 * 1024);
    const long = await speak(r.id, forged, { fields: [['duration_ms', '1000']] });
    expect(long.statusCode, long.body).toBe(422);
    expect(long.json().errors.file[0]).toBe('Der gesprochene Kommentar ist zu lang (max. 60 Sekunden).');
    // the same bytes as a take: stored at the length it plays
    const s = await t.submission(student, teacher, await t.exercise(teacher), { dueDate: inDays(2), expirationDate: inDays(9) });
    const body = await multipart([['file', forged, 'take.wav', 'audio/wav']]);
    const asTake = await t.app.inject({ method: 'POST', url: `/api/submissions/${s.id}/recordings`, payload: body.payload, headers: { ...student.headers, ...body.headers } });
    expect(asTake.statusCode, asTake.body).toBe(201);
    expect((asTake.json() as Recording).duration_ms).toBe(300_000);

    const notAudio: Array<[string, Buffer, string, string]> = [
      ['0 channels', wavWithFact({ seconds: 5, factSamples: 40_000, channels: 0 }), 'audio/wav', 'kommentar.wav'],
      ['0 Hz', wavWithFact({ seconds: 5, factSamples: 40_000, rate: 0 }), 'audio/wav', 'kommentar.wav'],
      ['an ID3 tag alone', id3Alone(), 'audio/mpeg', 'kommentar.mp3'],
    ];
    for (const [what, bytes, type, name] of notAudio) {
      const de = await speak(r.id, bytes, { name, type, fields: [['duration_ms', '2000']] });
      expect(de.statusCode, what).toBe(422);
      expect(de.json().errors.file[0], what).toBe(`Dateityp ${type} wird für gesprochene Kommentare nicht unterstützt`);
      const trBody = await multipart([['duration_ms', '2000'], ['file', bytes, name, type]]);
      const tr = await t.app.inject({ method: 'POST', url: `/api/recordings/${r.id}/voice-comments?language=tr`, payload: trBody.payload, headers: { ...teacher.headers, ...trBody.headers } });
      expect(tr.statusCode, what).toBe(422);
      expect(tr.json().errors.file[0], what).toBe(`${type} dosya türü sesli yorumlar için desteklenmiyor`);
    }
    const after = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recording_comments where recording_id = ${r.id}`);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("counts in the school's quota: past it 413 storage_quota_school, nothing stored", async () => {
    const r = await take();
    const [u] = await rows<{ n: string }>(
      t.db,
      sql`select ((select coalesce(sum(size), 0) from recordings where school_id = ${teacher.schoolId}) + (select coalesce(sum(audio_size), 0) from recording_comments where school_id = ${teacher.schoolId}) + (select coalesce(sum(size), 0) from media_files where school_id = ${teacher.schoolId}))::text as n`,
    );
    const used = Number(u!.n);
    // room for a second of 8 kHz WAV, not for four
    await t.db.execute(sql`update schools set storage_quota_bytes = ${used + 20_000}, student_quota_bytes = ${used + 20_000} where id = ${teacher.schoolId}`);
    try {
      const res = await speak(r.id, makeWav(4000));
      expect(res.statusCode, res.body).toBe(413);
      expect(res.json()).toMatchObject({ code: 'storage_quota_school' });
      const small = await speak(r.id, makeWav(500));
      expect(small.statusCode, small.body).toBe(201);
      // the clip now counts: the student's usage card sees the school fuller
      const usage = (await call('GET', '/api/storage/usage', student)).json() as { available_bytes: number };
      expect(usage.available_bytes).toBeLessThan(20_000 - makeWav(500).length + 1);
    } finally {
      await t.db.execute(sql`update schools set storage_quota_bytes = null, student_quota_bytes = null where id = ${teacher.schoolId}`);
    }
  });

  it('a clip goes with its comment, with its take (the student’s delete), and survives the daily orphan sweep while its row lives', async () => {
    const r = await take();
    const keep = (await speak(r.id, makeWav(1000))).json() as RecordingComment;
    const drop = (await speak(r.id, makeWav(1000))).json() as RecordingComment;
    expect((await call('DELETE', `/api/recording-comments/${drop.id}`, teacher)).statusCode).toBe(204);
    expect(await onDisk(drop.audio!.path)).toBe(false);

    // older than an hour (the sweep runs three hours on), named by a row: the sweep leaves it
    await runRetention(t.db, t.app.deps.storage, 365, t.app.log, new Date(Date.now() + 3 * 3600_000));
    expect(await onDisk(keep.audio!.path)).toBe(true);

    expect((await call('DELETE', `/api/recordings/${r.id}`, student)).statusCode).toBe(204);
    expect(await onDisk(keep.audio!.path)).toBe(false);
  });

  it('retention removes a clip with its expired take', async () => {
    const r = await take();
    const c = (await speak(r.id, makeWav(1000))).json() as RecordingComment;
    await t.db.execute(sql`update recordings set created_at = now() - interval '400 days' where id = ${r.id}`);
    const result = await runRetention(t.db, t.app.deps.storage, 365, t.app.log);
    expect(result.deleted).toBeGreaterThanOrEqual(1);
    expect(await onDisk(c.audio!.path)).toBe(false);
    expect(await onDisk(r.path)).toBe(false);
  });

  it("is part of the student's export and erased with the student", async () => {
    const st = await t.student(teacher, { name: 'Export Stimme' });
    const e = await t.exercise(teacher);
    const s = await t.submission(st, teacher, e, { dueDate: inDays(1), expirationDate: inDays(9) });
    const body = await multipart([['file', makeWav(3000), 'take.wav', 'audio/wav']]);
    const up = await t.app.inject({ method: 'POST', url: `/api/submissions/${s.id}/recordings`, payload: body.payload, headers: { ...st.headers, ...body.headers } });
    const r = up.json() as Recording;
    const c = (await speak(r.id, makeWav(1200), { fields: [['at_ms', '1000']] })).json() as RecordingComment;

    const exp = await call('GET', `/api/school/students/${st.id}/export`, admin);
    expect(exp.statusCode).toBe(200);
    const names = zipNames(exp.rawPayload);
    expect(names).toContain(`recordings/${r.id}-kommentar-${c.id}.wav`);
    expect(exp.rawPayload.includes(makeWav(1200))).toBe(true);

    const erased = await call('POST', `/api/school/students/${st.id}/erase`, admin, { confirm_name: 'Export Stimme' });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(await onDisk(c.audio!.path)).toBe(false);
    expect(await rows(t.db, sql`select id from recording_comments where id = ${c.id}`)).toEqual([]);
  });
});

/** The names of a zip's central directory (stored entries only need the names here). */
function zipNames(buf: Buffer): string[] {
  const names: string[] = [];
  for (let i = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])), off = buf.readUInt32LE(i + 16), n = buf.readUInt16LE(i + 10); n > 0; n--) {
    const len = buf.readUInt16LE(off + 28);
    names.push(buf.subarray(off + 46, off + 46 + len).toString('utf8'));
    off += 46 + len + buf.readUInt16LE(off + 30) + buf.readUInt16LE(off + 32);
  }
  return names;
}

describe('"Neues Feedback" lands on the moment', () => {
  it('names the take with the newest feedback and its newest comment, for the student and the parent; another parent sees nothing of it', async () => {
    const first = await take();
    const second = await take();
    await call('POST', `/api/recordings/${first.id}/comments`, teacher, { at_ms: 1000, text: 'früher' });
    const c = (await call('POST', `/api/recordings/${second.id}/comments`, teacher, { at_ms: 3200, text: 'hier' })).json() as RecordingComment;
    t.forgetReads();
    const fb = (await call('GET', '/api/recordings/new-feedback/count', student)).json() as NewFeedbackResponse;
    expect(fb.count).toBeGreaterThanOrEqual(2);
    expect(fb.latest).toEqual({ recording_id: second.id, submission_id: second.submission_id, comment_id: c.id, at_ms: 3200 });

    const kids = (await call('GET', '/api/guardian/children', parent)).json() as GuardianChildrenResponse;
    expect(kids.data.find((k) => k.id === student.id)?.new_feedback_latest).toEqual(fb.latest);
    const others = (await call('GET', '/api/guardian/children', otherParent)).json() as GuardianChildrenResponse;
    expect(others.data.map((k) => k.id)).toEqual([otherStudent.id]);
    expect(JSON.stringify(others)).not.toContain(`"recording_id":${second.id}`);
    expect((await call('GET', `/api/guardian/children/${student.id}`, otherParent)).statusCode).toBe(404);

    // seen: nothing new, nowhere to land
    await t.db.execute(sql`update recordings set seen_at = now() + interval '1 minute' where student_id = ${student.id}`);
    t.forgetReads();
    expect((await call('GET', '/api/recordings/new-feedback/count', student)).json()).toEqual({ count: 0, latest: null });
  });
});

describe('saved quick replies', () => {
  it('are the teacher’s own: saved, listed, changed and deleted by their owner only', async () => {
    const me = await t.teacher();
    const res = await call('POST', '/api/quick-replies', me, { text: '  Schöner Ton! Achte auf den Bogen.  ' });
    expect(res.statusCode, res.body).toBe(201);
    const q = res.json() as QuickReply;
    expect(q.text).toBe('Schöner Ton! Achte auf den Bogen.');
    expect((await call('GET', '/api/quick-replies', me)).json().data).toEqual([q]);
    expect((await call('GET', '/api/quick-replies', otherTeacher)).json().data).not.toContainEqual(q);

    const none = await call('PATCH', '/api/quick-replies/2147483000', me, { text: 'x' });
    expect(none.statusCode).toBe(404);
    const foreign = await call('PATCH', `/api/quick-replies/${q.id}`, otherTeacher, { text: 'gekapert' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(none.body);
    expect((await call('DELETE', `/api/quick-replies/${q.id}`, otherTeacher)).statusCode).toBe(404);
    for (const who of [student, parent, admin]) expect((await call('GET', '/api/quick-replies', who)).statusCode).toBe(403);
    expect((await call('GET', '/api/quick-replies', null)).statusCode).toBe(401);

    const changed = await call('PATCH', `/api/quick-replies/${q.id}`, me, { text: 'Gut gezählt!' });
    expect(changed.json()).toMatchObject({ id: q.id, text: 'Gut gezählt!' });
    expect((await call('DELETE', `/api/quick-replies/${q.id}`, me)).statusCode).toBe(204);
    expect((await call('GET', '/api/quick-replies', me)).json().data).toEqual([]);
  });

  it(`holds at most ${QUICK_REPLY_LIMITS.perTeacher} replies of at most ${QUICK_REPLY_LIMITS.maxChars} characters`, async () => {
    const me = await t.teacher();
    expect((await call('POST', '/api/quick-replies', me, { text: 'x'.repeat(501) })).statusCode).toBe(422);
    expect((await call('POST', '/api/quick-replies', me, { text: '   ' })).statusCode).toBe(422);
    expect((await call('POST', '/api/quick-replies', me, { text: 'x'.repeat(500) })).statusCode).toBe(201);
    for (let i = 1; i < QUICK_REPLY_LIMITS.perTeacher; i++) expect((await call('POST', '/api/quick-replies', me, { text: `Antwort ${i}` })).statusCode).toBe(201);
    const full = await call('POST', '/api/quick-replies', me, { text: 'eine zu viel' });
    expect(full.statusCode).toBe(422);
    expect(full.json().message).toBe('Sie können höchstens 50 Schnellantworten speichern. Bitte löschen Sie zuerst eine.');
    // another teacher is not held up by it
    expect((await call('POST', '/api/quick-replies', otherTeacher, { text: 'frei' })).statusCode).toBe(201);
  });
});
