import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { multipart } from '../../test/authz-world';
import { rows } from '../../db/client';
import { practiceSessions, submissions } from '../../db/schema/index';
import type { PracticeSession } from '@contract/practice';
import { makeWav } from '../recordings/sample-recordings';
import { PassThrough } from 'node:stream';
import { HEARTBEAT_MS, LEASE_MS } from '../../lib/idempotency';

/**
 * Offline practice sessions and `Idempotency-Key` (docs/decisions/idempotency-and-offline-sessions.md).
 */

let t: TestApp;
let today: string;
const MIN = 60_000;
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5).toISOString().slice(0, 10);
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

withTestApp((app, day) => {
  t = app;
  today = day;
});

async function school() {
  const teacher = await t.teacher();
  const student = await t.student(teacher);
  const classmate = await t.student(teacher);
  const exercise = await t.exercise(teacher);
  const task = await t.submission(student, teacher, exercise, { dueDate: today, expirationDate: addDays(today, 7) });
  const other = await t.submission(student, teacher, exercise, { dueDate: addDays(today, 1), expirationDate: addDays(today, 7) });
  return { teacher, student, classmate, exercise, task, other };
}

type Times = { started_at: string; ended_at: string };
const offline = (id: number, body: Times | Record<string, unknown>, u?: TestUser, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: `/api/submissions/${id}/practice-sessions/offline`,
    payload: body,
    headers: { ...(u?.headers ?? {}), ...headers },
  });
