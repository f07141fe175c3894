import { existsSync } from 'node:fs';
import { mkdir, readdir, utimes, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDING_LIMITS, type InboxResponse, type Recording, type RecordingComment } from '@contract/recordings';
import { rows } from '../../db/client';
import { LocalStorage } from '../../lib/storage';
import { multipart } from '../../test/authz-world';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { staffPng } from '../media/sample-files';
import { ConfigError, loadConfig } from '../../config';
import { spaceCommand, spaceReport } from '../../cli/space';
import { runRetention } from './recordings.service';
import { makeMp3, makeMp4, makeOggOpus, makeWav, makeWebm } from './sample-recordings';
import { tinyWebmDeclaring } from '../../test/hostile-media';

let t: TestApp;
let teacher: TestUser;
let student: TestUser;
let sibling: TestUser;
let otherTeacher: TestUser;
let otherStudent: TestUser;
let course: { id: number };

const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await setupTestApp();
  teacher = await t.teacher({ name: 'Frau Klang' });
  otherTeacher = await t.teacher();
  course = await t.course(teacher);
  student = await t.student(teacher, { name: 'Ada Aufnahme', courseIds: [course.id] });
  sibling = await t.student(teacher, { courseIds: [course.id] });
  otherStudent = await t.student(otherTeacher);
});
afterAll(async () => {
  await t.close();
});

async function task(o: { student?: TestUser; courseId?: number | null; dueDate?: string; expirationDate?: string | null; completedAt?: Date | null } = {}) {
  const e = await t.exercise(teacher);
  return t.submission(o.student ?? student, teacher, e, {
    courseId: o.courseId === undefined ? course.id : o.courseId,
    dueDate: o.dueDate ?? inDays(2),
    expirationDate: o.expirationDate === undefined ? inDays(9) : o.expirationDate,
    completedAt: o.completedAt ?? null,
  });
}

type Part = [string, string] | [string, Uint8Array, string, string?];

async function upload(submissionId: number, file: Buffer | null, o: { as?: TestUser | null; name?: string; type?: string; fields?: Array<[string, string]> } = {}) {
  const parts: Part[] = [...(o.fields ?? [])];
  if (file) parts.push(['file', file, o.name ?? 'aufnahme.wav', o.type ?? 'audio/wav']);
  const body = await multipart(parts);
  const who = o.as === undefined ? student : o.as;
  return t.app.inject({
    method: 'POST',
    url: `/api/submissions/${submissionId}/recordings`,
    payload: body.payload,
    headers: { ...(who ? who.headers : {}), ...body.headers },
  });
}

async function send(submissionId: number, file: Buffer = makeWav(3000), o: Parameters<typeof upload>[2] = {}): Promise<Recording> {
  const res = await upload(submissionId, file, o);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Recording;
}

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, who: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, headers: who ? who.headers : {}, ...(payload !== undefined ? { payload: payload as object } : {}) });

