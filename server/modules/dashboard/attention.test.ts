import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../db/client';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { addDays } from '@contract/recurrence';
import { ATTENTION, type TeacherAttention } from '@contract/dashboard';
import { todayInZone } from '../../lib/time';

let t: TestApp;
let today: string;
let tz: string;
beforeAll(async () => {
  t = await setupTestApp();
  tz = t.deps.config.APP_TIMEZONE;
  today = todayInZone(tz);
});
afterAll(async () => {
  await t.close();
});

const get = (user: TestUser | null, query = '') => t.app.inject({ method: 'GET', url: `/api/dashboard/attention${query}`, headers: user?.headers ?? {} });

/** An instant given as the school's local date and time (APP_TIMEZONE). */
async function localInstant(day: string, time: string): Promise<Date> {
  const [r] = await rows<{ at: Date | string }>(t.db, sql`select ((${day}::date + ${time}::time) at time zone ${tz}) as at`);
  return new Date(r!.at);
}

/** A practice session of the student on the task, started at the school's local `time` of `day`. */
async function practised(student: { id: number }, taskId: number, day: string, time = '12:00') {
  await t.db.execute(
    sql`insert into practice_sessions (submission_id, student_id, started_at, ended_at, duration_minutes)
        values (${taskId}, ${student.id}, (${day}::date + ${time}::time) at time zone ${tz}, (${day}::date + ${time}::time) at time zone ${tz} + interval '10 minutes', 10)`,
  );
}

