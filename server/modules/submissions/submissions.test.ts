import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { mediaFiles, practiceSessions, submissions } from '../../db/schema/index';
import { deriveStatus } from '@contract/status';
import type { Submission } from '@contract/submissions';

let t: TestApp;
let today: string;
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5).toISOString().slice(0, 10);

withTestApp((app, day) => {
  t = app;
  today = day;
});

async function school() {
  const teacher = await t.teacher();
  const course = await t.course(teacher);
  const otherCourse = await t.course(teacher);
  const student = await t.student(teacher, { courseIds: [course.id] });
  const classmate = await t.student(teacher, { courseIds: [course.id] });
  const exercise = await t.exercise(teacher, { courseIds: [course.id], description: 'Lange Töne' });
  return { teacher, course, otherCourse, student, classmate, exercise };
}

const get = (url: string, u?: TestUser, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...(u?.headers ?? {}), ...headers } });
const complete = (id: number, u?: TestUser, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'PATCH', url: `/api/submissions/${id}/complete`, headers: { ...(u?.headers ?? {}), ...headers } });

describe('GET /api/submissions', () => {
  it('refuses a guest with 401', async () => {
    expect((await get('/api/submissions')).statusCode).toBe(401);
  });

  it('gives a student only their own tasks, ordered by due date, with the contract shape', async () => {
    const s = await school();
    const later = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, 3), courseId: s.course.id });
    const sooner = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today, courseId: s.course.id, teacherNote: 'Langsam!' });
    await t.submission(s.classmate, s.teacher, s.exercise, { dueDate: today });
    const res = await get('/api/submissions', s.student);
    expect(res.statusCode).toBe(200);
    const list: Submission[] = res.json();
    expect(list.map((x) => x.id)).toEqual([sooner.id, later.id]);
    expect(list[0]).toMatchObject({
      student: { id: s.student.id, name: s.student.name },
      exercise: { id: s.exercise.id, title: s.exercise.title, description: 'Lange Töne', media_files: [] },
      exercise_title: s.exercise.title,
      course_id: s.course.id,
      due_date: today,
      teacher_note: 'Langsam!',
      completed_at: null,
      time_spent_minutes: 0,
      status: 'open',
    });
    // a student's student_id parameter cannot widen the view
    const sneaky = await get(`/api/submissions?student_id=${s.classmate.id}`, s.student);
    expect(sneaky.json().map((x: Submission) => x.student.id)).toEqual([s.student.id, s.student.id]);
  });

  it('filters by course, status and due-date range', async () => {
    const s = await school();
    const inCourse = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, 1), courseId: s.course.id });
    const other = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, 5), courseId: s.otherCourse.id });
    const done = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, -2), completedAt: new Date() });
    const overdue = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, -2) });
    const expired = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, -5), expirationDate: addDays(today, -3) });
    const ids = async (q: string) => ((await get(`/api/submissions?${q}`, s.student)).json() as Submission[]).map((x) => x.id);
    expect(await ids(`course_id=${s.course.id}`)).toEqual([inCourse.id]);
    expect(await ids('course_id=')).toHaveLength(5);
    expect(await ids('status=completed')).toEqual([done.id]);
    expect(await ids('status=overdue')).toEqual([overdue.id]);
    expect(await ids('status=expired')).toEqual([expired.id]);
    expect(await ids('status=open')).toEqual([inCourse.id, other.id]);
    expect(await ids('status=all')).toHaveLength(5);
    expect(await ids(`from=${addDays(today, 1)}&to=${addDays(today, 5)}`)).toEqual([inCourse.id, other.id]);
    expect((await get('/api/submissions?status=bogus', s.student)).statusCode).toBe(422);
    expect((await get('/api/submissions?from=2026-02-30', s.student)).statusCode).toBe(422);
    expect((await get('/api/submissions?course_id=abc', s.student)).statusCode).toBe(422);
  });

  it('derives the status in SQL exactly as contract/status.ts does', async () => {
    const s = await school();
    const cases = [
      { dueDate: addDays(today, -1), expirationDate: addDays(today, -1) },
      { dueDate: addDays(today, -1), expirationDate: today },
      { dueDate: today, expirationDate: today },
      { dueDate: today, expirationDate: null },
      { dueDate: addDays(today, -3), expirationDate: null },
      { dueDate: addDays(today, 2), expirationDate: addDays(today, 4) },
      { dueDate: addDays(today, -9), expirationDate: addDays(today, -7), completedAt: new Date() },
    ];
    for (const c of cases) await t.submission(s.student, s.teacher, s.exercise, c);
    const list: Submission[] = (await get('/api/submissions', s.student)).json();
    expect(list).toHaveLength(cases.length);
    for (const x of list) expect(x.status).toBe(deriveStatus(x, today));
    expect(new Set(list.map((x) => x.status))).toEqual(new Set(['expired', 'overdue', 'open', 'completed']));
  });

  it("gives a teacher their students' tasks only, with the student filter", async () => {
    const s = await school();
    const a = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    const b = await t.submission(s.classmate, s.teacher, s.exercise, { dueDate: today });
    const foreign = await school();
    await t.submission(foreign.student, foreign.teacher, foreign.exercise, { dueDate: today });
    const all: Submission[] = (await get('/api/submissions', s.teacher)).json();
    expect(all.map((x) => x.id).sort()).toEqual([a.id, b.id].sort());
    const one: Submission[] = (await get(`/api/submissions?student_id=${s.classmate.id}`, s.teacher)).json();
    expect(one.map((x) => x.id)).toEqual([b.id]);
    const other: Submission[] = (await get(`/api/submissions?student_id=${foreign.student.id}`, s.teacher)).json();
    expect(other).toEqual([]);
  });
});

