import { describe, expect, it } from 'vitest';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';
import type { PracticeSession } from '@contract/practice';

/** docs/decisions/exercise-settings.md: a finished practice session can keep the tempo reached (optional body of the stop). */
let t: TestApp;
let today: string;
withTestApp((app, day) => {
  t = app;
  today = day;
});

async function running() {
  const teacher = await t.teacher();
  const student = await t.student(teacher);
  const exercise = await t.exercise(teacher, { tempoBpm: 80, makam: 'hicaz', usul: 'duyek' });
  const task = await t.submission(student, teacher, exercise, { dueDate: today });
  const started = await t.app.inject({ method: 'POST', url: `/api/submissions/${task.id}/practice-sessions/start`, headers: student.headers });
  expect(started.statusCode).toBe(201);
  expect(started.json().tempo_bpm).toBeNull();
  return { teacher, student, task, session: started.json() as PracticeSession };
}

const stop = (id: number, u: TestUser, payload?: Record<string, unknown>, query = '') =>
  payload === undefined
    ? t.app.inject({ method: 'POST', url: `/api/practice-sessions/${id}/stop${query}`, headers: u.headers })
    : t.app.inject({ method: 'POST', url: `/api/practice-sessions/${id}/stop${query}`, headers: u.headers, payload });

describe('POST /api/practice-sessions/{id}/stop with the tempo reached', () => {
  it('keeps tempo_bpm on the session; the student and the teacher see it in the list', async () => {
    const s = await running();
    const res = await stop(s.session.id, s.student, { tempo_bpm: 92 });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: s.session.id, tempo_bpm: 92, ended_at: expect.any(String) });
    for (const u of [s.student, s.teacher]) {
      const list = await t.app.inject({ method: 'GET', url: `/api/submissions/${s.task.id}/practice-sessions`, headers: u.headers });
      expect(list.statusCode).toBe(200);
      expect(list.json()[0]).toMatchObject({ id: s.session.id, tempo_bpm: 92 });
    }
  });

  it('a bodiless stop and an empty object still work (tempo_bpm null)', async () => {
    const a = await running();
    const bare = await stop(a.session.id, a.student);
    expect(bare.statusCode).toBe(200);
    expect(bare.json().tempo_bpm).toBeNull();
    const b = await running();
    const empty = await stop(b.session.id, b.student, {});
    expect(empty.statusCode).toBe(200);
    expect(empty.json().tempo_bpm).toBeNull();
  });

  it.each([[19], [301], [80.5], ['80'], [null]])('refuses tempo_bpm %j with 422 errors.tempo_bpm (German and Turkish), the session keeps running', async (v) => {
    const s = await running();
    const res = await stop(s.session.id, s.student, { tempo_bpm: v });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['tempo_bpm']);
    expect(res.json().message).toBe('Bitte überprüfen Sie Ihre Eingaben');
    const tr = await stop(s.session.id, s.student, { tempo_bpm: v }, '?language=tr');
    expect(tr.json().message).toBe('Girilen bilgiler kontrol edilmeli');
    expect(Object.keys(tr.json().errors)).toEqual(['tempo_bpm']);
    const active = await t.app.inject({ method: 'GET', url: `/api/submissions/${s.task.id}/practice-sessions/active`, headers: s.student.headers });
    expect(active.statusCode).toBe(200);
  });

  it('refuses an unknown field (422) and keeps 409 for a session not running, 404 for another student\'s', async () => {
    const s = await running();
    const unknown = await stop(s.session.id, s.student, { tempo: 80 });
    expect(unknown.statusCode).toBe(422);
    expect((await stop(s.session.id, s.student, { tempo_bpm: 100 })).statusCode).toBe(200);
    const again = await stop(s.session.id, s.student, { tempo_bpm: 120 });
    expect(again.statusCode).toBe(409);
    expect(again.json().session.tempo_bpm).toBe(100);
    const other = await running();
    expect((await stop(other.session.id, s.student, { tempo_bpm: 100 })).statusCode).toBe(404);
  });
});
