import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { rows } from '../../db/client';
import { todayInZone } from '../../lib/time';
import type { PracticeSession } from '@contract/practice';
import { PRACTICE_SESSIONS_PER_DAY_MAX } from '@contract/constants';

/**
 * One thing at a time (docs/decisions/tasks-and-practice-timer.md): live and offline sessions of a
 * student never overlap, a day holds at most 100 sessions and 24 hours, the list comes in pages.
 */

let t: TestApp;
let today: string;
let tz: string;
const MIN = 60_000;
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await setupTestApp();
  tz = t.deps.config.APP_TIMEZONE;
  today = todayInZone(tz);
});
afterAll(async () => {
  await t.close();
});

async function school(tasks = 2) {
  const teacher = await t.teacher();
  const student = await t.student(teacher);
  const classmate = await t.student(teacher);
  const exercise = await t.exercise(teacher);
  const list = [];
  for (let i = 0; i < tasks; i++) list.push(await t.submission(student, teacher, exercise, { dueDate: addDays(today, i), expirationDate: addDays(today, 14) }));
  return { teacher, student, classmate, exercise, tasks: list };
}

const start = (id: number, u: TestUser) => t.app.inject({ method: 'POST', url: `/api/submissions/${id}/practice-sessions/start`, headers: u.headers });
const stop = (id: number, u: TestUser) => t.app.inject({ method: 'POST', url: `/api/practice-sessions/${id}/stop`, headers: u.headers });
const offline = (id: number, body: { started_at: string; ended_at: string }, u: TestUser) =>
  t.app.inject({ method: 'POST', url: `/api/submissions/${id}/practice-sessions/offline`, payload: body, headers: u.headers });