/** Every file under the media folder's recordings/ and tmp/ (what a refused upload must not leave). */
async function leftovers(): Promise<string[]> {
  const out: string[] = [];
  async function walk(dir: string, rel: string) {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (e.isDirectory()) await walk(join(dir, e.name), `${rel}${e.name}/`);
      else out.push(`${rel}${e.name}`);
    }
  }
  await walk(join(t.deps.mediaDir, 'tmp'), 'tmp/');
  // the media store: the folder, or the bucket with TEST_MEDIA_STORE=s3
  out.push(...(await t.storedFiles('recordings')));
  return out.sort();
}
async function recordingRows(submissionId: number): Promise<number> {
  const [r] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recordings where submission_id = ${submissionId}`);
  return Number(r?.n ?? 0);
}
const onDisk = (path: string) => t.stored(path);

describe('sending a recording', () => {
  it('stores a WAV with its length read from the file, the message, and the file under recordings/{task}/', async () => {
    const s = await task();
    const r = await send(s.id, makeWav(3000), { fields: [['message', '  Takt 12 klappt noch nicht  ']] });
    expect(r).toMatchObject({ submission_id: s.id, kind: 'audio', mime_type: 'audio/wav', duration_ms: 3000, message: 'Takt 12 klappt noch nicht', answered_at: null, new_feedback: false, comments: [] });
    expect(r.student).toEqual({ id: student.id, name: 'Ada Aufnahme' });
    expect(r.exercise_title).toBe(s.exerciseTitle);
    expect(r.path).toMatch(new RegExp(`^recordings/${s.id}/[a-f0-9]{32}\\.wav$`));
    expect(await onDisk(r.path)).toBe(true);
    expect(await leftovers()).not.toContainEqual(expect.stringMatching(/^tmp\//));
  });

  it('reads the type from the bytes: mp3, Ogg Opus, WebM audio and video, MP4 audio and video, QuickTime', async () => {
    const s = await task();
    const cases: Array<[Buffer, string, string, number | null, Array<[string, string]>?]> = [
      [makeMp3(2000), 'audio/mpeg', 'audio', 2012],
      [makeOggOpus(4000), 'audio/ogg', 'audio', 4000],
      [makeWebm({ lengthMs: 3000, padding: 200 }), 'audio/webm', 'audio', 3000],
      [makeWebm({ video: true, lengthMs: 2500, padding: 200 }), 'video/webm', 'video', 2500],
      [makeWebm({ durationMs: 4200, padding: 5000 }), 'audio/webm', 'audio', 4200],
      [makeMp4({ padding: 50_000 }), 'audio/mp4', 'audio', 7000, [['duration_ms', '7000']]],
      [makeMp4({ video: true, padding: 50_000 }), 'video/mp4', 'video', 9000, [['duration_ms', '9000']]],
      [makeMp4({ video: true, brand: 'qt  ', padding: 50_000 }), 'video/quicktime', 'video', 1500, [['duration_ms', '1500']]],
    ];
    for (const [bytes, mime, kind, duration, fields] of cases) {
      // the name and the declared type say something else: only the bytes count
      const r = await send(s.id, bytes, { name: 'x.txt', type: 'text/plain', ...(fields ? { fields } : {}) });
      expect(r.mime_type, mime).toBe(mime);
      expect(r.kind, mime).toBe(kind);
      if (duration !== null) expect(Math.abs(r.duration_ms - duration), mime).toBeLessThan(30);
    }
  });

  it("takes the recorder's length only where the file has none, and never beyond what the size allows", async () => {
    const s = await task();
    const webm = makeWebm(); // one block at 0: the file tells no length
    const missing = await upload(s.id, webm, { type: 'audio/webm' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.duration_ms).toHaveLength(1);
    // 10 minutes claimed for a few hundred bytes: at most size / 1,000 B/s
    const capped = await send(s.id, webm, { fields: [['duration_ms', String(600_000)]] });
    expect(capped.duration_ms).toBeLessThanOrEqual(Math.ceil((webm.length / RECORDING_LIMITS.minBytesPerSecond) * 1000));
    // one second claimed for 3 MB of audio: at least size / 80,000 B/s
    const big = makeWebm({ padding: 3_000_000 });
    const floored = await send(s.id, big, { fields: [['duration_ms', '1000']] });
    expect(floored.duration_ms).toBeGreaterThanOrEqual(Math.floor((big.length / RECORDING_LIMITS.audioMaxBytesPerSecond) * 1000));
    // the file's own length wins over the recorder's
    const own = await send(s.id, makeWav(1500), { fields: [['duration_ms', '999999']] });
    expect(own.duration_ms).toBe(1500);
  });

  it('does not believe a length the file declares but its size cannot carry (a 62-byte WebM saying 19:59)', async () => {
    const s = await task();
    const tiny = tinyWebmDeclaring((19 * 60 + 59) * 1000);
    expect(tiny.length).toBe(62);
    // without the recorder's length: as for a file that tells none
    const bare = await upload(s.id, tiny, { type: 'audio/webm' });
    expect(bare.statusCode, bare.body).toBe(422);
    expect(bare.json().errors.duration_ms).toHaveLength(1);
    // with it: the recorder's, kept within what 62 bytes allow at 1,000 B/s (62 ms)
    const claimed = await send(s.id, tiny, { fields: [['duration_ms', String((19 * 60 + 59) * 1000)]] });
    expect(claimed.duration_ms).toBeLessThanOrEqual(62);
    // a declared length the size can carry still counts
    const plausible = makeWebm({ durationMs: 4200, padding: 5000 });
    expect((await send(s.id, plausible, { fields: [['duration_ms', '1000']] })).duration_ms).toBe(4200);
    expect(await recordingRows(s.id)).toBe(2);
  });

  it('refuses other types with the message of RECORDINGS.md, leaving no file and no row', async () => {
    const s = await task();
    const before = await leftovers();
    const text = await upload(s.id, Buffer.from('Das ist keine Aufnahme, nur Text.\n'.repeat(50)), { name: 'take.webm', type: 'text/plain' });
    expect(text.statusCode).toBe(422);
    expect(text.json().message).toBe('Dateityp text/plain wird für Aufnahmen nicht unterstützt');
    expect(text.json().errors.file).toEqual(['Dateityp text/plain wird für Aufnahmen nicht unterstützt']);
    const png = await upload(s.id, staffPng(40, 20), { name: 'take.webm', type: 'video/webm' });
    expect(png.statusCode).toBe(422);
    expect(png.json().message).toBe('Dateityp image/png wird für Aufnahmen nicht unterstützt');
    const tr = await t.app.inject({
      ...(await (async () => {
        const b = await multipart([['file', staffPng(10, 10), 'a.webm', 'video/webm']]);
        return { payload: b.payload, headers: { ...student.headers, ...b.headers, 'accept-language': 'tr' } };
      })()),
      method: 'POST',
      url: `/api/submissions/${s.id}/recordings`,
    });
    expect(tr.json().message).toBe('image/png dosya türü kayıtlar için desteklenmiyor');
    const empty = await upload(s.id, Buffer.alloc(0));
    expect(empty.statusCode).toBe(422);
    const none = await upload(s.id, null, { fields: [['message', 'ohne Datei']] });
    expect(none.statusCode).toBe(422);
    const two = await multipart([
      ['file', makeWav(500), 'a.wav', 'audio/wav'],
      ['file', makeWav(500), 'b.wav', 'audio/wav'],
    ]);
    const twoRes = await t.app.inject({ method: 'POST', url: `/api/submissions/${s.id}/recordings`, payload: two.payload, headers: { ...student.headers, ...two.headers } });
    expect(twoRes.statusCode).toBe(422);
    const unknown = await upload(s.id, makeWav(500), { fields: [['teacher_id', '1']] });
    expect(unknown.statusCode).toBe(422);
    const longMessage = await upload(s.id, makeWav(500), { fields: [['message', 'x'.repeat(501)]] });
    expect(longMessage.statusCode).toBe(422);
    const notMultipart = await call('POST', `/api/submissions/${s.id}/recordings`, student, { file: 'x' });
    expect(notMultipart.statusCode).toBe(415);
    expect(await recordingRows(s.id)).toBe(0);
    expect(await leftovers()).toEqual(before);
  });

  it('refuses a recording over the length limit: audio 20 minutes, video 5 minutes', async () => {
    const s = await task();
    const audio = await upload(s.id, makeWebm({ durationMs: 20 * 60_000 + 1000, padding: 1_300_000 }), { type: 'audio/webm' });
    expect(audio.statusCode).toBe(422);
    expect(audio.json().message).toBe('Die Aufnahme ist zu lang (max. 20 Minuten).');
    const video = await upload(s.id, makeWebm({ video: true, durationMs: 5 * 60_000 + 1000, padding: 310_000 }), { type: 'video/webm' });
    expect(video.statusCode).toBe(422);
    expect(video.json().message).toBe('Die Aufnahme ist zu lang (max. 5 Minuten).');
    // exactly at the limit is fine
    await send(s.id, makeWebm({ video: true, durationMs: 5 * 60_000, padding: 310_000 }));
    // a claimed length over the limit, within what the size allows
    const claimed = await upload(s.id, makeWebm({ padding: 2_000_000 }), { fields: [['duration_ms', String(21 * 60_000)]] });
    expect(claimed.statusCode).toBe(422);
    expect(await recordingRows(s.id)).toBe(1);
  });

  it('stops a file over 50 MiB while streaming (413) and keeps nothing', async () => {
    const s = await task();
    const before = await leftovers();
    const header = makeWav(1000);
    const big = Buffer.concat([header, Buffer.alloc(RECORDING_LIMITS.maxBytes + 1 - header.length, 1)]);
    expect(big.length).toBe(52_428_801);
    const res = await upload(s.id, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('Die Aufnahme ist zu groß (max. 50 MB).');
    expect(await recordingRows(s.id)).toBe(0);
    expect(await leftovers()).toEqual(before);
    // exactly 50 MiB passes the size check (its length then decides)
    const exact = await upload(s.id, big.subarray(0, RECORDING_LIMITS.maxBytes), { fields: [] });
    expect(exact.statusCode).not.toBe(413);
  });

  it('leaves no file and no row when the body is cut off at any point', async () => {
    const s = await task();
    const before = await leftovers();
    const body = await multipart([
      ['message', 'abgeschnitten'],
      ['file', makeWav(4000), 'take.wav', 'audio/wav'],
    ]);
    const full = body.payload;
    // every cut up to the closing delimiter's `--` (the CRLF after it is the optional epilogue: a body without it is whole)
    const cuts = [1, 10, 40, 80, 120, 200, 300, 1000, 5000, 20_000, 40_000, full.length - 60, full.length - 40, full.length - 10, full.length - 5, full.length - 4, full.length - 3];
    for (const cut of cuts) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/submissions/${s.id}/recordings`,
        payload: full.subarray(0, cut),
        headers: { ...student.headers, ...body.headers },
      });
      expect(res.statusCode, `cut at ${cut}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `cut at ${cut}`).toBeLessThan(500);
    }
    expect(await recordingRows(s.id)).toBe(0);
    expect(await leftovers()).toEqual(before);
  });

  it('leaves nothing behind when the connection drops mid-upload (a real socket)', async () => {
    const s = await task();
    const before = await leftovers();
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const body = await multipart([['file', Buffer.concat([makeWav(1000), Buffer.alloc(3_000_000, 3)]), 'take.wav', 'audio/wav']]);
    for (const cut of [200, 100_000, 1_500_000]) {
      await new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /api/submissions/${s.id}/recordings HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${student.headers.authorization}\r\n` +
              `Content-Type: ${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\n\r\n`,
          );
          socket.write(body.payload.subarray(0, cut), () => setTimeout(() => socket.destroy(), 100));
        });
        socket.on('close', () => resolve());
        socket.on('error', () => resolve());
      });
    }
    // the server notices the dropped connections and cleans up
    for (let i = 0; i < 50 && (await leftovers()).length !== before.length; i++) await new Promise((r) => setTimeout(r, 50));
    expect(await leftovers()).toEqual(before);
    expect(await recordingRows(s.id)).toBe(0);
  });

  it('refuses the 21st recording of a task with a message saying so', async () => {
    const s = await task();
    await send(s.id);
    await t.db.execute(sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms)
      select ${s.id}, ${student.id}, ${teacher.id}, 'audio', 'audio/wav', 'recordings/${sql.raw(String(s.id))}/' || md5(g::text) || '.wav', 'x.wav', 10, 1000
      from generate_series(1, 19) g`);
    expect(await recordingRows(s.id)).toBe(20);
    const res = await upload(s.id, makeWav(500));
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toMatch(/höchstens 20 Aufnahmen/);
    expect(await recordingRows(s.id)).toBe(20);
  });

  it('takes recordings of open, overdue and completed tasks, not of expired ones (409)', async () => {
    const overdue = await task({ dueDate: inDays(-2), expirationDate: inDays(3) });
    await send(overdue.id);
    const done = await task({ completedAt: new Date() });
    await send(done.id);
    const expired = await task({ dueDate: inDays(-5), expirationDate: inDays(-1) });
    const res = await upload(expired.id, makeWav(500));
    expect(res.statusCode).toBe(409);
    expect(await recordingRows(expired.id)).toBe(0);
  });

  it('is the owning student’s call only: another student 404, a teacher 403, a guest 401', async () => {
    const s = await task();
    expect((await upload(s.id, makeWav(500), { as: sibling })).statusCode).toBe(404);
    expect((await upload(s.id, makeWav(500), { as: otherStudent })).statusCode).toBe(404);
    expect((await upload(s.id, makeWav(500), { as: teacher })).statusCode).toBe(403);
    expect((await upload(s.id, makeWav(500), { as: null })).statusCode).toBe(401);
    expect((await upload(2147483000, makeWav(500))).statusCode).toBe(404);
    expect(await recordingRows(s.id)).toBe(0);
  });
});

describe('a take of a practice session (Diesen Durchgang aufnehmen)', () => {
  /** A finished session of `who` on task `submissionId`, written as the database keeps it. */
  async function session(submissionId: number, who: TestUser): Promise<number> {
    const [r] = await rows<{ id: number }>(
      t.db,
      sql`insert into practice_sessions (submission_id, student_id, started_at, ended_at, duration_minutes)
        values (${submissionId}, ${who.id}, now() - interval '3 days 10 minutes', now() - interval '3 days', 10) returning id`,
    );
    return r!.id;
  }
  const storedSession = async (recordingId: number) =>
    (await rows<{ id: number | null }>(t.db, sql`select practice_session_id as id from recordings where id = ${recordingId}`))[0]?.id;

  it('ties the take to the running session it recorded, also after the timer stopped', async () => {
    const s = await task();
    const started = await call('POST', `/api/submissions/${s.id}/practice-sessions/start`, student);
    expect(started.statusCode, started.body).toBe(201);
    const sessionId = (started.json() as { id: number }).id;
    const during = await send(s.id, makeWav(2000), { fields: [['practice_session_id', String(sessionId)]] });
    expect(during.practice_session_id).toBe(sessionId);
    expect(await storedSession(during.id)).toBe(sessionId);
    expect((await call('POST', `/api/practice-sessions/${sessionId}/stop`, student)).statusCode).toBe(200);
    // the timer's Stop ends the take first: it arrives after the session ended
    const after = await send(s.id, makeWav(1000), { fields: [['practice_session_id', String(sessionId)]] });
    expect(after.practice_session_id).toBe(sessionId);
    // the list names the session too, and a take outside a session names none
    const plain = await send(s.id, makeWav(1000));
    expect(plain.practice_session_id).toBeNull();
    const list = (await call('GET', `/api/submissions/${s.id}/recordings`, student)).json() as { data: Recording[] };
    expect(list.data.map((r) => r.practice_session_id)).toEqual([null, sessionId, sessionId]);
  });

  it('refuses a session of another student, of another task or one that does not exist (422, nothing stored)', async () => {
    const s = await task();
    const siblingTask = await task({ student: sibling });
    const otherTask = await task();
    const before = await leftovers();
    const cases = [await session(siblingTask.id, sibling), await session(otherTask.id, student), 2147483000];
    for (const foreign of cases) {
      const res = await upload(s.id, makeWav(1000), { fields: [['practice_session_id', String(foreign)]] });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors.practice_session_id[0]).toBe('Diese Übungssitzung gehört nicht zu dieser Aufgabe.');
    }
    for (const bad of ['0', '-4', 'abc', '1.5', '99999999999']) {
      const res = await upload(s.id, makeWav(1000), { fields: [['practice_session_id', bad]] });
      expect(res.statusCode, `${bad}: ${res.body}`).toBe(422);
    }
    expect(await recordingRows(s.id)).toBe(0);
    expect(await leftovers()).toEqual(before);
  });

  it('keeps the take when its session is deleted', async () => {
    const s = await task();
    const sessionId = await session(s.id, student);
    const r = await send(s.id, makeWav(1000), { fields: [['practice_session_id', String(sessionId)]] });
    await t.db.execute(sql`delete from practice_sessions where id = ${sessionId}`);
    expect(await storedSession(r.id)).toBeNull();
    expect(await recordingRows(s.id)).toBe(1);
  });
});

describe('reading, answering and commenting', () => {
  it('lists a task’s recordings newest first for the student and the teacher; nobody else learns they exist', async () => {
    const s = await task();
    const first = await send(s.id);
    const second = await send(s.id, makeMp3(1000));
    for (const who of [student, teacher]) {
      const res = await call('GET', `/api/submissions/${s.id}/recordings`, who);
      expect(res.statusCode).toBe(200);
      expect((res.json().data as Recording[]).map((r) => r.id)).toEqual([second.id, first.id]);
      expect((await call('GET', `/api/recordings/${first.id}`, who)).statusCode).toBe(200);
    }
    const ghostList = await call('GET', `/api/submissions/2147483000/recordings`, sibling);
    for (const who of [sibling, otherStudent, otherTeacher]) {
      const list = await call('GET', `/api/submissions/${s.id}/recordings`, who);
      expect(list.statusCode).toBe(404);
      expect(list.body).toBe(ghostList.body);
      expect((await call('GET', `/api/recordings/${first.id}`, who)).statusCode).toBe(404);
      expect((await call('GET', `/api/media/${encodeURIComponent(first.path)}`, who)).statusCode).toBe(404);
    }
    expect((await call('GET', `/api/submissions/${s.id}/recordings`, null)).statusCode).toBe(401);
    expect((await call('GET', `/api/recordings/${first.id}`, null)).statusCode).toBe(401);
  });

  it('serves the file only through a signed link, with its type, nosniff and ranges', async () => {
    const s = await task();
    const wav = makeWav(2000);
    const r = await send(s.id, wav);
    for (const who of [student, teacher]) {
      const link = await call('GET', `/api/media/${encodeURIComponent(r.path)}`, who);
      expect(link.statusCode).toBe(200);
      const url = link.json().url as string;
      const file = await t.app.inject({ method: 'GET', url });
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe('audio/wav');
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.rawPayload.equals(wav)).toBe(true);
      const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=44-99' } });
      expect(part.statusCode).toBe(206);
      expect(part.rawPayload.equals(wav.subarray(44, 100))).toBe(true);
      expect((await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${wav.length + 5}-` } })).statusCode).toBe(416);
    }
    const unsigned = await t.app.inject({ method: 'GET', url: `/api/media-file/${r.path}` });
    expect(unsigned.statusCode).toBe(403);
  });

  it('orders comments by moment (general remarks first), refuses a moment past the end, and lets only the teacher write', async () => {
    const s = await task();
    const r = await send(s.id, makeWav(3000));
    const url = `/api/recordings/${r.id}/comments`;
    const late = await call('POST', url, teacher, { at_ms: 2500, text: 'hier eilst du' });
    expect(late.statusCode).toBe(201);
    expect(late.json()).toMatchObject({ recording_id: r.id, at_ms: 2500, text: 'hier eilst du', teacher: { id: teacher.id, name: 'Frau Klang' } });
    await call('POST', url, teacher, { at_ms: 500, text: 'schöner Anfang' });
    await call('POST', url, teacher, { at_ms: null, text: 'Insgesamt gut.' });
    await call('POST', url, teacher, { at_ms: 3000, text: 'genau am Ende' });
    const past = await call('POST', url, teacher, { at_ms: 3001, text: 'zu spät' });
    expect(past.statusCode).toBe(422);
    expect(past.json().errors.at_ms[0]).toMatch(/nach dem Ende/);
    expect((await call('POST', url, teacher, { at_ms: 10, text: '' })).statusCode).toBe(422);
    expect((await call('POST', url, teacher, { at_ms: 10, text: 'x'.repeat(2001) })).statusCode).toBe(422);
    expect((await call('POST', url, teacher, { at_ms: 10, text: 'x'.repeat(2000) })).statusCode).toBe(201);
    expect((await call('POST', url, teacher, { at_ms: -1, text: 'negativ' })).statusCode).toBe(422);
    expect((await call('POST', url, student, { at_ms: 10, text: 'ich' })).statusCode).toBe(403);
    expect((await call('POST', url, otherTeacher, { at_ms: 10, text: 'fremd' })).statusCode).toBe(404);
    expect((await call('POST', url, null, { at_ms: 10, text: 'gast' })).statusCode).toBe(401);
    const got = (await call('GET', `/api/recordings/${r.id}`, student)).json() as Recording;
    expect(got.comments.map((c) => c.at_ms)).toEqual([null, 10, 500, 2500, 3000]);

    const id = (late.json() as RecordingComment).id;
    const edited = await call('PATCH', `/api/recording-comments/${id}`, teacher, { text: 'hier eilst du ein wenig', at_ms: 2400 });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ text: 'hier eilst du ein wenig', at_ms: 2400 });
    expect((await call('PATCH', `/api/recording-comments/${id}`, teacher, { at_ms: 9999 })).statusCode).toBe(422);
    expect((await call('PATCH', `/api/recording-comments/${id}`, teacher, {})).statusCode).toBe(422);
    expect((await call('PATCH', `/api/recording-comments/${id}`, otherTeacher, { text: 'fremd' })).statusCode).toBe(404);
    expect((await call('PATCH', `/api/recording-comments/${id}`, student, { text: 'ich' })).statusCode).toBe(403);
    expect((await call('DELETE', `/api/recording-comments/${id}`, otherTeacher)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/recording-comments/${id}`, student)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/recording-comments/${id}`, teacher)).statusCode).toBe(204);
    expect((await call('DELETE', `/api/recording-comments/${id}`, teacher)).statusCode).toBe(404);
  });

  it('answering takes a recording out of the inbox (oldest first, by course); a later comment does not put it back', async () => {
    const t1 = await teacherWithStudents();
    const a = await t1.taskOf(t1.s1, t1.c1);
    const b = await t1.taskOf(t1.s2, t1.c2);
    const r1 = await send(a.id, makeWav(1000), { as: t1.s1 });
    const r2 = await send(b.id, makeWav(1000), { as: t1.s2 });
    const r3 = await send(a.id, makeWav(1000), { as: t1.s1 });
    const inbox = async (q = '') => (await call('GET', `/api/recordings/inbox${q}`, t1.teacher)).json() as InboxResponse;
    const count = async (q = '') => ((await call('GET', `/api/recordings/inbox/count${q}`, t1.teacher)).json() as { count: number }).count;
    expect((await inbox()).data.map((r) => r.id)).toEqual([r1.id, r2.id, r3.id]);
    expect((await inbox()).data[0]).toMatchObject({ student: { id: t1.s1.id }, submission_id: a.id, exercise_title: a.exerciseTitle, due_date: a.dueDate, duration_ms: 1000, course_id: t1.c1.id });
    expect((await inbox(`?course_id=${t1.c1.id}`)).data.map((r) => r.id)).toEqual([r1.id, r3.id]);
    expect((await inbox(`?course_id=${t1.c2.id}`)).data.map((r) => r.id)).toEqual([r2.id]);
    expect(await count()).toBe(3);
    expect(await count(`?course_id=${t1.c1.id}`)).toBe(2);
    const page = await inbox('?per_page=2&page=1');
    expect(page.pagination).toEqual({ current_page: 1, per_page: 2, has_more: true });
    const page2 = await inbox('?per_page=2&page=2');
    expect(page2.data.map((r) => r.id)).toEqual([r3.id]);
    expect(page2.pagination.has_more).toBe(false);

    const answered = await call('POST', `/api/recordings/${r1.id}/answer`, t1.teacher);
    expect(answered.statusCode).toBe(200);
    const at = (answered.json() as Recording).answered_at;
    expect(at).not.toBeNull();
    // idempotent: the first time stays
    expect(((await call('POST', `/api/recordings/${r1.id}/answer`, t1.teacher)).json() as Recording).answered_at).toBe(at);
    expect((await inbox()).data.map((r) => r.id)).toEqual([r2.id, r3.id]);
    expect(await count()).toBe(2);
    await call('POST', `/api/recordings/${r1.id}/comments`, t1.teacher, { at_ms: 100, text: 'noch etwas' });
    expect((await inbox()).data.map((r) => r.id)).toEqual([r2.id, r3.id]);
    expect(await count()).toBe(2);
    // the others see nothing of it
    expect(((await call('GET', '/api/recordings/inbox', teacher)).json() as InboxResponse).data.map((r) => r.id)).not.toContain(r2.id);
    expect(((await call('GET', '/api/recordings/inbox/count', otherTeacher)).json() as { count: number }).count).toBe(0);
    expect((await call('GET', '/api/recordings/inbox', t1.s1)).statusCode).toBe(403);
    expect((await call('POST', `/api/recordings/${r2.id}/answer`, otherTeacher)).statusCode).toBe(404);
    expect((await call('POST', `/api/recordings/${r2.id}/answer`, t1.s2)).statusCode).toBe(403);
    expect((await call('GET', '/api/recordings/inbox', null)).statusCode).toBe(401);
  });

  it('shows "Neues Feedback" after an answer or a new comment, until the student has seen it', async () => {
    const s = await task();
    const r = await send(s.id);
    const flag = async () => ((await call('GET', `/api/submissions/${s.id}`, student)).json() as { new_feedback: boolean }).new_feedback;
    const inList = async () =>
      ((await call('GET', `/api/submissions?course_id=${course.id}`, student)).json() as Array<{ id: number; new_feedback: boolean }>).find((x) => x.id === s.id)!.new_feedback;
    const count = async () => ((await call('GET', '/api/recordings/new-feedback/count', student)).json() as { count: number }).count;
    const base = await count();
    expect(await flag()).toBe(false);
    await call('POST', `/api/recordings/${r.id}/answer`, teacher);
    expect(await flag()).toBe(true);
    expect(await inList()).toBe(true);
    expect(await count()).toBe(base + 1);
    expect(((await call('GET', `/api/recordings/${r.id}`, student)).json() as Recording).new_feedback).toBe(true);
    const seen = await call('POST', `/api/recordings/${r.id}/seen`, student);
    expect(seen.statusCode).toBe(200);
    expect((seen.json() as Recording).new_feedback).toBe(false);
    expect(await flag()).toBe(false);
    expect(await inList()).toBe(false);
    expect(await count()).toBe(base);
    await new Promise((res) => setTimeout(res, 5));
    await call('POST', `/api/recordings/${r.id}/comments`, teacher, { at_ms: 1000, text: 'Nachtrag' });
    expect(await flag()).toBe(true);
    expect(await count()).toBe(base + 1);
    await call('POST', `/api/recordings/${r.id}/seen`, student);
    expect(await flag()).toBe(false);
    // a comment on a recording not yet answered is new feedback too
    const r2 = await send(s.id);
    await call('POST', `/api/recordings/${r2.id}/comments`, teacher, { at_ms: null, text: 'schon mal vorab' });
    expect(await flag()).toBe(true);
    expect((await call('POST', `/api/recordings/${r2.id}/seen`, sibling)).statusCode).toBe(404);
    expect((await call('POST', `/api/recordings/${r2.id}/seen`, teacher)).statusCode).toBe(403);
    expect((await call('GET', '/api/recordings/new-feedback/count', teacher)).statusCode).toBe(403);
    expect(((await call('GET', '/api/recordings/new-feedback/count', sibling)).json() as { count: number }).count).toBe(0);
  });

  it('lets the student delete their recording and its file until it is answered (409 after)', async () => {
    const s = await task();
    const r = await send(s.id);
    const kept = await send(s.id);
    expect((await call('DELETE', `/api/recordings/${r.id}`, sibling)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/recordings/${r.id}`, teacher)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/recordings/${r.id}`, student)).statusCode).toBe(204);
    expect(await onDisk(r.path)).toBe(false);
    expect((await call('GET', `/api/recordings/${r.id}`, student)).statusCode).toBe(404);
    await call('POST', `/api/recordings/${kept.id}/answer`, teacher);
    const refused = await call('DELETE', `/api/recordings/${kept.id}`, student);
    expect(refused.statusCode).toBe(409);
    expect(await onDisk(kept.path)).toBe(true);
  });
});

