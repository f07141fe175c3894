import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { rows } from '../../db/client';
import type { Submission, TaskSeries } from '@contract/submissions';
import type { GuardianChildDetail } from '@contract/guardians';

/** Undoing "done" and repeating tasks as series (docs/decisions/done-means-practised.md). */
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
  return { teacher, student, classmate, exercise };
}

const call = (u: TestUser | undefined, method: 'GET' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method, url, headers: { ...(u?.headers ?? {}), ...headers } });
const reopen = (id: number, u?: TestUser, headers: Record<string, string> = {}) => call(u, 'DELETE', `/api/submissions/${id}/complete`, headers);
const series = (u: TestUser, query = '') => call(u, 'GET', `/api/submissions/series${query}`);

async function audits(schoolId: number, submissionId: number) {
  return rows<{ actor_id: number; target_id: number; details: { submission_id: number; repeats?: number } }>(
    t.deps.db,
    sql`select actor_id, target_id, details from audit_log where school_id = ${schoolId} and action = 'task.reopen' and (details->>'submission_id')::int = ${submissionId}`,
  );
}

describe('DELETE /api/submissions/{id}/complete (undo of done)', () => {
  it('reopens the student’s own task completed a moment ago, audited once; repeating it answers 200 unchanged', async () => {
    const s = await school();
    const task = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    expect((await call(s.student, 'PATCH', `/api/submissions/${task.id}/complete`)).statusCode).toBe(200);
    const res = await reopen(task.id, s.student);
    expect(res.statusCode).toBe(200);
    expect(res.json<Submission>()).toMatchObject({ id: task.id, status: 'open', completed_at: null });
    const again = await reopen(task.id, s.student);
    expect(again.statusCode).toBe(200);
    expect(again.json<Submission>().status).toBe('open');
    const logged = await audits(s.student.schoolId, task.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ actor_id: s.student.id, target_id: s.student.id });
    // done again afterwards: the undo left nothing behind
    expect((await call(s.student, 'PATCH', `/api/submissions/${task.id}/complete`)).json<Submission>().status).toBe('completed');
  });

  it('an undo loop writes one audit row per task and ten minutes, counting the repeats in it', async () => {
    const s = await school();
    const task = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    const other = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, 1) });
    const loop = async (id: number, times: number) => {
      for (let i = 0; i < times; i++) {
        expect((await call(s.student, 'PATCH', `/api/submissions/${id}/complete`)).statusCode).toBe(200);
        expect((await reopen(id, s.student)).statusCode).toBe(200);
      }
    };
    await loop(task.id, 25);
    await loop(other.id, 3);
    const logged = await audits(s.student.schoolId, task.id);
    expect(logged).toHaveLength(1);
    expect(logged[0]!.details).toMatchObject({ submission_id: task.id, repeats: 24 });
    expect(await audits(s.student.schoolId, other.id)).toEqual([expect.objectContaining({ details: expect.objectContaining({ submission_id: other.id, repeats: 2 }) })]);
    // ten minutes after the logged one, a reopening is a new row again
    await t.deps.db.execute(sql`update audit_log set created_at = created_at - interval '11 minutes' where action = 'task.reopen' and (details->>'submission_id')::int = ${task.id}`);
    await loop(task.id, 2);
    const later = await audits(s.student.schoolId, task.id);
    expect(later).toHaveLength(2);
    expect(later.map((r) => r.details.repeats ?? 0).sort()).toEqual([1, 24]);
  });

  it('answers a repeated Idempotency-Key with the stored answer', async () => {
    const s = await school();
    const task = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today, completedAt: new Date() });
    const key = { 'idempotency-key': randomUUID() };
    expect((await reopen(task.id, s.student, key)).statusCode).toBe(200);
    await call(s.student, 'PATCH', `/api/submissions/${task.id}/complete`);
    const replay = await reopen(task.id, s.student, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.json<Submission>().status).toBe('open');
    // the replay did not run again: the task stays completed
    expect((await call(s.student, 'GET', `/api/submissions/${task.id}`)).json<Submission>().status).toBe('completed');
  });

  it('refuses a guest (401), the teacher (403), another student (404) and an unknown task (404)', async () => {
    const s = await school();
    const task = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today, completedAt: new Date() });
    expect((await reopen(task.id)).statusCode).toBe(401);
    expect((await reopen(task.id, s.teacher)).statusCode).toBe(403);
    expect((await reopen(task.id, s.classmate)).statusCode).toBe(404);
    expect((await reopen(2147483000, s.student)).statusCode).toBe(404);
    const guardian = await t.guardian([s.student]);
    expect((await reopen(task.id, guardian)).statusCode).toBe(403);
    expect((await call(s.student, 'GET', `/api/submissions/${task.id}`)).json<Submission>().status).toBe('completed');
    expect(await audits(s.student.schoolId, task.id)).toHaveLength(0);
  });

  it('refuses after the window (409) and after the teacher’s review (409), leaving the task done', async () => {
    const s = await school();
    const old = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today, completedAt: new Date(Date.now() - 11 * 60_000) });
    const late = await reopen(old.id, s.student);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toContain('10 Minuten');
    expect((await reopen(old.id, s.student, { 'accept-language': 'tr' })).statusCode).toBe(409);

    const reviewed = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, 1), completedAt: new Date() });
    const review = await t.app.inject({
      method: 'PATCH',
      url: `/api/submissions/${reviewed.id}/review`,
      headers: s.teacher.headers,
      payload: { accuracy_score: 80, competency_level: 'intermediate' },
    });
    expect(review.statusCode).toBe(200);
    const res = await reopen(reviewed.id, s.student);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toContain('bewertet');
    for (const id of [old.id, reviewed.id]) expect((await call(s.student, 'GET', `/api/submissions/${id}`)).json<Submission>().status).toBe('completed');
    expect(await audits(s.student.schoolId, old.id)).toHaveLength(0);
  });

  it('reopens an overdue task as overdue', async () => {
    const s = await school();
    const task = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, -2), completedAt: new Date() });
    expect((await reopen(task.id, s.student)).json<Submission>().status).toBe('overdue');
  });
});

