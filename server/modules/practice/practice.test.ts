import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { practiceSessions, submissions } from '../../db/schema/index';
import type { PracticeSession } from '@contract/practice';
import { insertSession, isRunningSessionConflict } from './practice.repo';

let t: TestApp;
let today: string;
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5).toISOString().slice(0, 10);

withTestApp((app, day) => {
  t = app;
  today = day;
});

async function school() {
  const teacher = await t.teacher();
  const student = await t.student(teacher);
  const classmate = await t.student(teacher);
  const exercise = await t.exercise(teacher);
  const task = await t.submission(student, teacher, exercise, { dueDate: today });
  return { teacher, student, classmate, exercise, task };
}

const start = (id: number, u?: TestUser, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: `/api/submissions/${id}/practice-sessions/start`, headers: { ...(u?.headers ?? {}), ...headers } });
const stop = (id: number, u?: TestUser) => t.app.inject({ method: 'POST', url: `/api/practice-sessions/${id}/stop`, headers: u?.headers ?? {} });
const active = (id: number, u?: TestUser) => t.app.inject({ method: 'GET', url: `/api/submissions/${id}/practice-sessions/active`, headers: u?.headers ?? {} });
const list = (id: number, u?: TestUser) => t.app.inject({ method: 'GET', url: `/api/submissions/${id}/practice-sessions`, headers: u?.headers ?? {} });
/** Moves a session's start back by the given number of seconds (the test's stand-in for waiting). */
const ageSession = (id: number, seconds: number) =>
  t.db.execute(sql`update practice_sessions set started_at = started_at - make_interval(secs => ${seconds}::double precision) where id = ${id}`);
const spent = async (submissionId: number) =>
  (await t.db.select({ v: submissions.timeSpentMinutes }).from(submissions).where(eq(submissions.id, submissionId)))[0]?.v;

describe('POST /api/submissions/{id}/practice-sessions/start', () => {
  it('starts a running session (201) by the server clock', async () => {
    const s = await school();
    const res = await start(s.task.id, s.student);
    expect(res.statusCode).toBe(201);
    const body: PracticeSession = res.json();
    expect(body).toEqual({ id: expect.any(Number), submission_id: s.task.id, started_at: expect.any(String), ended_at: null, duration_minutes: null, tempo_bpm: null, recorded_offline: false });
    expect(Math.abs(Date.parse(body.started_at) - Date.now())).toBeLessThan(60_000);
  });

  it('answers 409 with the running session when one already runs', async () => {
    const s = await school();
    const first: PracticeSession = (await start(s.task.id, s.student)).json();
    const second = await start(s.task.id, s.student);
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ message: 'Für diese Aufgabe läuft bereits eine Übung.', session: first });
    expect((await start(s.task.id, s.student, { 'accept-language': 'tr' })).json().message).toBe('Bu ödev için zaten devam eden bir çalışma var.');
  });

  it('lets only one of two simultaneous starts win', async () => {
    const s = await school();
    const results = await Promise.all([start(s.task.id, s.student), start(s.task.id, s.student), start(s.task.id, s.student)]);
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 409, 409]);
    const winner = results.find((r) => r.statusCode === 201)?.json();
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().session).toEqual(winner);
    const rowsNow = await t.db.select().from(practiceSessions).where(eq(practiceSessions.submissionId, s.task.id));
    expect(rowsNow).toHaveLength(1);
  });

  it('the unique partial index refuses a second running session, and the error is recognised', async () => {
    const s = await school();
    await insertSession(t.db, s.student.schoolId, s.task.id, s.student.id);
    let caught: unknown;
    try {
      await insertSession(t.db, s.student.schoolId, s.task.id, s.student.id);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeDefined();
    expect(isRunningSessionConflict(caught)).toBe(true);
    expect(isRunningSessionConflict(new Error('other'))).toBe(false);
  });

  it('refuses completed and expired tasks with 409, allows overdue ones', async () => {
    const s = await school();
    const done = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today, completedAt: new Date() });
    const expired = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, -3), expirationDate: addDays(today, -1) });
    const overdue = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, -1), expirationDate: addDays(today, 1) });
    const a = await start(done.id, s.student);
    expect(a.statusCode).toBe(409);
    expect(a.json().message).toBe('Diese Aufgabe ist bereits erledigt.');
    const b = await start(expired.id, s.student);
    expect(b.statusCode).toBe(409);
    expect(b.json().message).toBe('Diese Aufgabe ist verfallen und kann nicht mehr bearbeitet werden.');
    expect((await start(overdue.id, s.student)).statusCode).toBe(201);
  });

  it('is for the owning student only: guest 401, teacher 403, another student 404', async () => {
    const s = await school();
    expect((await start(s.task.id)).statusCode).toBe(401);
    expect((await start(s.task.id, s.teacher)).statusCode).toBe(403);
    expect((await start(s.task.id, s.classmate)).statusCode).toBe(404);
    expect((await start(2147483000, s.student)).statusCode).toBe(404);
    expect((await start(0, s.student)).statusCode).toBe(422);
    expect(await t.db.select().from(practiceSessions).where(eq(practiceSessions.submissionId, s.task.id))).toHaveLength(0);
  });
});

