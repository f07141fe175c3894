import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayInZone } from '../lib/time';
import { setupTestApp, type TestApp, type TestUser } from './test-app';

/**
 * The read cache (server/lib/read-cache.ts) through the real app: list answers are kept per
 * caller, and every write in the caller's school tenant – by the teacher or by a student, through
 * any call – makes the next read come from the database again.
 */
let t: TestApp;
let today: string;
beforeAll(async () => {
  // one process's cache, call by call (several processes: many-processes.test.ts)
  t = await setupTestApp({}, { balanced: false });
  today = todayInZone(t.deps.config.APP_TIMEZONE);
});
afterAll(async () => {
  await t.close();
});

const get = (user: TestUser, url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { ...user.headers, ...headers } });
const hits = () => t.app.readCache!.stats.hits;

async function school() {
  const teacher = await t.teacher();
  const course = await t.course(teacher);
  const a = await t.student(teacher, { courseIds: [course.id], name: 'Ada' });
  const b = await t.student(teacher, { courseIds: [course.id], name: 'Berk' });
  const exercise = await t.exercise(teacher, { courseIds: [course.id], title: 'Lange Töne' });
  return { teacher, course, a, b, exercise };
}

describe('read cache', () => {
  it('is on by default and answers a repeated list call from memory, byte for byte', async () => {
    const { teacher } = await school();
    expect(t.app.readCache).not.toBeNull();
    const first = await get(teacher, '/api/students');
    const before = hits();
    const second = await get(teacher, '/api/students');
    expect(hits()).toBe(before + 1);
    expect(second.statusCode).toBe(200);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.body).toBe(first.body);
    expect(second.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
  });

  it("shows a teacher's new, changed and deleted students at once", async () => {
    const { teacher, course, a } = await school();
    const names = async () => ((await get(teacher, '/api/students')).json().data as Array<{ name: string }>).map((s) => s.name);
    expect(await names()).toEqual(['Ada', 'Berk']);
    expect(await names()).toEqual(['Ada', 'Berk']); // kept
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/students',
      headers: teacher.headers,
      payload: { name: 'Cem', email: `cem-${Date.now()}@example.test`, password: 'geheim123', course_ids: [course.id] },
    });
    expect(created.statusCode).toBe(201);
    expect(await names()).toEqual(['Ada', 'Berk', 'Cem']);
    await t.app.inject({ method: 'PUT', url: `/api/students/${a.id}`, headers: teacher.headers, payload: { name: 'Ayla', email: a.email } });
    expect(await names()).toEqual(['Ayla', 'Berk', 'Cem']);
    await t.app.inject({ method: 'DELETE', url: `/api/students/${created.json().id}`, headers: teacher.headers });
    expect(await names()).toEqual(['Ayla', 'Berk']);
  });

  it("shows a student the teacher's new task, and the teacher the student's finished one (other users, same tenant)", async () => {
    const { teacher, a, exercise } = await school();
    const mine = async () => (await get(a, '/api/submissions?order=work&limit=50')).json() as Array<{ id: number; status: string }>;
    expect(await mine()).toEqual([]);
    expect(await mine()).toEqual([]);
    const assigned = await t.app.inject({
      method: 'POST',
      url: '/api/submissions',
      headers: teacher.headers,
      payload: { exercise_id: exercise.id, due_date: today, assignees: { users: [a.id] } },
    });
    expect(assigned.statusCode).toBe(201);
    const [task] = await mine();
    expect(task?.status).toBe('open');

    const teachersView = async () => (await get(teacher, `/api/submissions?student_id=${a.id}&order=work&limit=50`)).json()[0].status;
    const counts = async () => (await get(a, '/api/submissions/counts')).json();
    expect(await teachersView()).toBe('open');
    expect((await counts()).completed).toBe(0);
    expect((await t.app.inject({ method: 'PATCH', url: `/api/submissions/${task!.id}/complete`, headers: a.headers })).statusCode).toBe(200);
    expect(await teachersView()).toBe('completed');
    expect((await counts()).completed).toBe(1);
    expect((await mine())[0]?.status).toBe('completed');
  });

  it('counts practice time in the list as soon as a session stops', async () => {
    const { teacher, a, exercise } = await school();
    const task = await t.submission(a, teacher, exercise, { dueDate: today });
    const spent = async () => (await get(a, '/api/submissions?order=work&limit=50')).json()[0].time_spent_minutes;
    expect(await spent()).toBe(0);
    const started = await t.app.inject({ method: 'POST', url: `/api/submissions/${task.id}/practice-sessions/start`, headers: a.headers });
    expect(started.statusCode).toBe(201);
    // the session began 5 minutes ago (written directly: nothing the list shows changes until it stops)
    await t.db.execute(sql`update practice_sessions set started_at = now() - interval '5 minutes' where id = ${started.json().id}`);
    expect(await spent()).toBe(0);
    const stopped = await t.app.inject({ method: 'POST', url: `/api/practice-sessions/${started.json().id}/stop`, headers: a.headers });
    expect(stopped.statusCode).toBe(200);
    expect(await spent()).toBeCloseTo(5, 0);
  });

  it('keeps answers per caller: two students of one teacher asking the same URL get their own tasks', async () => {
    const { teacher, a, b, exercise } = await school();
    const ta = await t.submission(a, teacher, exercise, { dueDate: today });
    const tb = await t.submission(b, teacher, exercise, { dueDate: today });
    for (let i = 0; i < 2; i++) {
      expect((await get(a, '/api/submissions')).json().map((s: { id: number }) => s.id)).toEqual([ta.id]);
      expect((await get(b, '/api/submissions')).json().map((s: { id: number }) => s.id)).toEqual([tb.id]);
    }
  });

  it('keeps answers per language', async () => {
    const { teacher } = await school();
    const label = async (q: string, h: Record<string, string> = {}) => (await get(teacher, `/api/exercises${q}`, h)).json().exercises[0].category_label;
    expect(await label('?language=de')).toBe('Tonbildung');
    expect(await label('?language=tr')).not.toBe('Tonbildung');
    expect(await label('?language=de')).toBe('Tonbildung');
    expect(await label('', { 'accept-language': 'tr' })).toBe(await label('?language=tr'));
  });

  it("a write in one tenant leaves another tenant's answers kept", async () => {
    const one = await school();
    const other = await school();
    await get(one.teacher, '/api/courses');
    await t.app.inject({ method: 'POST', url: '/api/courses', headers: other.teacher.headers, payload: { name: 'Neu' } });
    const before = hits();
    await get(one.teacher, '/api/courses');
    expect(hits()).toBe(before + 1);
    // ... and one in the same tenant does not
    await t.app.inject({ method: 'POST', url: '/api/courses', headers: one.teacher.headers, payload: { name: 'Auch neu' } });
    const after = hits();
    const names = (await get(one.teacher, '/api/courses')).json().map((c: { name: string }) => c.name);
    expect(hits()).toBe(after);
    expect(names).toContain('Auch neu');
  });

  it('a call refused before its handler keeps the answers; one whose handler ran (even failing) drops them', async () => {
    const { teacher, a } = await school();
    await get(teacher, '/api/students');
    const invalidBody = await t.app.inject({ method: 'POST', url: '/api/students', headers: teacher.headers, payload: { name: '' } });
    expect(invalidBody.statusCode).toBe(422);
    let before = hits();
    await get(teacher, '/api/students');
    expect(hits()).toBe(before + 1);
    const taken = await t.app.inject({
      method: 'POST',
      url: '/api/students',
      headers: teacher.headers,
      payload: { name: 'Doppelt', email: a.email.toUpperCase(), password: 'geheim123' },
    });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.email).toBeDefined();
    before = hits();
    await get(teacher, '/api/students');
    expect(hits()).toBe(before);
  });

  it('Cache-Control: no-cache reads from the database (and a direct database write is only seen that way)', async () => {
    const { teacher, course } = await school();
    const name = async (h: Record<string, string> = {}) => (await get(teacher, '/api/courses', h)).json().find((c: { id: number }) => c.id === course.id).name;
    const original = await name();
    await t.db.execute(sql`update courses set name = 'Von außen' where id = ${course.id}`);
    expect(await name()).toBe(original); // kept: nothing in this process wrote
    expect(await name({ 'cache-control': 'no-cache' })).toBe('Von außen');
    expect(await name()).toBe('Von außen'); // the fresh answer replaced the kept one
  });

  it('sends a kept answer compressed when the client asks, and the same JSON', async () => {
    const { teacher, exercise } = await school();
    for (let i = 0; i < 30; i++) await t.exercise(teacher, { description: `Beschreibung ${i} `.repeat(20) });
    expect(exercise.id).toBeGreaterThan(0);
    const plain = await get(teacher, '/api/exercises');
    expect(plain.body.length).toBeGreaterThan(2048);
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      for (let i = 0; i < 2; i++) {
        const before = hits();
        const res = await get(teacher, '/api/exercises', { 'accept-encoding': `${encoding}, deflate` });
        expect(hits()).toBe(before + 1);
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.headers.vary).toMatch(/accept-encoding/i);
        expect(decode(res.rawPayload).toString('utf8')).toBe(plain.body);
      }
    }
  });

  it('checks the token before the cache: a signed-out caller gets 401, a student never gets a teacher-only list', async () => {
    const { teacher, a } = await school();
    expect((await get(a, '/api/submissions')).statusCode).toBe(200);
    expect((await get(a, '/api/students')).statusCode).toBe(403);
    expect((await get(teacher, '/api/students')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: a.headers })).statusCode).toBe(204);
    expect((await get(a, '/api/submissions')).statusCode).toBe(401);
  });

  it('does not keep error answers', async () => {
    const { teacher } = await school();
    const url = '/api/calendar-events?start=2026-03-01&end=2026-02-01';
    for (let i = 0; i < 2; i++) {
      const stored = t.app.readCache!.stats.stored;
      const res = await get(teacher, url);
      expect(res.statusCode).toBe(422);
      expect(t.app.readCache!.stats.stored).toBe(stored);
    }
  });
});

describe('READ_CACHE_SECONDS=0', () => {
  it('turns the cache off', async () => {
    const off = await setupTestApp({ READ_CACHE_SECONDS: '0' });
    try {
      expect(off.app.readCache).toBeNull();
      const teacher = await off.teacher();
      const course = await off.course(teacher);
      const name = async () => (await off.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers })).json()[0].name;
      expect(await name()).toBe(course.name);
      await off.db.execute(sql`update courses set name = 'Direkt' where id = ${course.id}`);
      expect(await name()).toBe('Direkt');
    } finally {
      await off.close();
    }
  });
});
