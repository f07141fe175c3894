import { describe, expect, it } from 'vitest';
import { DATE_RANGE } from '@contract/constants';
import { dateRangeMessage } from '@contract/common';
import type { Submission } from '@contract/submissions';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';

/**
 * The date window (contract DATE_RANGE, 2000-01-01 … 2100-12-31) on every date the API accepts,
 * and the dates derived from them (expiry, series ends). Issue "Hardening from outside testing",
 * findings L1/L2.
 */
let t: TestApp;
withTestApp((app) => {
  t = app;
});

async function school() {
  const teacher = await t.teacher();
  const student = await t.student(teacher);
  const exercise = await t.exercise(teacher);
  return { teacher, student, exercise };
}

const assign = (user: TestUser, payload: Record<string, unknown>, query = '') =>
  t.app.inject({ method: 'POST', url: `/api/submissions${query}`, headers: user.headers, payload });

describe('due_date and recurrence_end_date', () => {
  it('answers 422 (not 500) for a daily series from 9999-12-25 (its default end would be 10000-01-23)', async () => {
    const { teacher, student, exercise } = await school();
    const res = await assign(teacher, { exercise_id: exercise.id, due_date: '9999-12-25', assignees: { users: [student.id] }, recurrence_type: 'daily' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ due_date: [dateRangeMessage.de] });
  });

  it('answers 422 for 9999-12-31 with 30 expiry days (it stored 10000-01-30, which compared as text before 2026)', async () => {
    const { teacher, student, exercise } = await school();
    const res = await assign(teacher, { exercise_id: exercise.id, due_date: '9999-12-31', expiration_days: 30, assignees: { users: [student.id] } }, '?language=tr');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ due_date: [dateRangeMessage.tr] });
  });

  it.each([
    ['1999-12-31', 422],
    ['2000-01-01', 201],
    ['2100-12-31', 201],
    ['2101-01-01', 422],
    ['0000-00-00', 422],
    ['2026-02-29', 422],
    ['+02026-01-01', 422],
  ])('due_date %s → %i', async (due, status) => {
    const { teacher, student, exercise } = await school();
    const res = await assign(teacher, { exercise_id: exercise.id, due_date: due, assignees: { users: [student.id] } });
    expect(res.statusCode).toBe(status);
    if (status === 422) expect(Object.keys(res.json().errors)).toEqual(['due_date']);
  });

  it.each([
    ['2100-12-31', 201],
    ['2101-01-01', 422],
  ])('recurrence_end_date %s → %i', async (end, status) => {
    const { teacher, student, exercise } = await school();
    const res = await assign(teacher, {
      exercise_id: exercise.id,
      due_date: '2100-12-01',
      recurrence_type: 'weekly',
      recurrence_end_date: end,
      assignees: { users: [student.id] },
    });
    expect(res.statusCode).toBe(status);
    if (status === 422) expect(res.json().errors).toEqual({ recurrence_end_date: [dateRangeMessage.de] });
  });

  it('ends a series without an end date at the window (a daily series from 2100-12-20 stops on 2100-12-31)', async () => {
    const { teacher, student, exercise } = await school();
    const res = await assign(teacher, { exercise_id: exercise.id, due_date: '2100-12-20', recurrence_type: 'daily', assignees: { users: [student.id] } });
    expect(res.statusCode).toBe(201);
    const dates = (res.json().submissions as Submission[]).map((s) => s.due_date);
    expect(dates[0]).toBe('2100-12-20');
    expect(dates.at(-1)).toBe(DATE_RANGE.max);
    expect(dates).toHaveLength(12);
  });

  it('the latest task with the longest expiry (2100-12-31 + 30 = 2101-01-30) is open everywhere: list, task, practice start, complete', async () => {
    const { teacher, student, exercise } = await school();
    const res = await assign(teacher, { exercise_id: exercise.id, due_date: DATE_RANGE.max, expiration_days: 30, assignees: { users: [student.id] } });
    expect(res.statusCode).toBe(201);
    const [task] = res.json().submissions as Submission[];
    expect(task).toMatchObject({ due_date: '2100-12-31', expiration_date: '2101-01-30', status: 'open' });
    const list = await t.app.inject({ method: 'GET', url: '/api/submissions', headers: student.headers });
    expect((list.json() as Submission[]).find((s) => s.id === task!.id)?.status).toBe('open');
    const one = await t.app.inject({ method: 'GET', url: `/api/submissions/${task!.id}`, headers: student.headers });
    expect(one.json().status).toBe('open');
    const start = await t.app.inject({ method: 'POST', url: `/api/submissions/${task!.id}/practice-sessions/start`, headers: student.headers });
    expect(start.statusCode).toBe(201);
    const done = await t.app.inject({ method: 'PATCH', url: `/api/submissions/${task!.id}/complete`, headers: student.headers });
    expect(done.statusCode).toBe(200);
    expect(done.json().status).toBe('completed');
  });
});

describe('date filters', () => {
  it.each([
    ['/api/submissions?from=1999-12-31', 'from', 422],
    ['/api/submissions?from=2000-01-01', 'from', 200],
    ['/api/submissions?to=2100-12-31', 'to', 200],
    ['/api/submissions?to=2101-01-01', 'to', 422],
    ['/api/submissions?from=0000-00-00', 'from', 422],
    ['/api/calendar-events?start=1999-12-31', 'start', 422],
    ['/api/calendar-events?start=2000-01-01', 'start', 200],
    ['/api/calendar-events?start=2100-12-31', 'start', 200],
    ['/api/calendar-events?end=2101-01-01', 'end', 422],
    ['/api/calendar-events?end=2100-12-31T00:00:00%2B01:00', 'end', 200],
    ['/api/calendar-events?start=9999-12-25T00:00:00Z', 'start', 422],
    ['/api/calendar-events?start=0000-00-00', 'start', 422],
  ])('%s (%s) → %i', async (url, field, status) => {
    const { teacher } = await school();
    const res = await t.app.inject({ method: 'GET', url, headers: teacher.headers });
    expect(res.statusCode).toBe(status);
    if (status === 422) expect(res.json().errors).toEqual({ [field]: [dateRangeMessage.de] });
  });
});