describe('GET /api/submissions: pages, orders and counts', () => {
  /** A student with tasks in every status, in two courses, on many dates; a classmate's tasks beside. */
  async function busyStudent() {
    const s = await school();
    const made: Array<{ id: number; due: string; course: number | null; status: Submission['status'] }> = [];
    for (let i = 0; i < 23; i++) {
      const due = addDays(today, (i % 2 ? -1 : 1) * ((i * 7) % 11) + (i % 5 === 0 ? 0 : 0));
      const kind = i % 4; // 0 open/overdue by date, 1 completed, 2 expired, 3 no expiry
      const o =
        kind === 1
          ? { completedAt: new Date() }
          : kind === 2
            ? { dueDate: addDays(today, -10 - i), expirationDate: addDays(today, -8 - i) }
            : kind === 0
              ? { expirationDate: addDays(due, 2) }
              : {};
      const courseId = i % 3 === 0 ? s.otherCourse.id : s.course.id;
      const row = await t.submission(s.student, s.teacher, s.exercise, { dueDate: due, courseId, ...o });
      made.push({ id: row.id, due: row.dueDate, course: courseId, status: deriveStatus({ completed_at: row.completedAt ? 'x' : null, due_date: row.dueDate, expiration_date: row.expirationDate }, today) });
    }
    await t.submission(s.classmate, s.teacher, s.exercise, { dueDate: today, courseId: s.course.id });
    return { ...s, made };
  }
  const ids = async (q: string, u: TestUser) => {
    const res = await get(`/api/submissions?${q}`, u);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as Submission[]).map((x) => x.id);
  };
  const todo = (st: string) => st === 'open' || st === 'overdue';

  it('order=work lists what is still to do first (earliest due), then the rest (latest due), and pages through it without gaps or repeats', async () => {
    const s = await busyStudent();
    const expected = [...s.made]
      .sort((a, b) => {
        if (todo(a.status) !== todo(b.status)) return todo(a.status) ? -1 : 1;
        const byDue = todo(a.status) ? a.due.localeCompare(b.due) : b.due.localeCompare(a.due);
        return byDue || a.id - b.id;
      })
      .map((x) => x.id);
    expect(await ids('order=work', s.student)).toEqual(expected);
    const pages: number[] = [];
    for (let offset = 0; offset < 30; offset += 7) pages.push(...(await ids(`order=work&limit=7&offset=${offset}`, s.student)));
    expect(pages).toEqual(expected);
    expect(await ids('order=work&limit=5', s.student)).toEqual(expected.slice(0, 5));
  });

  it('filters several statuses at once, orders by due date either way, and pages within the filter', async () => {
    const s = await busyStudent();
    const byDue = (a: { due: string; id: number }, b: { due: string; id: number }) => a.due.localeCompare(b.due) || a.id - b.id;
    const openish = s.made.filter((x) => todo(x.status)).sort(byDue).map((x) => x.id);
    expect(openish.length).toBeGreaterThan(3);
    expect(await ids('status=open,overdue', s.student)).toEqual(openish);
    expect(await ids('status=open&status=overdue&limit=3', s.student)).toEqual(openish.slice(0, 3));
    const done = s.made.filter((x) => x.status === 'completed').sort(byDue).reverse().map((x) => x.id);
    expect(await ids('status=completed&order=due_desc', s.student)).toEqual(done);
    expect(await ids('status=completed&order=due_desc&limit=2&offset=2', s.student)).toEqual(done.slice(2, 4));
    const inCourse = s.made.filter((x) => x.course === s.course.id && todo(x.status)).sort(byDue).map((x) => x.id);
    expect(await ids(`status=open,overdue&course_id=${s.course.id}`, s.student)).toEqual(inCourse);
    // the default order and the full list are unchanged without limit
    expect(await ids('', s.student)).toEqual([...s.made].sort(byDue).map((x) => x.id));
  });

  it('counts match a hand count, per course, for the student and for the teacher; a foreign teacher counts nothing', async () => {
    const s = await busyStudent();
    const hand = (list: typeof s.made) => ({
      total: list.length,
      open: list.filter((x) => x.status === 'open').length,
      overdue: list.filter((x) => x.status === 'overdue').length,
      completed: list.filter((x) => x.status === 'completed').length,
      expired: list.filter((x) => x.status === 'expired').length,
    });
    const counts = async (q: string, u: TestUser) => {
      const res = await get(`/api/submissions/counts?${q}`, u);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await counts('', s.student)).toEqual(hand(s.made));
    expect(await counts(`course_id=${s.course.id}`, s.student)).toEqual(hand(s.made.filter((x) => x.course === s.course.id)));
    expect(await counts(`student_id=${s.student.id}`, s.teacher)).toEqual(hand(s.made));
    // a student's student_id cannot widen the view; the teacher without it counts all their students
    expect(await counts(`student_id=${s.classmate.id}`, s.student)).toEqual(hand(s.made));
    expect((await counts('', s.teacher)).total).toBe(s.made.length + 1);
    const foreign = await school();
    expect(await counts(`student_id=${s.student.id}`, foreign.teacher)).toEqual({ total: 0, open: 0, overdue: 0, completed: 0, expired: 0 });
    expect((await get('/api/submissions/counts')).statusCode).toBe(401);
    expect((await get('/api/submissions/counts?course_id=abc', s.student)).statusCode).toBe(422);
  });

  it('refuses a bad page, order or status list with 422', async () => {
    const s = await school();
    for (const q of ['limit=0', 'limit=201', 'limit=abc', 'limit=0x10', 'limit=1e1', 'offset=-1', 'offset=%201', 'order=random', 'status=open,bogus', 'status=,', 'student_id=2e0', 'course_id=0x1']) {
      const res = await get(`/api/submissions?${q}`, s.student);
      expect(res.statusCode, q).toBe(422);
    }
    expect((await get('/api/submissions?limit=200&offset=0&order=due_desc&status=', s.student)).statusCode).toBe(200);
  });

  it('reads ids and numbers as decimal digits only: 0x2, 2e0, 2.0 or " 2" are refused, not taken for 2', async () => {
    const s = await school();
    const task = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    expect((await get(`/api/submissions/${task.id}`, s.student)).statusCode).toBe(200);
    for (const id of [`0x${task.id.toString(16)}`, `${task.id}e0`, `${task.id}.0`, `%20${task.id}`, `+${task.id}`]) {
      const res = await get(`/api/submissions/${id}`, s.student);
      expect(res.statusCode, id).toBe(422);
      expect(res.json().errors.id).toBeDefined();
    }
  });
});