describe('deleting tasks and students, and the retention job', () => {
  it('deleting a task or a student deletes their recordings, comments and files', async () => {
    const s = await task();
    const r = await send(s.id);
    await call('POST', `/api/recordings/${r.id}/comments`, teacher, { at_ms: 10, text: 'weg damit' });
    expect((await call('DELETE', `/api/submissions/${s.id}`, teacher)).statusCode).toBe(204);
    expect(await recordingRows(s.id)).toBe(0);
    expect(await onDisk(r.path)).toBe(false);
    expect(existsSync(join(t.deps.mediaDir, 'recordings', String(s.id)))).toBe(false);

    const leaving = await t.student(teacher, { courseIds: [course.id] });
    const a = await task({ student: leaving });
    const b = await task({ student: leaving });
    const ra = await send(a.id, makeWav(500), { as: leaving });
    const rb = await send(b.id, makeWav(500), { as: leaving });
    expect((await call('DELETE', `/api/students/${leaving.id}`, teacher)).statusCode).toBe(204);
    const [left] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recordings where student_id = ${leaving.id}`);
    expect(Number(left!.n)).toBe(0);
    expect(await onDisk(ra.path) || await onDisk(rb.path)).toBe(false);
  });

  // Writes orphan files into the local folder with an old mtime (not possible for a bucket's objects): local store only.
  it.skipIf(process.env.TEST_MEDIA_STORE === 's3')('removes exactly the recordings older than RECORDINGS_KEEP_DAYS, and orphan files older than an hour; twice is the same as once', async () => {
    const s = await task();
    const old1 = await send(s.id);
    const old2 = await send(s.id);
    const fresh = await send(s.id);
    await t.db.execute(sql`update recordings set created_at = now() - interval '400 days' where id in (${old1.id}, ${old2.id})`);
    await t.db.execute(sql`update recordings set created_at = now() - interval '300 days' where id = ${fresh.id}`);
    // an orphan of a crash (older than an hour) and a file of an upload still in progress (new)
    const dir = join(t.deps.mediaDir, 'recordings', String(s.id));
    await mkdir(dir, { recursive: true });
    const orphan = join(dir, `${'a'.repeat(32)}.wav`);
    const young = join(dir, `${'b'.repeat(32)}.wav`);
    await writeFile(orphan, 'x');
    await writeFile(young, 'y');
    const past = new Date(Date.now() - 2 * 3600_000);
    await utimes(orphan, past, past);
    const storage = new LocalStorage(t.deps.mediaDir);
    const first = await runRetention(t.db, storage, 365, t.app.log);
    expect(first.deleted).toBeGreaterThanOrEqual(2);
    expect(await onDisk(old1.path) || await onDisk(old2.path)).toBe(false);
    expect(await onDisk(fresh.path)).toBe(true);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(young)).toBe(true);
    const ids = (await rows<{ id: number }>(t.db, sql`select id from recordings where submission_id = ${s.id}`)).map((r) => r.id);
    expect(ids).toEqual([fresh.id]);
    const second = await runRetention(t.db, storage, 365, t.app.log);
    expect(second).toEqual({ deleted: 0, filesRemoved: 0, orphansRemoved: 0, orphansMovedAside: 0 });
    expect(await onDisk(fresh.path)).toBe(true);
  });
});

describe('settings and the operator report', () => {
  it('validates RECORDINGS_KEEP_DAYS (default 365)', () => {
    expect(loadConfig({}).RECORDINGS_KEEP_DAYS).toBe(365);
    expect(loadConfig({ RECORDINGS_KEEP_DAYS: '30' }).RECORDINGS_KEEP_DAYS).toBe(30);
    for (const bad of ['0', '-1', 'abc', '1.5', '99999']) expect(() => loadConfig({ RECORDINGS_KEEP_DAYS: bad }), bad).toThrow(ConfigError);
  });

  it('reports the space per teacher: recordings and exercise media', async () => {
    const tt = await teacherWithStudents();
    const s = await tt.taskOf(tt.s1, tt.c1);
    const a = await send(s.id, makeWav(1000), { as: tt.s1 });
    const b = await send(s.id, makeWav(2000), { as: tt.s1 });
    const report = await spaceReport(t.db, t.app.deps.storage);
    const mine = report.teachers.find((x) => x.teacher_id === tt.teacher.id)!;
    expect(mine).toMatchObject({ recordings: 2, recording_bytes: a.size + b.size, media_bytes: 0, total_bytes: a.size + b.size });
    expect(report.disk.recordings).toBeGreaterThanOrEqual(a.size + b.size);
    const lines: string[] = [];
    await spaceCommand({ db: t.db, storage: t.app.deps.storage }, [], (l) => lines.push(l));
    expect(lines.join('\n')).toContain(tt.teacher.email);
  });
});

async function teacherWithStudents() {
  const tt = await t.teacher();
  const c1 = await t.course(tt);
  const c2 = await t.course(tt);
  const s1 = await t.student(tt, { courseIds: [c1.id] });
  const s2 = await t.student(tt, { courseIds: [c2.id] });
  return {
    teacher: tt,
    c1,
    c2,
    s1,
    s2,
    async taskOf(st: TestUser, c: { id: number }) {
      const e = await t.exercise(tt);
      return t.submission(st, tt, e, { courseId: c.id, dueDate: inDays(3), expirationDate: inDays(10) });
    },
  };
}