/** A daily series of `days` occurrences from `start`; `done` lists the offsets completed. */
async function dailySeries(s: Awaited<ReturnType<typeof school>>, start: string, days: number, done: number[], minutes: Record<number, number> = {}, student = s.student) {
  const seriesId = randomUUID();
  const made = [];
  for (let i = 0; i < days; i++)
    made.push(
      await t.submission(student, s.teacher, s.exercise, {
        seriesId,
        dueDate: addDays(start, i),
        completedAt: done.includes(i) ? new Date() : null,
        timeSpentMinutes: minutes[i] ?? 0,
      }),
    );
  return { seriesId, made };
}

describe('GET /api/submissions/series', () => {
  it('gives a daily task of 5 occurrences, the last three before today done in a row, as one series with streak 3', async () => {
    const s = await school();
    // today-4 missed, today-3 … today-1 done, today open with 12.5 minutes practised
    const { seriesId, made } = await dailySeries(s, addDays(today, -4), 5, [1, 2, 3], { 4: 12.5 });
    const single = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, 2) });
    const res = await series(s.student);
    expect(res.statusCode).toBe(200);
    const list = res.json<TaskSeries[]>();
    expect(list.map((x) => x.series_id)).toEqual([seriesId, single.seriesId]);
    expect(list[0]).toMatchObject({
      series_id: seriesId,
      student_id: s.student.id,
      title: s.exercise.title,
      occurrences: 5,
      completed: 3,
      next_due: today,
      streak: 3,
      today: { submission_id: made[4]!.id, time_spent_minutes: 12.5, done: false },
      current: { id: made[4]!.id, status: 'open', due_date: today },
    });
    expect(list[1]).toMatchObject({ occurrences: 1, completed: 0, streak: 0, today: null, next_due: addDays(today, 2), current: { id: single.id } });
  });

  it('a missed day breaks the streak; today done counts; done today stays listed after the open ones', async () => {
    const s = await school();
    // today-4 … today-2 done, today-1 missed, today done, tomorrow still to do
    const { made } = await dailySeries(s, addDays(today, -4), 6, [0, 1, 2, 4]);
    const other = await dailySeries(s, addDays(today, 1), 3, []);
    const [first, second] = (await series(s.student)).json<TaskSeries[]>();
    expect(first).toMatchObject({ series_id: other.seriesId, streak: 0, today: null, current: { id: other.made[0]!.id } });
    expect(second).toMatchObject({ occurrences: 6, completed: 4, streak: 1, next_due: addDays(today, 1), today: { submission_id: made[4]!.id, done: true } });
    expect(second!.current).toMatchObject({ id: made[4]!.id, status: 'completed' });
  });

  it('scope=current leaves out series that are over; scope=all keeps them with their latest occurrence as current', async () => {
    const s = await school();
    const past = await dailySeries(s, addDays(today, -5), 3, [0, 1, 2]);
    expect((await series(s.student)).json<TaskSeries[]>()).toEqual([]);
    const all = (await series(s.student, '?scope=all')).json<TaskSeries[]>();
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ series_id: past.seriesId, occurrences: 3, completed: 3, streak: 3, next_due: null, current: { id: past.made[2]!.id, status: 'completed' } });
  });

  it('a student sees only their own; a teacher one of their students; anyone else is refused', async () => {
    const s = await school();
    await dailySeries(s, today, 3, [0]);
    await dailySeries(s, today, 2, [], {}, s.classmate);
    expect((await series(s.student)).json<TaskSeries[]>().map((x) => x.student_id)).toEqual([s.student.id]);
    const viaTeacher = await series(s.teacher, `?student_id=${s.student.id}`);
    expect(viaTeacher.statusCode).toBe(200);
    expect(viaTeacher.json<TaskSeries[]>()).toHaveLength(1);
    expect((await series(s.teacher)).statusCode).toBe(403);
    const otherTeacher = await t.teacher();
    expect((await series(otherTeacher, `?student_id=${s.student.id}`)).statusCode).toBe(404);
    // a student's student_id is ignored: still their own
    expect((await series(s.classmate, `?student_id=${s.student.id}`)).json<TaskSeries[]>().map((x) => x.student_id)).toEqual([s.classmate.id]);
    expect((await call(undefined, 'GET', '/api/submissions/series')).statusCode).toBe(401);
    const guardian = await t.guardian([s.student]);
    expect((await series(guardian)).statusCode).toBe(403);
  });

  it('limit gives the first series, each with its current occurrence', async () => {
    const s = await school();
    for (let i = 0; i < 8; i++) await dailySeries(s, today, 3, []);
    const res = await series(s.student, '?limit=5');
    expect(res.json<TaskSeries[]>()).toHaveLength(5);
    expect(res.json<TaskSeries[]>().every((x) => x.current.due_date === today && x.occurrences === 3)).toBe(true);
  });
});

describe('the guardian’s view of a child’s series', () => {
  it('shows a daily task once, with today’s minutes and the streak, for their own child only', async () => {
    const s = await school();
    const { seriesId, made } = await dailySeries(s, addDays(today, -2), 10, [0, 1], { 2: 7 });
    await dailySeries(s, today, 4, [], {}, s.classmate);
    const parent = await t.guardian([s.student]);
    const res = await call(parent, 'GET', `/api/guardian/children/${s.student.id}`);
    expect(res.statusCode).toBe(200);
    const d = res.json<GuardianChildDetail>();
    expect(d.series).toHaveLength(1);
    expect(d.series[0]).toMatchObject({
      series_id: seriesId,
      student_id: s.student.id,
      occurrences: 10,
      completed: 2,
      streak: 2,
      today: { submission_id: made[2]!.id, time_spent_minutes: 7, done: false },
    });
    expect((await call(parent, 'GET', `/api/guardian/children/${s.classmate.id}`)).statusCode).toBe(404);
  });
});