describe('GET /api/submissions/{id}', () => {
  it('shows a student their own task with its exercise media', async () => {
    const s = await school();
    await t.db.insert(mediaFiles).values([
      { exerciseId: s.exercise.id, type: 'image', path: `exercises/${s.exercise.id}/media/a.png`, filename: 'Griff.png', size: 1234, mimeType: 'image/png' },
      { exerciseId: s.exercise.id, type: 'pdf', path: `exercises/${s.exercise.id}/media/b.pdf`, filename: 'Noten.pdf', size: 99, mimeType: 'application/pdf' },
    ]);
    const sub = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    const res = await get(`/api/submissions/${sub.id}`, s.student);
    expect(res.statusCode).toBe(200);
    expect(res.json().exercise.media_files.map((m: { filename: string; type: string }) => [m.filename, m.type])).toEqual([
      ['Griff.png', 'image'],
      ['Noten.pdf', 'pdf'],
    ]);
  });

  it("answers 404 for another student's task, a foreign teacher's task and a missing id; 401 for a guest; 422 for a bad id", async () => {
    const s = await school();
    const sub = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    expect((await get(`/api/submissions/${sub.id}`)).statusCode).toBe(401);
    const byClassmate = await get(`/api/submissions/${sub.id}`, s.classmate);
    expect(byClassmate.statusCode).toBe(404);
    expect(byClassmate.json().message).toBe('Aufgabe nicht gefunden.');
    expect((await get(`/api/submissions/${sub.id}`, s.classmate, { 'accept-language': 'tr' })).json().message).toBe('Ödev bulunamadı.');
    const foreign = await school();
    expect((await get(`/api/submissions/${sub.id}`, foreign.teacher)).statusCode).toBe(404);
    expect((await get(`/api/submissions/${sub.id}`, foreign.student)).statusCode).toBe(404);
    expect((await get('/api/submissions/2147483000', s.student)).statusCode).toBe(404);
    expect((await get('/api/submissions/abc', s.student)).statusCode).toBe(422);
    expect((await get('/api/submissions/99999999999', s.student)).statusCode).toBe(422);
  });

  it("shows a teacher their own student's task", async () => {
    const s = await school();
    const sub = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    const res = await get(`/api/submissions/${sub.id}`, s.teacher);
    expect(res.statusCode).toBe(200);
    expect(res.json().student.id).toBe(s.student.id);
  });

  it('keeps title and media of a task whose exercise was deleted (soft delete)', async () => {
    const s = await school();
    await t.db.insert(mediaFiles).values({ exerciseId: s.exercise.id, type: 'pdf', path: `exercises/${s.exercise.id}/media/x.pdf`, filename: 'x.pdf', size: 1, mimeType: 'application/pdf' });
    const sub = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    await t.db.execute(sql`update exercises set deleted_at = now() where id = ${s.exercise.id}`);
    const res = await get(`/api/submissions/${sub.id}`, s.student);
    expect(res.json().exercise.media_files).toHaveLength(1);
    expect(res.json().exercise_title).toBe(s.exercise.title);
  });
});

