import { describe, expect, it } from 'vitest';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { addDays } from '@contract/recurrence';
import type { CalendarEvent } from '@contract/calendar';
import { calendarRange } from './calendar.service';

let t: TestApp;
let today: string;
withTestApp((app, day) => {
  t = app;
  today = day;
});

const get = (user: TestUser | null, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/calendar-events${query}`, headers: user?.headers ?? {} });

async function school() {
  const teacher = await t.teacher();
  const course = await t.course(teacher);
  const other = await t.course(teacher);
  const a = await t.student(teacher, { name: 'Ayşe Demir', courseIds: [course.id] });
  const b = await t.student(teacher, { name: 'Lukas Becker', courseIds: [other.id] });
  const exercise = await t.exercise(teacher, { title: 'Tonleiter' });
  const subs = {
    open: await t.submission(a, teacher, exercise, { dueDate: addDays(today, 2), courseId: course.id, expirationDate: addDays(today, 4) }),
    today: await t.submission(a, teacher, exercise, { dueDate: today, courseId: course.id }),
    overdue: await t.submission(a, teacher, exercise, { dueDate: addDays(today, -2), courseId: course.id }),
    expired: await t.submission(a, teacher, exercise, { dueDate: addDays(today, -5), expirationDate: addDays(today, -3), courseId: course.id }),
    completed: await t.submission(a, teacher, exercise, { dueDate: addDays(today, -1), completedAt: new Date(), expirationDate: addDays(today, -1), courseId: course.id }),
    otherCourse: await t.submission(b, teacher, exercise, { dueDate: addDays(today, 1), courseId: other.id }),
  };
  return { teacher, course, other, a, b, exercise, subs };
}

describe('GET /api/calendar-events', () => {
  it('refuses guests (401)', async () => {
    expect((await get(null)).statusCode).toBe(401);
  });

  it('gives a teacher one event per task of their students, titled with exercise and student, coloured by status', async () => {
    const { teacher, a, b, subs } = await school();
    // another teacher's tasks never appear
    const stranger = await t.teacher();
    const strangerStudent = await t.student(stranger);
    await t.submission(strangerStudent, stranger, await t.exercise(stranger), { dueDate: today });

    const res = await get(teacher);
    expect(res.statusCode).toBe(200);
    const events: CalendarEvent[] = res.json();
    expect(events).toHaveLength(6);
    const byId = new Map(events.map((e) => [e.submission_id, e]));
    expect(byId.get(subs.open.id)).toEqual({
      id: subs.open.id,
      title: 'Tonleiter – Ayşe Demir',
      start: addDays(today, 2),
      completed: false,
      status: 'open',
      backgroundColor: '#F59E0B',
      borderColor: '#F59E0B',
      submission_id: subs.open.id,
      student_id: a.id,
      student_name: 'Ayşe Demir',
    });
    expect(byId.get(subs.today.id)).toMatchObject({ status: 'open', backgroundColor: '#F59E0B' });
    expect(byId.get(subs.overdue.id)).toMatchObject({ status: 'overdue', backgroundColor: '#F59E0B', completed: false });
    expect(byId.get(subs.expired.id)).toMatchObject({ status: 'expired', backgroundColor: '#DC2626', borderColor: '#DC2626' });
    expect(byId.get(subs.completed.id)).toMatchObject({ status: 'completed', completed: true, backgroundColor: '#10B981', borderColor: '#10B981' });
    expect(byId.get(subs.otherCourse.id)).toMatchObject({ student_id: b.id, title: 'Tonleiter – Lukas Becker' });
    // ordered by date
    const starts = events.map((e) => e.start);
    expect([...starts].sort()).toEqual(starts);
  });

  it('filters by course', async () => {
    const { teacher, course, other, subs } = await school();
    const inCourse: CalendarEvent[] = (await get(teacher, `?course_id=${course.id}`)).json();
    expect(inCourse.map((e) => e.submission_id).sort()).toEqual(
      [subs.open.id, subs.today.id, subs.overdue.id, subs.expired.id, subs.completed.id].sort(),
    );
    const inOther: CalendarEvent[] = (await get(teacher, `?course_id=${other.id}`)).json();
    expect(inOther.map((e) => e.submission_id)).toEqual([subs.otherCourse.id]);
    const all: CalendarEvent[] = (await get(teacher, '?course_id=')).json();
    expect(all).toHaveLength(6);
  });

  it('gives a student only their own tasks, titled with the exercise', async () => {
    const { a, b, subs } = await school();
    const res = await get(a);
    expect(res.statusCode).toBe(200);
    const events: CalendarEvent[] = res.json();
    expect(events).toHaveLength(5);
    expect(events.every((e) => e.student_id === a.id && e.title === 'Tonleiter')).toBe(true);
    const forB: CalendarEvent[] = (await get(b)).json();
    expect(forB.map((e) => e.submission_id)).toEqual([subs.otherCourse.id]);
  });

  it('limits to the visible range: start inclusive, end exclusive, plain dates or FullCalendar ISO strings', async () => {
    const { teacher, subs } = await school();
    const plain: CalendarEvent[] = (await get(teacher, `?start=${addDays(today, -2)}&end=${addDays(today, 2)}`)).json();
    expect(plain.map((e) => e.submission_id).sort()).toEqual([subs.overdue.id, subs.completed.id, subs.today.id, subs.otherCourse.id].sort());
    const iso = `?start=${encodeURIComponent(`${addDays(today, -2)}T00:00:00+01:00`)}&end=${encodeURIComponent(`${addDays(today, 3)}T00:00:00Z`)}`;
    const fromIso: CalendarEvent[] = (await get(teacher, iso)).json();
    expect(fromIso).toHaveLength(5);
    const onlyStart: CalendarEvent[] = (await get(teacher, `?start=${addDays(today, 1)}`)).json();
    expect(onlyStart.map((e) => e.submission_id).sort()).toEqual([subs.open.id, subs.otherCourse.id].sort());
  });

  it('refuses broken and oversized ranges with 422', async () => {
    const teacher = await t.teacher();
    for (const q of ['?start=2026-02-30', '?start=gestern', '?end=2026-13-01', '?start=2026-12-01&end=2026-12-01', '?start=2026-12-02&end=2026-12-01', '?start=2026-01-01&end=2027-02-06']) {
      const res = await get(teacher, q);
      expect(res.statusCode, q).toBe(422);
      expect(res.json().errors, q).toBeDefined();
    }
    expect((await get(teacher, '?start=2026-01-01&end=2027-02-05')).statusCode).toBe(200);
    expect((await get(teacher, '?course_id=abc')).statusCode).toBe(422);
  });

  it('computes default ranges around today', () => {
    expect(calendarRange(undefined, undefined, '2026-11-22')).toEqual({ start: '2026-05-06', end: '2027-06-10' });
    expect(calendarRange('2026-11-01', undefined, '2026-11-22')).toEqual({ start: '2026-11-01', end: '2027-12-06' });
    expect(calendarRange(undefined, '2026-12-07', '2026-11-22')).toEqual({ start: '2025-11-02', end: '2026-12-07' });
  });
});