/** An unanswered (or answered) take of the student's task, sent at `at`. */
async function take(student: { id: number }, teacher: { id: number }, taskId: number, at: Date, answered = false) {
  const [r] = await rows<{ id: number }>(
    t.db,
    sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms, created_at, answered_at)
        values (${taskId}, ${student.id}, ${teacher.id}, 'audio', 'audio/wav', ${`recordings/${taskId}/${Math.random().toString(36).slice(2)}.wav`}, 'take.wav', 100, 1000,
                ${at.toISOString()}::timestamptz, ${answered ? sql`now()` : null}) returning id`,
  );
  return r!.id;
}

describe('GET /api/dashboard/attention', () => {
  it('refuses guests (401), students, parents and administrators (403)', async () => {
    const teacher = await t.teacher();
    const s = await t.student(teacher);
    const parent = await t.guardian([s]);
    const admin = await t.admin();
    expect((await get(null)).statusCode).toBe(401);
    expect((await get(s)).statusCode).toBe(403);
    expect((await get(parent)).statusCode).toBe(403);
    expect((await get(admin)).statusCode).toBe(403);
    expect((await get(teacher, '?course_id=x')).statusCode).toBe(422);
  });

  it('finds quiet students, piling overdue tasks and the oldest waiting takes as counted by hand, in the school’s time zone', async () => {
    const teacher = await t.teacher();
    const violin = await t.course(teacher);
    const long = await localInstant(addDays(today, -60), '12:00');
    const ex = await t.exercise(teacher, { courseIds: [violin.id] });
    const task = (s: TestUser, o: { dueDate?: string; courseId?: number | null; completedAt?: Date; expirationDate?: string } = {}) =>
      t.submission(s, teacher, ex, { courseId: o.courseId === undefined ? violin.id : o.courseId, dueDate: o.dueDate ?? today, ...o });

    // Quiet: last practice 4 days ago at 00:30 local time (5 days ago by UTC in Europe/Berlin): not quiet.
    const ada = await t.student(teacher, { name: 'Ada', createdAt: long, courseIds: [violin.id] });
    await practised(ada, (await task(ada)).id, addDays(today, -4), '00:30');
    // 5 days ago at 23:30 local time: quiet for exactly 5 days.
    const ben = await t.student(teacher, { name: 'Ben', createdAt: long, courseIds: [violin.id] });
    await practised(ben, (await task(ben)).id, addDays(today, -5), '23:30');
    await practised(ben, (await task(ben)).id, addDays(today, -9));
    // Never practised, registered 60 days ago: quiet for 60 days (first).
    const cem = await t.student(teacher, { name: 'Cem', createdAt: long });
    // Never practised, registered two days ago: too new to be quiet.
    await t.student(teacher, { name: 'Dana', createdAt: await localInstant(addDays(today, -2), '09:00'), courseIds: [violin.id] });
    // Practised today: not quiet; 3 overdue tasks (one of another course), 1 expired, 1 done, 1 due today: piling with 3.
    const eda = await t.student(teacher, { name: 'Eda', createdAt: long, courseIds: [violin.id] });
    await practised(eda, (await task(eda)).id, today, '08:00');
    await task(eda, { dueDate: addDays(today, -10) });
    await task(eda, { dueDate: addDays(today, -2) });
    await task(eda, { dueDate: addDays(today, -1), courseId: null });
    await task(eda, { dueDate: addDays(today, -20), expirationDate: addDays(today, -1) });
    await task(eda, { dueDate: addDays(today, -3), completedAt: new Date() });
    // Ben also has 2 overdue tasks: below the threshold.
    await task(ben, { dueDate: addDays(today, -1) });
    await task(ben, { dueDate: addDays(today, -6) });
    // A deactivated student is never listed.
    const gone = await t.student(teacher, { name: 'Fritz', createdAt: long, deactivatedAt: new Date() });
    for (const d of [-1, -2, -3]) await task(gone, { dueDate: addDays(today, d) });

    // Takes: three unanswered (sent 3 days, 1 day and 2 hours ago), one answered.
    const t1 = await task(eda);
    const newest = await take(eda, teacher, t1.id, new Date(Date.now() - 2 * 3_600_000));
    const oldest = await take(ben, teacher, (await task(ben)).id, await localInstant(addDays(today, -3), '10:00'));
    const middle = await take(cem, teacher, (await task(cem, { courseId: null })).id, await localInstant(addDays(today, -1), '10:00'));
    await take(ada, teacher, (await task(ada)).id, await localInstant(addDays(today, -7), '10:00'), true);

    // Another teacher's students, tasks and takes never appear.
    const other = await t.teacher();
    const stranger = await t.student(other, { name: 'Fremd', createdAt: long });
    const oe = await t.exercise(other);
    for (const d of [-1, -2, -3]) await t.submission(stranger, other, oe, { dueDate: addDays(today, d) });
    await take(stranger, other, (await t.submission(stranger, other, oe)).id, await localInstant(addDays(today, -30), '10:00'));

    const res = await get(teacher);
    expect(res.statusCode).toBe(200);
    const a: TeacherAttention = res.json();
    expect(a.quiet_days).toBe(ATTENTION.quietDays);
    expect(a.overdue_min).toBe(ATTENTION.overdueMin);
    expect(a.quiet).toEqual({
      total: 2,
      students: [
        { id: cem.id, name: 'Cem', last_practice: null, days: 60 },
        { id: ben.id, name: 'Ben', last_practice: addDays(today, -5), days: 5 },
      ],
    });
    expect(a.overdue).toEqual({ total: 1, students: [{ id: eda.id, name: 'Eda', overdue: 3, oldest_due: addDays(today, -10) }] });
    expect(a.waiting.total).toBe(3);
    expect(a.waiting.takes.map((w) => [w.id, w.student.name, w.days])).toEqual([
      [oldest, 'Ben', 3],
      [middle, 'Cem', 1],
      [newest, 'Eda', expect.any(Number)],
    ]);
    expect(a.waiting.takes[0]).toMatchObject({ exercise_title: ex.title, student: { id: ben.id } });
    expect(a.first_steps).toEqual({ course: true, student: true, exercise: true, assignment: true });
    expect(res.body).not.toContain('Fremd');
    expect(res.body).not.toContain('Fritz');

    // The violin course: Cem is not enrolled, Eda's overdue task without a course drops out, Cem's take has no course.
    const v: TeacherAttention = (await get(teacher, `?course_id=${violin.id}`)).json();
    expect(v.quiet.students.map((s) => s.name)).toEqual(['Ben']);
    expect(v.overdue).toEqual({ total: 0, students: [] });
    expect(v.waiting.takes.map((w) => w.id)).toEqual([oldest, newest]);

    // Another teacher's course gives empty lists; the other teacher sees only their own.
    const foreign: TeacherAttention = (await get(teacher, `?course_id=${(await t.course(other)).id}`)).json();
    expect([foreign.quiet.total, foreign.overdue.total, foreign.waiting.total]).toEqual([0, 0, 0]);
    const theirs = await get(other);
    const o: TeacherAttention = theirs.json();
    expect(o.quiet.students.map((s) => s.name)).toEqual(['Fremd']);
    expect(o.overdue.students.map((s) => s.name)).toEqual(['Fremd']);
    expect(o.waiting.total).toBe(1);
    for (const name of ['Ada', 'Ben', 'Cem', 'Eda']) expect(theirs.body).not.toContain(`"${name}"`);
  });

  it('lists at most three per kind with the full total', async () => {
    const teacher = await t.teacher();
    const ex = await t.exercise(teacher);
    for (let i = 0; i < 7; i++) {
      // Registered at local noon (a day's length changes at the switch to and from summer time).
      const s = await t.student(teacher, { name: `Still ${i}`, createdAt: await localInstant(addDays(today, -30 - i), '12:00') });
      for (const d of [-1, -2, -3]) await t.submission(s, teacher, ex, { dueDate: addDays(today, d - i) });
    }
    const a: TeacherAttention = (await get(teacher)).json();
    expect(a.quiet.total).toBe(7);
    expect(a.quiet.students.map((s) => s.name)).toEqual(['Still 6', 'Still 5', 'Still 4']);
    expect(a.overdue.total).toBe(7);
    expect(a.overdue.students).toHaveLength(ATTENTION.rows);
    expect(a.overdue.students[0]).toMatchObject({ name: 'Still 6', overdue: 3, oldest_due: addDays(today, -9) });
  });

  it('ticks off a new teacher’s first steps one by one', async () => {
    const teacher = await t.teacher();
    const steps = async () => ((await get(teacher)).json() as TeacherAttention).first_steps;
    expect(await steps()).toEqual({ course: false, student: false, exercise: false, assignment: false });
    const empty: TeacherAttention = (await get(teacher)).json();
    expect([empty.quiet, empty.overdue, empty.waiting]).toEqual([
      { total: 0, students: [] },
      { total: 0, students: [] },
      { total: 0, takes: [] },
    ]);
    await t.course(teacher);
    expect(await steps()).toEqual({ course: true, student: false, exercise: false, assignment: false });
    const s = await t.student(teacher);
    expect(await steps()).toEqual({ course: true, student: true, exercise: false, assignment: false });
    await t.exercise(teacher, { deletedAt: new Date() });
    expect((await steps()).exercise).toBe(false);
    const ex = await t.exercise(teacher);
    expect(await steps()).toEqual({ course: true, student: true, exercise: true, assignment: false });
    await t.submission(s, teacher, ex);
    expect(await steps()).toEqual({ course: true, student: true, exercise: true, assignment: true });
  });
});