describe('POST /api/practice-sessions/{id}/stop', () => {
  it('stops with ended_at and the duration in minutes with two decimals', async () => {
    const s = await school();
    const session: PracticeSession = (await start(s.task.id, s.student)).json();
    await ageSession(session.id, 10 * 60 + 33); // 10:33 → 10.55 min
    const res = await stop(session.id, s.student);
    expect(res.statusCode).toBe(200);
    const body: PracticeSession = res.json();
    expect(body.ended_at).not.toBeNull();
    expect(body.duration_minutes).toBeGreaterThanOrEqual(10.55);
    expect(body.duration_minutes).toBeLessThan(11);
    expect(Math.round((body.duration_minutes ?? 0) * 100)).toBeCloseTo((body.duration_minutes ?? 0) * 100, 6);
    const measured = (Date.parse(body.ended_at ?? '') - Date.parse(body.started_at)) / 60000;
    expect(Math.abs(measured - (body.duration_minutes ?? 0))).toBeLessThanOrEqual(0.005 + 1e-9);
  });

  it('caps a forgotten timer at 180 minutes: ended_at = started_at + 180 min', async () => {
    const s = await school();
    const session: PracticeSession = (await start(s.task.id, s.student)).json();
    await ageSession(session.id, 7 * 3600);
    const body: PracticeSession = (await stop(session.id, s.student)).json();
    expect(body.duration_minutes).toBe(180);
    expect(Date.parse(body.ended_at ?? '') - Date.parse(body.started_at)).toBe(180 * 60_000);
    expect(await spent(s.task.id)).toBe(180);
  });

  it('answers 409 for a session that is not running, 404 for another student\'s or a missing one', async () => {
    const s = await school();
    const session: PracticeSession = (await start(s.task.id, s.student)).json();
    expect((await stop(session.id, s.classmate)).statusCode).toBe(404);
    expect((await stop(session.id)).statusCode).toBe(401);
    expect((await stop(session.id, s.teacher)).statusCode).toBe(403);
    expect((await stop(2147483000, s.student)).statusCode).toBe(404);
    const first = await stop(session.id, s.student);
    expect(first.statusCode).toBe(200);
    const again = await stop(session.id, s.student);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Diese Übung läuft nicht mehr.');
    expect(again.json().session).toEqual(first.json());
  });
});

describe('time_spent_minutes (database trigger)', () => {
  it('is the sum of the finished sessions, and follows deletes', async () => {
    const s = await school();
    const a: PracticeSession = (await start(s.task.id, s.student)).json();
    await ageSession(a.id, 10 * 60);
    const stoppedA: PracticeSession = (await stop(a.id, s.student)).json();
    const b: PracticeSession = (await start(s.task.id, s.student)).json();
    // a running session does not count yet
    expect(await spent(s.task.id)).toBe(stoppedA.duration_minutes);
    await ageSession(b.id, 20 * 60 + 15);
    const stoppedB: PracticeSession = (await stop(b.id, s.student)).json();
    const sum = Math.round(((stoppedA.duration_minutes ?? 0) + (stoppedB.duration_minutes ?? 0)) * 100) / 100;
    expect(sum).toBeGreaterThanOrEqual(30.25);
    expect(await spent(s.task.id)).toBe(sum);
    const viaApi = await t.app.inject({ method: 'GET', url: `/api/submissions/${s.task.id}`, headers: s.student.headers });
    expect(viaApi.json().time_spent_minutes).toBe(sum);
    await t.db.delete(practiceSessions).where(eq(practiceSessions.id, a.id));
    expect(await spent(s.task.id)).toBe(stoppedB.duration_minutes);
  });
});

describe('GET practice sessions (active and list)', () => {
  it('returns the running session, then 404 once stopped', async () => {
    const s = await school();
    expect((await active(s.task.id, s.student)).statusCode).toBe(404);
    const session: PracticeSession = (await start(s.task.id, s.student)).json();
    const res = await active(s.task.id, s.student);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(session);
    expect((await active(s.task.id, s.teacher)).json()).toEqual(session);
    await stop(session.id, s.student);
    expect((await active(s.task.id, s.student)).statusCode).toBe(404);
  });

  it('lists sessions newest first', async () => {
    const s = await school();
    const a: PracticeSession = (await start(s.task.id, s.student)).json();
    await ageSession(a.id, 3600);
    await stop(a.id, s.student);
    const b: PracticeSession = (await start(s.task.id, s.student)).json();
    const res = await list(s.task.id, s.student);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((x: PracticeSession) => x.id)).toEqual([b.id, a.id]);
    expect(res.json()[0].ended_at).toBeNull();
    expect((await list(s.task.id, s.teacher)).json()).toHaveLength(2);
  });

  it("hides another student's and a foreign teacher's task with 404, refuses a guest with 401", async () => {
    const s = await school();
    await start(s.task.id, s.student);
    const foreign = await school();
    for (const u of [s.classmate, foreign.teacher, foreign.student]) {
      expect((await active(s.task.id, u)).statusCode).toBe(404);
      expect((await list(s.task.id, u)).statusCode).toBe(404);
    }
    expect((await active(s.task.id)).statusCode).toBe(401);
    expect((await list(s.task.id)).statusCode).toBe(401);
  });
});