const list = (id: number, u?: TestUser, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/submissions/${id}/practice-sessions${query}`, headers: u?.headers ?? {} });

type Span = { started_at: Date; ended_at: Date | null; duration_minutes: number | null };
const sessionsOfStudent = (studentId: number) =>
  rows<Span>(t.db, sql`select started_at, ended_at, duration_minutes from practice_sessions where student_id = ${studentId} order by started_at, id`);

/** Local midnight `days` days from today in the school's time zone, as a Date. */
async function localMidnight(days: number): Promise<Date> {
  const [r] = await rows<{ d: Date | string }>(
    t.db,
    sql`select ((date_trunc('day', now() at time zone ${tz}) + make_interval(days => ${days}::int)) at time zone ${tz}) as d`,
  );
  return new Date(r!.d);
}

/** Finished sessions written straight into the table (the past a test needs), as the offline call would. */
async function seed(studentId: number, submissionId: number, spans: Array<[Date, Date]>) {
  const [u] = await rows<{ school_id: number }>(t.db, sql`select school_id from users where id = ${studentId}`);
  for (const [a, b] of spans) {
    await t.db.execute(
      sql`insert into practice_sessions (school_id, submission_id, student_id, started_at, ended_at, duration_minutes, recorded_offline)
        values (${u!.school_id}, ${submissionId}, ${studentId}, ${a.toISOString()}::timestamptz, ${b.toISOString()}::timestamptz,
          round((extract(epoch from (${b.toISOString()}::timestamptz - ${a.toISOString()}::timestamptz)) / 60)::numeric, 2)::double precision, true)`,
    );
  }
}

describe('one running session per student', () => {
  it('nine starts at once on nine tasks never count more minutes than real time passed', async () => {
    const s = await school(9);
    const before = Date.now();
    const answers = await Promise.all(s.tasks.map((task) => start(task.id, s.student)));
    for (const a of answers) expect(a.statusCode, a.body).toBe(201);
    await new Promise((r) => setTimeout(r, 1_500));
    // Only the last start still runs: each start stopped the one before.
    const running = (await sessionsOfStudent(s.student.id)).filter((x) => x.ended_at === null);
    expect(running).toHaveLength(1);
    for (const a of answers) {
      const id = (a.json() as PracticeSession).id;
      const r = await stop(id, s.student);
      expect([200, 409]).toContain(r.statusCode);
    }
    const elapsedMin = (Date.now() - before) / MIN;
    const all = await sessionsOfStudent(s.student.id);
    expect(all).toHaveLength(9);
    // No two overlap (touching at an end is fine) …
    for (let i = 1; i < all.length; i++) expect(new Date(all[i]!.started_at).getTime()).toBeGreaterThanOrEqual(new Date(all[i - 1]!.ended_at!).getTime());
    // … so together they count at most the time that passed (each rounded to 0.01 min).
    const counted = all.reduce((sum, x) => sum + Number(x.duration_minutes), 0);
    expect(counted).toBeLessThanOrEqual(elapsedMin + all.length * 0.005);
    expect(counted).toBeGreaterThan(1.2 / 60);
  });

  it('a start on another task stops the running session, counted until now', async () => {
    const s = await school(2);
    const first: PracticeSession = (await start(s.tasks[0]!.id, s.student)).json();
    await t.db.execute(sql`update practice_sessions set started_at = started_at - interval '10 minutes' where id = ${first.id}`);
    const second = await start(s.tasks[1]!.id, s.student);
    expect(second.statusCode).toBe(201);
    const [old] = await rows<Span>(t.db, sql`select started_at, ended_at, duration_minutes from practice_sessions where id = ${first.id}`);
    expect(old!.ended_at).not.toBeNull();
    expect(Number(old!.duration_minutes)).toBeGreaterThanOrEqual(10);
    expect(Number(old!.duration_minutes)).toBeLessThan(11);
    expect(new Date((second.json() as PracticeSession).started_at).getTime()).toBeGreaterThanOrEqual(new Date(old!.ended_at!).getTime());
    // the other task's time now holds the stopped session
    const [spent] = await rows<{ v: number }>(t.db, sql`select time_spent_minutes as v from submissions where id = ${s.tasks[0]!.id}`);
    expect(Number(spent!.v)).toBeGreaterThanOrEqual(10);
    // a classmate's running session is not touched
    const mate = await t.submission(s.classmate, s.teacher, s.exercise, { dueDate: today });
    const theirs: PracticeSession = (await start(mate.id, s.classmate)).json();
    expect((await start(s.tasks[0]!.id, s.student)).statusCode).toBe(201);
    const [still] = await rows<{ ended_at: Date | null }>(t.db, sql`select ended_at from practice_sessions where id = ${theirs.id}`);
    expect(still!.ended_at).toBeNull();
  });

  it('refuses a live start while a session sent from a device reaches past now (409), as offline overlaps are refused', async () => {
    const s = await school(2);
    // The device's clock ran a minute fast: its session ends a minute from now.
    const sent = await offline(s.tasks[0]!.id, { started_at: new Date(Date.now() - 20 * MIN).toISOString(), ended_at: new Date(Date.now() + MIN).toISOString() }, s.student);
    expect(sent.statusCode, sent.body).toBe(201);
    const res = await start(s.tasks[1]!.id, s.student);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Diese Zeit überschneidet sich mit einer anderen Übung.');
    // and the other way round: an offline session overlapping the running one is refused (422)
    const s2 = await school(2);
    expect((await start(s2.tasks[0]!.id, s2.student)).statusCode).toBe(201);
    const over = await offline(s2.tasks[1]!.id, { started_at: new Date(Date.now() - 5 * MIN).toISOString(), ended_at: new Date(Date.now() + MIN).toISOString() }, s2.student);
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.started_at).toEqual(['Diese Zeit überschneidet sich mit einer anderen Übung.']);
  });
});

describe('a day holds 100 sessions and 24 hours', () => {
  it(`refuses the ${PRACTICE_SESSIONS_PER_DAY_MAX + 1}st session of a day, offline (422 started_at) and live (422)`, async () => {
    const s = await school(2);
    const day = await localMidnight(-1);
    const spans: Array<[Date, Date]> = Array.from({ length: PRACTICE_SESSIONS_PER_DAY_MAX - 1 }, (_, i) => [new Date(day.getTime() + i * 2 * MIN), new Date(day.getTime() + (i * 2 + 1) * MIN)]);
    await seed(s.student.id, s.tasks[0]!.id, spans);
    const noon = day.getTime() + 12 * 60 * MIN;
    const hundredth = await offline(s.tasks[0]!.id, { started_at: new Date(noon).toISOString(), ended_at: new Date(noon + MIN).toISOString() }, s.student);
    expect(hundredth.statusCode, hundredth.body).toBe(201);
    const tooMany = await offline(s.tasks[0]!.id, { started_at: new Date(noon + 2 * MIN).toISOString(), ended_at: new Date(noon + 3 * MIN).toISOString() }, s.student);
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors.started_at).toEqual([`An einem Tag können höchstens ${PRACTICE_SESSIONS_PER_DAY_MAX} Übungen erfasst werden.`]);
    // the next day is a new day
    const nextDay = await offline(s.tasks[0]!.id, { started_at: new Date(day.getTime() + 24 * 60 * MIN + MIN).toISOString(), ended_at: new Date(day.getTime() + 24 * 60 * MIN + 2 * MIN).toISOString() }, s.student);
    expect(nextDay.statusCode, nextDay.body).toBe(201);

    // live: today's 100 sessions (short, spread between midnight and now) → the 101st start is refused
    const s2 = await school(1);
    const midnight = (await localMidnight(0)).getTime();
    const step = (Date.now() - 1000 - midnight) / PRACTICE_SESSIONS_PER_DAY_MAX;
    await seed(
      s2.student.id,
      s2.tasks[0]!.id,
      Array.from({ length: PRACTICE_SESSIONS_PER_DAY_MAX }, (_, i) => [new Date(midnight + i * step), new Date(midnight + i * step + step / 2)] as [Date, Date]),
    );
    const live = await t.app.inject({ method: 'POST', url: `/api/submissions/${s2.tasks[0]!.id}/practice-sessions/start`, headers: { ...s2.student.headers, 'accept-language': 'tr' } });
    expect(live.statusCode).toBe(422);
    expect(live.json().message).toBe(`Bir günde en fazla ${PRACTICE_SESSIONS_PER_DAY_MAX} çalışma kaydedilebilir.`);
  });

  it('refuses an offline session that would make its day count more than 24 hours (422 ended_at)', async () => {
    const s = await school(1);
    const day = await localMidnight(-2);
    const at = (min: number) => new Date(day.getTime() + min * MIN);
    // 00:00–23:00 practised (seven times 180 minutes, then 120)
    const spans: Array<[Date, Date]> = Array.from({ length: 7 }, (_, i) => [at(i * 180), at((i + 1) * 180)]);
    spans.push([at(1260), at(1380)]);
    await seed(s.student.id, s.tasks[0]!.id, spans);
    // 23:00 until 00:30 the next morning: 1,470 minutes for the day it started on
    const over = await offline(s.tasks[0]!.id, { started_at: at(1380).toISOString(), ended_at: at(1470).toISOString() }, s.student);
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.ended_at).toEqual(['An diesem Tag sind schon 24 Stunden Übung erfasst.']);
    // until midnight exactly: the day is full, not over
    const full = await offline(s.tasks[0]!.id, { started_at: at(1380).toISOString(), ended_at: at(1440).toISOString() }, s.student);
    expect(full.statusCode, full.body).toBe(201);
  });
});

describe('GET /api/submissions/{id}/practice-sessions in pages', () => {
  it('gives pages newest first with limit and offset, refuses bad values and other callers', async () => {
    const s = await school(1);
    const base = (await localMidnight(-3)).getTime();
    await seed(s.student.id, s.tasks[0]!.id, Array.from({ length: 5 }, (_, i) => [new Date(base + i * 10 * MIN), new Date(base + (i * 10 + 5) * MIN)] as [Date, Date]));
    const all: PracticeSession[] = (await list(s.tasks[0]!.id, s.student)).json();
    expect(all).toHaveLength(5);
    const first = await list(s.tasks[0]!.id, s.student, '?limit=2');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual(all.slice(0, 2));
    expect((await list(s.tasks[0]!.id, s.student, '?limit=2&offset=2')).json()).toEqual(all.slice(2, 4));
    expect((await list(s.tasks[0]!.id, s.student, '?limit=2&offset=4')).json()).toEqual(all.slice(4));
    expect((await list(s.tasks[0]!.id, s.student, '?offset=5')).json()).toEqual([]);
    // the teacher of the student reads the same pages
    expect((await list(s.tasks[0]!.id, s.teacher, '?limit=2&offset=2')).json()).toEqual(all.slice(2, 4));
    for (const q of ['?limit=0', '?limit=201', '?limit=abc', '?offset=-1', '?limit=1.5', '?page=2']) {
      const bad = await list(s.tasks[0]!.id, s.student, q);
      expect(bad.statusCode, q).toBeGreaterThanOrEqual(400);
      expect(bad.statusCode, q).toBeLessThan(500);
      expect(bad.statusCode, q).not.toBe(404);
    }
    // who may not read: nobody signed in, a classmate, another school's teacher
    expect((await list(s.tasks[0]!.id, undefined, '?limit=2')).statusCode).toBe(401);
    expect((await list(s.tasks[0]!.id, s.classmate, '?limit=2')).statusCode).toBe(404);
    const stranger = await t.teacher();
    expect((await list(s.tasks[0]!.id, stranger, '?limit=2')).statusCode).toBe(404);
  });

  it('refuses offline sessions and starts of a teacher or on a classmate\'s task', async () => {
    const s = await school(1);
    const times = { started_at: new Date(Date.now() - 10 * MIN).toISOString(), ended_at: new Date(Date.now() - 5 * MIN).toISOString() };
    expect((await start(s.tasks[0]!.id, s.teacher)).statusCode).toBe(403);
    expect((await offline(s.tasks[0]!.id, times, s.teacher)).statusCode).toBe(403);
    expect((await start(s.tasks[0]!.id, s.classmate)).statusCode).toBe(404);
    expect((await offline(s.tasks[0]!.id, times, s.classmate)).statusCode).toBe(404);
    expect(await sessionsOfStudent(s.student.id)).toEqual([]);
  });
});
