import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { practiceSessions } from '../../db/schema/index';
import { setupTestApp, type TestApp } from '../../test/test-app';

/**
 * One meaning of "this week" (web/locales/GLOSSARY.md): the calendar week, Monday to Sunday, in the
 * school's time zone (APP_TIMEZONE of the test app: Europe/Berlin). Every figure named "diese Woche"
 * (the course CSV, the school's week) counts so; the figures of the last 7 days (the student's
 * metrics, the students table) are named "letzte 7 Tage" and count the 7 local days up to today.
 * The clock is moved from Sunday evening to Monday morning around one session on that Sunday.
 */
let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp();
}, 180_000);
afterEach(() => {
  vi.useRealTimers();
});
afterAll(async () => {
  await t.close();
});

// Sunday 22 November 2026 and Monday 23 November 2026 in Berlin (CET, UTC+1).
const SUNDAY_SESSION = new Date('2026-11-22T19:00:00Z'); // Sunday 20:00 in Berlin, 25 minutes
const SUNDAY_EVENING = new Date('2026-11-22T21:30:00Z'); // Sunday 22:30 in Berlin (already Monday 00:30 in Istanbul)
const MONDAY_MORNING = new Date('2026-11-23T06:00:00Z'); // Monday 07:00 in Berlin

function csvRows(body: string): string[][] {
  return body
    .replace(/^\uFEFF/, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => line.split(';'));
}

describe('"this week" is the calendar week in the school time zone; "last 7 days" says so', () => {
  it('Sunday evening vs Monday morning in Europe/Berlin', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(SUNDAY_EVENING);

    const teacher = await t.teacher();
    const admin = await t.admin();
    const course = await t.course(teacher, { name: 'Ney Sonntag' });
    const student = await t.student(teacher, { name: 'Ayşe Woche', courseIds: [course.id] });
    const ex = await t.exercise(teacher);
    const task = await t.submission(student, teacher, ex, { dueDate: '2026-11-22' });
    await t.db.insert(practiceSessions).values({
      submissionId: task.id,
      studentId: student.id,
      startedAt: SUNDAY_SESSION,
      endedAt: new Date(SUNDAY_SESSION.getTime() + 25 * 60_000),
      durationMinutes: 25,
    });

    const figures = async () => {
      t.forgetReads();
      const csv = await t.app.inject({ method: 'GET', url: `/api/courses/${course.id}/progress.csv`, headers: teacher.headers });
      expect(csv.statusCode, csv.body).toBe(200);
      const [header, row] = csvRows(csv.body);
      expect(header?.[2]).toBe('Übungszeit diese Woche (min)');
      const metrics = await t.app.inject({ method: 'GET', url: '/api/my-metrics', headers: student.headers });
      expect(metrics.statusCode, metrics.body).toBe(200);
      const school = await t.app.inject({ method: 'GET', url: '/api/school/dashboard', headers: admin.headers });
      expect(school.statusCode, school.body).toBe(200);
      const weeks = (school.json() as { weeks: Array<{ week_start: string; practice_minutes: number }> }).weeks;
      return {
        csvWeek: row?.[2],
        csvFile: csv.headers['content-disposition'],
        last7Days: (metrics.json() as { weekly_practice_time_minutes: number }).weekly_practice_time_minutes,
        schoolWeek: weeks.at(-1),
      };
    };

    // Sunday 22:30 in Berlin: the session counts in this week and in the last 7 days.
    expect(await figures()).toEqual({
      csvWeek: '25',
      csvFile: `attachment; filename="kursfortschritt-${course.id}-2026-11-22.csv"`,
      last7Days: 25,
      schoolWeek: { week_start: '2026-11-16', practice_minutes: 25, tasks_completed: 0 },
    });

    // Monday 07:00 in Berlin: a new week (nothing yet), but Sunday is still one of the last 7 days.
    vi.setSystemTime(MONDAY_MORNING);
    expect(await figures()).toEqual({
      csvWeek: '0',
      csvFile: `attachment; filename="kursfortschritt-${course.id}-2026-11-23.csv"`,
      last7Days: 25,
      schoolWeek: { week_start: '2026-11-23', practice_minutes: 0, tasks_completed: 0 },
    });
  });
});