const start = (id: number, u: TestUser, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/submissions/${id}/practice-sessions/start`, headers: { ...u.headers, ...headers } });
const complete = (id: number, u: TestUser, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'PATCH', url: `/api/submissions/${id}/complete`, headers: { ...u.headers, ...headers } });
const sessionsOf = (submissionId: number) => t.db.select().from(practiceSessions).where(eq(practiceSessions.submissionId, submissionId));
const keysOf = (userId: number) => rows<{ key: string; status: number | null }>(t.db, sql`select key, status from idempotency_keys where user_id = ${userId}`);
async function until(ok: () => Promise<boolean>, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
/** `minutes` long, ending `endedAgo` ms ago. */
// Both ends from one reading of the clock: two readings a millisecond apart made 180 minutes 180 min + 1 ms.
const span = (endedAgo: number, minutes: number): Times => {
  const end = Date.now() - endedAgo;
  return { started_at: new Date(end - minutes * MIN).toISOString(), ended_at: new Date(end).toISOString() };
};

describe('pruning', () => {
  // First in the file: the app prunes on its first keyed request, then at most once an hour.
  it('deletes keys older than 24 hours of every user on the first keyed request', async () => {
    const s = await school();
    await t.db.execute(
      sql`insert into idempotency_keys (user_id, key, method, path, status, body, created_at)
        values (${s.classmate.id}, 'alt', 'POST', '/x', 201, '{}', now() - interval '25 hours'),
               (${s.classmate.id}, 'frisch', 'POST', '/x', 201, '{}', now() - interval '23 hours')`,
    );
    expect((await offline(s.task.id, span(60 * MIN, 10), s.student, { 'idempotency-key': 'prune-1' })).statusCode).toBe(201);
    expect((await keysOf(s.classmate.id)).map((k) => k.key)).toEqual(['frisch']);
  });
});

describe('POST /api/submissions/{id}/practice-sessions/offline', () => {
  it('takes a session inside the bounds: 201, recorded offline, counted in the task\'s time', async () => {
    const s = await school();
    const times = span(2 * 60 * MIN, 25.5);
    const res = await offline(s.task.id, times, s.student);
    expect(res.statusCode, res.body).toBe(201);
    const body: PracticeSession = res.json();
    expect(body).toEqual({
      id: expect.any(Number),
      submission_id: s.task.id,
      started_at: times.started_at,
      ended_at: times.ended_at,
      duration_minutes: 25.5,
      tempo_bpm: null,
      recorded_offline: true,
    });
    const [task] = await t.db.select({ v: submissions.timeSpentMinutes }).from(submissions).where(eq(submissions.id, s.task.id));
    expect(task?.v).toBe(25.5);
    const list = await t.app.inject({ method: 'GET', url: `/api/submissions/${s.task.id}/practice-sessions`, headers: s.teacher.headers });
    expect(list.json()).toEqual([body]);
    // a server-timed session says so too
    const online: PracticeSession = (await start(s.other.id, s.student)).json();
    expect(online.recorded_offline).toBe(false);
  });

  it('refuses an end in the future beyond 2 minutes of clock skew (422 ended_at), takes one within it', async () => {
    const s = await school();
    const future = { started_at: ago(10 * MIN), ended_at: new Date(Date.now() + 3 * MIN).toISOString() };
    const res = await offline(s.task.id, future, s.student);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.ended_at).toEqual(['Das Ende der Übung liegt in der Zukunft.']);
    const tr = await offline(s.task.id, future, s.student, { 'accept-language': 'tr' });
    expect(tr.json().errors.ended_at).toEqual(['Çalışmanın bitişi gelecekte.']);
    const skewed = await offline(s.task.id, { started_at: ago(10 * MIN), ended_at: new Date(Date.now() + MIN).toISOString() }, s.student);
    expect(skewed.statusCode, skewed.body).toBe(201);
    expect(await sessionsOf(s.task.id)).toHaveLength(1);
  });

  it('refuses 181 minutes (422 ended_at), takes 180', async () => {
    const s = await school();
    const res = await offline(s.task.id, span(5 * 60 * MIN, 181), s.student);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.ended_at).toEqual(['Eine Übung darf höchstens 180 Minuten dauern.']);
    expect((await offline(s.task.id, span(5 * 60 * MIN, 181), s.student, { 'accept-language': 'tr' })).json().errors.ended_at).toEqual([
      'Bir çalışma en fazla 180 dakika sürebilir.',
    ]);
    const ok = await offline(s.task.id, span(5 * 60 * MIN, 180), s.student);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().duration_minutes).toBe(180);
  });

  it('refuses a session that ended 8 days ago (422 ended_at), takes one of 6 days ago', async () => {
    const s = await school();
    const res = await offline(s.task.id, span(8 * 24 * 60 * MIN, 20), s.student);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.ended_at).toEqual(['Offline geübte Zeiten können nur bis 7 Tage danach gesendet werden.']);
    expect((await offline(s.task.id, span(6 * 24 * 60 * MIN, 20), s.student)).statusCode).toBe(201);
  });

  it('refuses an end not after the start, and times that are not ISO 8601 (422 naming the field)', async () => {
    const s = await school();
    const at = ago(30 * MIN);
    const same = await offline(s.task.id, { started_at: at, ended_at: at }, s.student);
    expect(same.statusCode).toBe(422);
    expect(same.json().errors.ended_at).toEqual(['Das Ende muss nach dem Beginn liegen.']);
    const bad = await offline(s.task.id, { started_at: 'gestern', ended_at: at }, s.student);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['started_at']);
    const missing = await offline(s.task.id, { started_at: at }, s.student);
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors)).toEqual(['ended_at']);
    expect(await sessionsOf(s.task.id)).toHaveLength(0);
  });

  it('refuses a session overlapping another of the student on any task, or a running one (422 started_at)', async () => {
    const s = await school();
    expect((await offline(s.other.id, span(3 * 60 * MIN, 30), s.student)).statusCode).toBe(201); // [-3h30, -3h]
    const overlap = await offline(s.task.id, span(3 * 60 * MIN - 10 * MIN, 30), s.student); // [-3h20, -2h50]
    expect(overlap.statusCode).toBe(422);
    expect(overlap.json().errors.started_at).toEqual(['Diese Zeit überschneidet sich mit einer anderen Übung.']);
    expect((await offline(s.task.id, span(3 * 60 * MIN - 10 * MIN, 30), s.student, { 'accept-language': 'tr' })).json().errors.started_at).toEqual([
      'Bu süre başka bir çalışmayla çakışıyor.',
    ]);
    // inside it, around it
    expect((await offline(s.task.id, span(3 * 60 * MIN + 5 * MIN, 10), s.student)).statusCode).toBe(422);
    expect((await offline(s.task.id, span(3 * 60 * MIN - 5 * MIN, 40), s.student)).statusCode).toBe(422);
    // touching at an end is no overlap
    expect((await offline(s.task.id, span(3 * 60 * MIN - 15 * MIN, 15), s.student)).statusCode).toBe(201);
    // a classmate's sessions are theirs
    const mate = await t.submission(s.classmate, s.teacher, s.exercise, { dueDate: today });
    expect((await offline(mate.id, span(3 * 60 * MIN, 30), s.classmate)).statusCode).toBe(201);
    // a running session counts until now
    const running: PracticeSession = (await start(s.other.id, s.student)).json();
    await t.db.execute(sql`update practice_sessions set started_at = now() - interval '20 minutes' where id = ${running.id}`);
    expect((await offline(s.task.id, span(5 * MIN, 10), s.student)).statusCode).toBe(422);
    expect(await sessionsOf(s.task.id)).toHaveLength(1);
  });

  it('lets only one of two overlapping sessions sent at once in', async () => {
    const s = await school();
    const times = span(4 * 60 * MIN, 20);
    const results = await Promise.all([offline(s.task.id, times, s.student), offline(s.other.id, times, s.student)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 422]);
  });

  it('refuses an expired task (409); a completed one only takes a session that ended before it was completed', async () => {
    const s = await school();
    const expired = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, -3), expirationDate: addDays(today, -1) });
    const res = await offline(expired.id, span(60 * MIN, 10), s.student);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Diese Aufgabe ist verfallen und kann nicht mehr bearbeitet werden.');
    const done = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today, completedAt: new Date(Date.now() - 30 * MIN) });
    const after = await offline(done.id, span(10 * MIN, 10), s.student);
    expect(after.statusCode).toBe(409);
    expect(after.json().message).toBe('Diese Aufgabe ist bereits erledigt.');
    expect((await offline(done.id, span(40 * MIN, 10), s.student)).statusCode).toBe(201);
    const overdue = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, -1), expirationDate: addDays(today, 1) });
    expect((await offline(overdue.id, span(2 * 60 * MIN, 10), s.student)).statusCode).toBe(201);
  });

  it('is for the owning student only: guest 401, teacher 403, another student 404', async () => {
    const s = await school();
    const times = span(60 * MIN, 10);
    expect((await offline(s.task.id, times)).statusCode).toBe(401);
    expect((await offline(s.task.id, times, s.teacher)).statusCode).toBe(403);
    expect((await offline(s.task.id, times, s.classmate)).statusCode).toBe(404);
    expect((await offline(2147483000, times, s.student)).statusCode).toBe(404);
    expect(await sessionsOf(s.task.id)).toHaveLength(0);
  });
});

describe('Idempotency-Key', () => {
  it('answers a repeated offline session with the first answer and keeps one row', async () => {
    const s = await school();
    const times = span(90 * MIN, 15);
    const key = 'offline:2026-11-22T08:15:00.000Z_a-1';
    const first = await offline(s.task.id, times, s.student, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(201);
    const again = await offline(s.task.id, times, s.student, { 'idempotency-key': key });
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(await sessionsOf(s.task.id)).toHaveLength(1);
    // without the key the same times are an overlap
    expect((await offline(s.task.id, times, s.student)).statusCode).toBe(422);
  });

  it('does not run the handler again: a repeated start answers the first session, starts no second', async () => {
    const s = await school();
    const first = await start(s.task.id, s.student, { 'idempotency-key': 'start-1' });
    expect(first.statusCode).toBe(201);
    const session: PracticeSession = first.json();
    const stopped = await t.app.inject({ method: 'POST', url: `/api/practice-sessions/${session.id}/stop`, headers: { ...s.student.headers, 'idempotency-key': 'stop-1' } });
    expect(stopped.statusCode).toBe(200);
    const stopAgain = await t.app.inject({ method: 'POST', url: `/api/practice-sessions/${session.id}/stop`, headers: { ...s.student.headers, 'idempotency-key': 'stop-1' } });
    expect(stopAgain.statusCode).toBe(200); // not 409 'not running'
    expect(stopAgain.body).toBe(stopped.body);
    const again = await start(s.task.id, s.student, { 'idempotency-key': 'start-1' });
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(await sessionsOf(s.task.id)).toHaveLength(1);
  });

  it('answers a repeated completion with the first answer', async () => {
    const s = await school();
    const first = await complete(s.task.id, s.student, { 'idempotency-key': 'done-1' });
    expect(first.statusCode).toBe(200);
    expect(first.json().status).toBe('completed');
    const again = await complete(s.task.id, s.student, { 'idempotency-key': 'done-1' });
    expect(again.statusCode).toBe(200);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('answers a repeated recording upload with the first answer and keeps one recording', async () => {
    const s = await school();
    const body = await multipart([['file', makeWav(2000), 'aufnahme.wav', 'audio/wav']]);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/submissions/${s.task.id}/recordings`,
        payload: body.payload,
        headers: { ...s.student.headers, ...body.headers, 'idempotency-key': 'take-0f3a' },
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const again = await send();
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    const [n] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recordings where submission_id = ${s.task.id}`);
    expect(n?.n).toBe(1);
  });

  it('keeps the keys of different users apart', async () => {
    const s = await school();
    const mate = await t.submission(s.classmate, s.teacher, s.exercise, { dueDate: today });
    const times = span(100 * MIN, 10);
    const mine = await offline(s.task.id, times, s.student, { 'idempotency-key': 'same-key' });
    const theirs = await offline(mate.id, times, s.classmate, { 'idempotency-key': 'same-key' });
    expect(mine.statusCode).toBe(201);
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().submission_id).toBe(mate.id);
    expect(await sessionsOf(mate.id)).toHaveLength(1);
  });

  it('refuses the same key on another call (422 naming the header)', async () => {
    const s = await school();
    expect((await offline(s.task.id, span(110 * MIN, 10), s.student, { 'idempotency-key': 'reused' })).statusCode).toBe(201);
    const other = await offline(s.other.id, span(130 * MIN, 10), s.student, { 'idempotency-key': 'reused' });
    expect(other.statusCode).toBe(422);
    expect(other.json().errors['idempotency-key']).toEqual(['Dieser Idempotency-Key wurde bereits für eine andere Anfrage verwendet.']);
    const completion = await complete(s.task.id, s.student, { 'idempotency-key': 'reused', 'accept-language': 'tr' });
    expect(completion.statusCode).toBe(422);
    expect(completion.json().errors['idempotency-key']).toEqual(['Bu Idempotency-Key başka bir istek için zaten kullanıldı.']);
    expect(await sessionsOf(s.other.id)).toHaveLength(0);
    expect((await t.db.select().from(submissions).where(eq(submissions.id, s.task.id)))[0]?.completedAt).toBeNull();
  });

  it('refuses the same key on the same call with another body (422 naming the header), and takes the same body in any key order', async () => {
    const s = await school();
    const times = span(140 * MIN, 10);
    const first = await offline(s.task.id, times, s.student, { 'idempotency-key': 'body-1' });
    expect(first.statusCode).toBe(201);
    // the same content, its fields in another order: the first answer
    const reordered = await offline(s.task.id, { ended_at: times.ended_at, started_at: times.started_at }, s.student, { 'idempotency-key': 'body-1' });
    expect(reordered.statusCode).toBe(201);
    expect(reordered.headers['idempotent-replayed']).toBe('true');
    expect(reordered.headers[':fingerprint']).toBeUndefined();
    const changed = await offline(s.task.id, span(160 * MIN, 10), s.student, { 'idempotency-key': 'body-1' });
    expect(changed.statusCode).toBe(422);
    expect(changed.headers['idempotent-replayed']).toBeUndefined();
    expect(changed.json().errors['idempotency-key']).toEqual(['Dieser Idempotency-Key wurde bereits für dieselbe Anfrage mit anderem Inhalt verwendet.']);
    const tr = await offline(s.task.id, span(160 * MIN, 10), s.student, { 'idempotency-key': 'body-1', 'accept-language': 'tr' });
    expect(tr.json().errors['idempotency-key']).toEqual(['Bu Idempotency-Key aynı istek için farklı bir içerikle zaten kullanıldı.']);
    // nothing was written for the refused body, the key still answers its own
    expect(await sessionsOf(s.task.id)).toHaveLength(1);
    expect((await offline(s.task.id, times, s.student, { 'idempotency-key': 'body-1' })).body).toBe(first.body);
  });

  it('does not keep the key of a write that failed: the same key may be sent again', async () => {
    const s = await school();
    const future = { started_at: ago(10 * MIN), ended_at: new Date(Date.now() + 10 * MIN).toISOString() };
    expect((await offline(s.task.id, future, s.student, { 'idempotency-key': 'retry-me' })).statusCode).toBe(422);
    expect(await keysOf(s.student.id)).toEqual([]);
    const ok = await offline(s.task.id, span(20 * MIN, 10), s.student, { 'idempotency-key': 'retry-me' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(await keysOf(s.student.id)).toEqual([{ key: 'retry-me', status: 201 }]);
  });

  it('answers 409 while the first request with the key still runs, then its answer', async () => {
    const s = await school();
    // A recording upload whose body has not finished arriving: the key is reserved (preHandler), the handler still reads.
    const body = await multipart([['file', makeWav(2000), 'aufnahme.wav', 'audio/wav']]);
    const stream = new PassThrough();
    const half = Math.floor(body.payload.length / 2);
    stream.write(body.payload.subarray(0, half));
    const send = (payload: PassThrough | Buffer) =>
      t.app.inject({
        method: 'POST',
        url: `/api/submissions/${s.task.id}/recordings`,
        payload,
        headers: { ...s.student.headers, ...body.headers, 'content-length': String(body.payload.length), 'idempotency-key': 'slow-take' },
      });
    const first = send(stream);
    await until(async () => (await keysOf(s.student.id)).length === 1);
    const busy = await send(body.payload);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toBe('Eine Anfrage mit diesem Idempotency-Key wird noch bearbeitet. Bitte gleich erneut versuchen.');
    expect(busy.headers['retry-after']).toBe('1');
    if (t.deps.dbKind === 'postgres') {
      // The holder renews its lease while it runs: a reservation older than LEASE_MS is not taken from a live request.
      await t.db.execute(sql`update idempotency_keys set created_at = now() - interval '1 hour' where user_id = ${s.student.id}`);
      await until(async () => (await rows<{ fresh: boolean }>(t.db, sql`select created_at > now() - interval '5 seconds' as fresh from idempotency_keys where user_id = ${s.student.id}`))[0]?.fresh === true, HEARTBEAT_MS * 3);
      expect((await send(body.payload)).statusCode).toBe(409);
    }
    stream.end(body.payload.subarray(half));
    const done = await first;
    expect(done.statusCode, done.body).toBe(201);
    const again = await send(body.payload);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(done.body);
  });

  it('frees a reservation left by a process that is gone (a crash) at once on PGlite, after the lease on PostgreSQL', async () => {
    const s = await school();
    // What a process killed mid-request leaves behind: the reservation, no answer, nobody renewing it.
    const crashed = (age: string) =>
      t.db.execute(
        sql`insert into idempotency_keys (user_id, key, method, path, created_at)
          values (${s.student.id}, 'after-crash', 'PATCH', ${`/api/submissions/${s.task.id}/complete`}, now() - ${age}::interval)`,
      );
    if (t.deps.dbKind === 'postgres') {
      // Another process may still hold a fresh one …
      await crashed('0 seconds');
      expect((await complete(s.task.id, s.student, { 'idempotency-key': 'after-crash' })).statusCode).toBe(409);
      await t.db.execute(sql`delete from idempotency_keys where user_id = ${s.student.id}`);
      // … but not one its lease has not renewed for LEASE_MS.
      await crashed(`${LEASE_MS / 1000 + 1} seconds`);
    } else {
      // One process per data folder: a reservation this process does not hold is an earlier run's.
      await crashed('0 seconds');
    }
    const res = await complete(s.task.id, s.student, { 'idempotency-key': 'after-crash' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await t.db.select().from(submissions).where(eq(submissions.id, s.task.id)))[0]?.completedAt).not.toBeNull();
    expect(await keysOf(s.student.id)).toEqual([{ key: 'after-crash', status: 200 }]);
  });

  it('forgets a key after 24 hours', async () => {
    const s = await school();
    const first = await start(s.task.id, s.student, { 'idempotency-key': 'yesterday' });
    const session: PracticeSession = first.json();
    await t.app.inject({ method: 'POST', url: `/api/practice-sessions/${session.id}/stop`, headers: s.student.headers });
    await t.db.execute(sql`update idempotency_keys set created_at = now() - interval '25 hours' where user_id = ${s.student.id}`);
    const again = await start(s.task.id, s.student, { 'idempotency-key': 'yesterday' });
    expect(again.statusCode).toBe(201);
    expect(again.json().id).not.toBe(session.id);
  });

  it('refuses a malformed key with 422 before anything is written', async () => {
    const s = await school();
    for (const key of ['mit leerzeichen', 'x'.repeat(201), 'ümlaut', 'a/b']) {
      const res = await complete(s.task.id, s.student, { 'idempotency-key': key });
      expect(res.statusCode, key).toBe(422);
      expect(res.json().errors['idempotency-key']).toEqual(['Der Idempotency-Key muss 1–200 Zeichen aus A–Z, a–z, 0–9 und _ - : . haben.']);
    }
    expect((await complete(s.task.id, s.student, { 'idempotency-key': 'x'.repeat(200) })).statusCode).toBe(200);
  });

  it('is documented as a header parameter of the writes a device may queue', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json() as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string; required?: boolean }> }>>;
    };
    const ops: Array<[string, string]> = [
      ['/api/submissions/{id}/practice-sessions/start', 'post'],
      ['/api/submissions/{id}/practice-sessions/offline', 'post'],
      ['/api/practice-sessions/{id}/stop', 'post'],
      ['/api/submissions/{id}/complete', 'patch'],
      ['/api/submissions/{id}/recordings', 'post'],
    ];
    for (const [path, method] of ops) {
      const header = doc.paths[path]?.[method]?.parameters?.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
      expect(header, `${method} ${path}`).toBeDefined();
      expect(header?.required ?? false).toBe(false);
    }
  });
});
