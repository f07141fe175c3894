import { describe, expect, it } from 'vitest';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { addDays } from '@contract/recurrence';
import type { TeacherDashboard } from '@contract/dashboard';

let t: TestApp;
let today: string;
withTestApp((app, day) => {
  t = app;
  today = day;
});

const get = (user: TestUser | null, query = '') => t.app.inject({ method: 'GET', url: `/api/dashboard${query}`, headers: user?.headers ?? {} });

describe('GET /api/dashboard', () => {
  it('refuses guests (401) and students (403)', async () => {
    const teacher = await t.teacher();
    const s = await t.student(teacher);
    expect((await get(null)).statusCode).toBe(401);
    expect((await get(s)).statusCode).toBe(403);
  });

  it('counts the teacher’s own data, filtered by course, with the 8 most recently registered students', async () => {
    const teacher = await t.teacher();
    const violin = await t.course(teacher);
    const flute = await t.course(teacher);
    await t.course(teacher); // empty third course
    const base = Date.parse('2026-01-01T10:00:00Z');
    const students: TestUser[] = [];
    for (let i = 0; i < 10; i++) {
      students.push(
        await t.student(teacher, {
          name: `Schüler ${i}`,
          createdAt: new Date(base + i * 86_400_000),
          courseIds: i < 4 ? [violin.id] : i < 6 ? [violin.id, flute.id] : [],
        }),
      );
    }
    const ex1 = await t.exercise(teacher, { courseIds: [violin.id] });
    await t.exercise(teacher, { courseIds: [violin.id, flute.id] });
    await t.exercise(teacher);
    await t.exercise(teacher, { courseIds: [violin.id], deletedAt: new Date() }); // deleted: not counted
    const s0 = students[0]!;
    const s4 = students[4]!;
    await t.submission(s0, teacher, ex1, { courseId: violin.id, dueDate: addDays(today, 3) }); // open
    await t.submission(s0, teacher, ex1, { courseId: violin.id, dueDate: addDays(today, -3) }); // overdue
    await t.submission(s0, teacher, ex1, { courseId: violin.id, dueDate: addDays(today, -3), expirationDate: addDays(today, -1) }); // expired
    await t.submission(s4, teacher, ex1, { courseId: flute.id, dueDate: today, completedAt: new Date() }); // completed
    await t.submission(s4, teacher, ex1, { courseId: null, dueDate: today });

    // another teacher's data is never counted
    const other = await t.teacher();
    const otherCourse = await t.course(other);
    const os = await t.student(other, { courseIds: [otherCourse.id] });
    const oe = await t.exercise(other, { courseIds: [otherCourse.id] });
    await t.submission(os, other, oe, { courseId: otherCourse.id });

    const all = await get(teacher);
    expect(all.statusCode).toBe(200);
    const d: TeacherDashboard = all.json();
    expect(d).toMatchObject({ students: 10, courses: 3, exercises: 3, submissions: 5, submission_status: { open: 2, overdue: 1, expired: 1, completed: 1 } });
    expect(d.recent_students.map((s) => s.name)).toEqual(['Schüler 9', 'Schüler 8', 'Schüler 7', 'Schüler 6', 'Schüler 5', 'Schüler 4', 'Schüler 3', 'Schüler 2']);
    expect(d.recent_students[0]).toEqual({ id: students[9]!.id, name: 'Schüler 9', email: students[9]!.email, created_at: '2026-01-10T10:00:00.000Z' });

    const v: TeacherDashboard = (await get(teacher, `?course_id=${violin.id}`)).json();
    expect(v).toMatchObject({ students: 6, courses: 1, exercises: 2, submissions: 3, submission_status: { open: 1, overdue: 1, expired: 1, completed: 0 } });
    expect(v.recent_students.map((s) => s.name)).toEqual(['Schüler 5', 'Schüler 4', 'Schüler 3', 'Schüler 2', 'Schüler 1', 'Schüler 0']);

    const f: TeacherDashboard = (await get(teacher, `?course_id=${flute.id}`)).json();
    expect(f).toMatchObject({ students: 2, courses: 1, exercises: 1, submissions: 1, submission_status: { completed: 1, open: 0 } });

    // another teacher's course reveals nothing: all zero
    const foreign: TeacherDashboard = (await get(teacher, `?course_id=${otherCourse.id}`)).json();
    expect(foreign).toEqual({ students: 0, courses: 0, exercises: 0, submissions: 0, submission_status: { open: 0, overdue: 0, expired: 0, completed: 0 }, recent_students: [] });
  });

  it('answers zeros for a new teacher and 422 for a broken course id', async () => {
    const teacher = await t.teacher();
    const d: TeacherDashboard = (await get(teacher)).json();
    expect(d).toEqual({ students: 0, courses: 0, exercises: 0, submissions: 0, submission_status: { open: 0, overdue: 0, expired: 0, completed: 0 }, recent_students: [] });
    expect((await get(teacher, '?course_id=x')).statusCode).toBe(422);
    expect((await get(teacher, '?course_id=')).statusCode).toBe(200);
  });
});
