import { describe, expect, it } from 'vitest';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { practiceSessions } from '../../db/schema/index';
import { todayInZone } from '../../lib/time';

const TZ = 'Europe/Berlin'; // APP_TIMEZONE's default, as in the test app
let t: TestApp;
withTestApp((app) => {
  t = app;
});

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The instant of local midnight at the start of `date` in Berlin, computed by hand from the zone's offset (not by the database). */
function berlinMidnight(date: string): Date {
  // The offset valid at 00:00 is the one of the evening before (changes happen at 02:00/03:00).
  const noonBefore = new Date(`${addDays(date, -1)}T12:00:00Z`);
  const name = new Intl.DateTimeFormat('en-US', { timeZone: TZ, timeZoneName: 'shortOffset' }).formatToParts(noonBefore).find((p) => p.type === 'timeZoneName')!.value;
  const hours = Number(/GMT([+-]\d+)/.exec(name)?.[1] ?? 0);
  return new Date(Date.parse(`${date}T00:00:00Z`) - hours * 3600_000);
}

async function session(student: { id: number }, sub: { id: number }, start: Date, minutes: number | null) {
  await t.db.insert(practiceSessions).values({
    submissionId: sub.id,
    studentId: student.id,
    startedAt: start,
    endedAt: minutes === null ? null : new Date(start.getTime() + minutes * 60000),
    durationMinutes: minutes,
  });
  t.forgetReads();
}

const get = (user: TestUser | null, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/students/progress${query}`, headers: user ? user.headers : {} });

describe('GET /api/students/progress', () => {
  it('gives each own student last practice, minutes of the last 7 local days and open/overdue counts (hand count, zone edge)', async () => {
    const teacher = await t.teacher();
    const course = await t.course(teacher);
    const ayse = await t.student(teacher, { name: 'Ayşe Progress' });
    const bora = await t.student(teacher, { name: 'Bora Progress', courseIds: [course.id] });
    const exercise = await t.exercise(teacher);
    const today = todayInZone(TZ);
    const task = (o: Parameters<TestApp['submission']>[3]) => t.submission(ayse, teacher, exercise, o);

    // Tasks: 2 open, 2 overdue, 1 expired, 1 completed.
    const open1 = await task({ dueDate: addDays(today, 1) });
    await task({ dueDate: today });
    await task({ dueDate: addDays(today, -2) });
    await task({ dueDate: addDays(today, -1), expirationDate: today }); // expires at the end of today: still overdue
    await task({ dueDate: addDays(today, -5), expirationDate: addDays(today, -3) });
    await task({ dueDate: addDays(today, -1), completedAt: new Date() });

    const weekStart = berlinMidnight(addDays(today, -6));
    // 00:30 local on the first day of the window is still the day before in UTC: it counts.
    await session(ayse, open1, new Date(weekStart.getTime() + 30 * 60000), 10.25);
    // 23:59 local the day before the window: not this week.
    await session(ayse, open1, new Date(weekStart.getTime() - 60000), 20);
    // The latest finished session.
    const latest = new Date(berlinMidnight(addDays(today, -2)).getTime() + 12 * 3600_000);
    await session(ayse, open1, latest, 5.5);
    // A running session counts nowhere.
    await session(ayse, open1, new Date(Date.now() - 60_000), null);

    const res = await get(teacher, '?language=de');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        { student_id: ayse.id, last_practice_at: latest.toISOString(), week_minutes: 15.75, open_count: 2, overdue_count: 2 },
        { student_id: bora.id, last_practice_at: null, week_minutes: 0, open_count: 0, overdue_count: 0 },
      ],
    });

    const byCourse = await get(teacher, `?course_id=${course.id}`);
    expect(byCourse.json().data.map((r: { student_id: number }) => r.student_id)).toEqual([bora.id]);
  });

  it('shows another teacher nothing of them; a student gets 403, a guest 401', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    const exercise = await t.exercise(teacher);
    const sub = await t.submission(student, teacher, exercise, { dueDate: todayInZone(TZ) });
    await session(student, sub, new Date(Date.now() - 3600_000), 30);
    const other = await t.teacher();
    const otherCourse = await t.course(other);

    const foreign = await get(other);
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json()).toEqual({ data: [] });
    expect(foreign.body).not.toContain(String(student.id));
    // A course id of another teacher narrows nothing open.
    expect((await get(teacher, `?course_id=${otherCourse.id}`)).json()).toEqual({ data: [] });

    const asStudent = await get(student);
    expect(asStudent.statusCode).toBe(403);
    expect((await get(null)).statusCode).toBe(401);
    expect((await get(teacher, '?course_id=abc')).statusCode).toBe(422);
  });

  it('is read again after a write in the tenant (read cache)', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    const exercise = await t.exercise(teacher);
    const before = await get(teacher);
    expect(before.json().data[0]).toMatchObject({ student_id: student.id, open_count: 0 });
    // The teacher assigns a task through the API: the cached answer is dropped.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: teacher.headers,
      payload: { exercise_id: exercise.id, due_date: addDays(todayInZone(TZ), 3), course_id: null, teacher_note: null, assignees: { users: [student.id] } },
    });
    expect(created.statusCode).toBe(201);
    expect((await get(teacher)).json().data[0]).toMatchObject({ student_id: student.id, open_count: 1 });
  });
});