describe('PATCH /api/submissions/{id}/complete', () => {
  it('marks an open or overdue task done; a second call answers 200 unchanged', async () => {
    const s = await school();
    const open = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    const overdue = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, -1), expirationDate: addDays(today, 1) });
    const res = await complete(open.id, s.student);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe('completed');
    const completedAt = res.json().completed_at;
    expect(Math.abs(Date.parse(completedAt) - Date.now())).toBeLessThan(60_000);
    const again = await complete(open.id, s.student);
    expect(again.statusCode).toBe(200);
    expect(again.json().completed_at).toBe(completedAt);
    expect((await complete(overdue.id, s.student)).json().status).toBe('completed');
  });

  it('refuses an expired task with 409 (German and Turkish) and leaves it open', async () => {
    const s = await school();
    const expired = await t.submission(s.student, s.teacher, s.exercise, { dueDate: addDays(today, -4), expirationDate: addDays(today, -2) });
    const res = await complete(expired.id, s.student);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('Diese Aufgabe ist verfallen und kann nicht mehr bearbeitet werden.');
    expect((await complete(expired.id, s.student, { 'accept-language': 'tr' })).json().message).toBe(
      'Bu ödevin süresi doldu, artık üzerinde işlem yapılamaz.',
    );
    const [row] = await t.db.select().from(submissions).where(eq(submissions.id, expired.id));
    expect(row?.completedAt).toBeNull();
  });

  it('is for the owning student only: guest 401, teacher 403, another student 404', async () => {
    const s = await school();
    const sub = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    expect((await complete(sub.id)).statusCode).toBe(401);
    const asTeacher = await complete(sub.id, s.teacher);
    expect(asTeacher.statusCode).toBe(403);
    expect((await complete(sub.id, s.classmate)).statusCode).toBe(404);
    expect((await complete(2147483000, s.student)).statusCode).toBe(404);
    const [row] = await t.db.select().from(submissions).where(eq(submissions.id, sub.id));
    expect(row?.completedAt).toBeNull();
  });

  it('stops a running practice session first and counts its time', async () => {
    const s = await school();
    const sub = await t.submission(s.student, s.teacher, s.exercise, { dueDate: today });
    const start = await t.app.inject({ method: 'POST', url: `/api/submissions/${sub.id}/practice-sessions/start`, headers: s.student.headers });
    expect(start.statusCode).toBe(201);
    await t.db.execute(sql`update practice_sessions set started_at = now() - interval '12 minutes 30 seconds' where id = ${start.json().id}`);
    const res = await complete(sub.id, s.student);
    expect(res.statusCode).toBe(200);
    const [session] = await t.db.select().from(practiceSessions).where(eq(practiceSessions.id, start.json().id));
    expect(session?.endedAt).not.toBeNull();
    expect(session?.durationMinutes).toBeGreaterThanOrEqual(12.5);
    expect(session?.durationMinutes).toBeLessThan(13);
    expect(res.json().time_spent_minutes).toBe(session?.durationMinutes);
    const active = await get(`/api/submissions/${sub.id}/practice-sessions/active`, s.student);
    expect(active.statusCode).toBe(404);
  });
});
