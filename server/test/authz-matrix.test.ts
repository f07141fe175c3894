import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimRun, JOBS } from '../lib/jobs';
import { matrix, NONEXISTENT, type Status } from './authz-routes';
import { CALLERS, dbDigest, holdScheduledJobs, makeWorld, multipart, type World } from './authz-world';
import { setupTestApp, type TestApp } from './test-app';

/**
 * The authorization matrix: every route of the app (read from the app's own route table) against
 * every kind of caller – a guest, student A, student B (both teacher A's), teacher A and teacher B –
 * on fresh data owned by teacher A / student A. Expected: guest 401; wrong role 403; someone
 * else's data 404, with exactly the answer a non-existent id gets; refused calls change nothing
 * (database digest before = after) and never echo the data; lists and filters never carry another
 * tenant's rows. A route that is not in the table fails the test.
 */

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await setupTestApp();
  await holdScheduledJobs(t);
  w = await makeWorld(t);
});
afterAll(async () => {
  await t.close();
});

const ok = (s: number) => s >= 200 && s < 300;
const allows = (expected: Status, got: number) => (Array.isArray(expected) ? expected.includes(got) : expected === got);

function swapId(url: string, id: string | number): string {
  return url.replace(new RegExp(`/${String(id)}(?=/|\\?|$)`), `/${NONEXISTENT}`);
}

/** The database's digest once nothing writes to it any more: two equal readings 100 ms apart (at most 5 s). */
async function quietDigest(t: TestApp): Promise<string> {
  let last = await dbDigest(t);
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await dbDigest(t);
    if (now === last) return now;
    last = now;
  }
  return last;
}

/** The tables whose part of two digests differs ('name:hash,…'). */
function changedTables(before: string, after: string): string[] {
  const parts = (d: string) => new Map(d.split(',').map((p) => p.split(':') as [string, string]));
  const a = parts(before);
  const b = parts(after);
  return [...new Set([...a.keys(), ...b.keys()])].filter((k) => a.get(k) !== b.get(k));
}

describe('authorization matrix', () => {
  it("holds the server's timed jobs while it compares the database (none is due in any process)", async () => {
    for (const name of Object.values(JOBS)) expect(await claimRun(t.db, name, 0), name).toBe(false);
  });

  it('covers every route of the app, with the access each route declares', () => {
    // /calendar/{secret}.ics is the one route outside /api (calendar apps subscribe to it without a token)
    const guarded = (url: string) => url.startsWith('/api/') || url.startsWith('/calendar/');
    const routes = t.app.routeTable.filter((r) => guarded(r.url) && r.method !== 'HEAD' && r.method !== 'OPTIONS');
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    const missing = keys.filter((k) => !matrix[k]);
    expect(missing, 'routes without a row in the authorization matrix').toEqual([]);
    const stale = Object.keys(matrix).filter((k) => !keys.includes(k));
    expect(stale, 'matrix rows for routes that do not exist').toEqual([]);
    const wrongAccess = routes.filter((r) => matrix[`${r.method} ${r.url}`]?.access !== r.access).map((r) => `${r.method} ${r.url}: declares ${r.access}`);
    expect(wrongAccess).toEqual([]);
    // no route outside /api except the web app's static files
    const other = t.app.routeTable.filter((r) => !guarded(r.url) && r.method !== 'HEAD');
    expect(other.every((r) => r.url === '/*' || r.url === '/')).toBe(true);
  });

  const problems: string[] = [];
  afterAll(() => {
    if (problems.length) console.error(`authorization matrix problems:\n${problems.join('\n')}`);
  });

  for (const [key, spec] of Object.entries(matrix)) {
    const method = key.split(' ')[0]!;
    it(key, async () => {
      const found: string[] = [];
      // An allowed write can leave work behind that writes later (a take's analysis): the next
      // refused call's 'before' is read once the database is quiet again.
      let wroteBefore = false;
      for (const caller of CALLERS) {
        const req = await spec.build(w, caller);
        const expected = spec.expect[caller];
        const refused = !(Array.isArray(expected) ? expected.some(ok) : ok(expected));
        const before = refused ? (wroteBefore ? await quietDigest(t) : await dbDigest(t)) : '';
        const headers = { ...w.headersOf(caller), ...(req.headers ?? {}) };
        const res = await t.app.inject({ method: (req.method ?? method) as 'GET', url: req.url, headers, ...(req.payload !== undefined ? { payload: req.payload as string } : {}) });
        const where = `${key} as ${caller}`;
        if (!allows(expected, res.statusCode)) found.push(`${where}: expected ${JSON.stringify(expected)}, got ${res.statusCode} ${res.body.slice(0, 200)}`);
        if (res.statusCode >= 500) found.push(`${where}: server error ${res.body.slice(0, 200)}`);
        const body = res.body;
        const mustHide = !ok(res.statusCode) || (spec.hidden ?? []).includes(caller);
        if (mustHide) for (const s of req.secrets ?? []) if (body.includes(s)) found.push(`${where}: answer contains another's data (${s})`);
        if (ok(res.statusCode) && (spec.visible ?? []).includes(caller) && req.secrets?.[0] && !body.includes(req.secrets[0]))
          found.push(`${where}: own data missing from the answer (${req.secrets[0]})`);
        if (refused) {
          const after = await dbDigest(t);
          if (after !== before) found.push(`${where}: a refused call changed the database (${changedTables(before, after).join(', ')})`);
        }
        if ((req.method ?? method) !== 'GET' && ok(res.statusCode)) wroteBefore = true;
        if (res.statusCode === 404 && (req.id !== undefined || req.nonexistentUrl)) {
          const url = req.nonexistentUrl ?? swapId(req.url, req.id!);
          const ghost = await t.app.inject({ method: (req.method ?? method) as 'GET', url, headers, ...(req.payload !== undefined ? { payload: req.payload as string } : {}) });
          if (ghost.statusCode !== 404 || ghost.body !== res.body)
            found.push(`${where}: 404 differs from a non-existent id (${ghost.statusCode} ${ghost.body.slice(0, 120)} vs ${res.body.slice(0, 120)})`);
        }
        if (ok(res.statusCode) && spec.check) {
          try {
            spec.check(w, caller, res.json());
          } catch (e) {
            found.push(`${where}: ${(e as Error).message}`);
          }
        }
      }
      problems.push(...found);
      expect(found).toEqual([]);
    });
  }

  it('has a row for each caller on every route', () => {
    const cells = Object.values(matrix).reduce((n, s) => n + Object.keys(s.expect).length, 0);
    expect(cells).toBe(Object.keys(matrix).length * CALLERS.length);
  });
});

describe('foreign ids inside bodies and filters', () => {
  /** Runs a call of teacher B (or student B) that names teacher A's data; it must fail and change nothing. */
  async function refusedAndUnchanged(req: { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: unknown; headers: Record<string, string> }, allowed: number[]) {
    const before = await dbDigest(t);
    const res = await t.app.inject({ method: req.method, url: req.url, headers: req.headers, ...(req.payload !== undefined ? { payload: req.payload as string } : {}) });
    expect(allowed, `${req.method} ${req.url}: ${res.statusCode} ${res.body.slice(0, 200)}`).toContain(res.statusCode);
    expect(await dbDigest(t)).toBe(before);
    return res;
  }

  it("teacher B cannot enrol, assign or attach to teacher A's courses, students, exercises or media", async () => {
    const aCourse = await w.course();
    const aExercise = await w.exercise();
    const bStudent = await t.student(w.teacherB);
    const bCourse = await t.course(w.teacherB);
    const bExercise = await t.exercise(w.teacherB, { courseIds: [bCourse.id] });
    const h = w.teacherB.headers;
    await refusedAndUnchanged({ method: 'PUT', url: `/api/students/${bStudent.id}/courses`, headers: h, payload: { course_ids: [aCourse.id] } }, [404, 422]);
    await refusedAndUnchanged({ method: 'PUT', url: `/api/students/${bStudent.id}`, headers: h, payload: { name: 'B', email: bStudent.email, course_ids: [aCourse.id] } }, [404, 422]);
    await refusedAndUnchanged(
      { method: 'POST', url: '/api/submissions', headers: h, payload: { exercise_id: bExercise.id, due_date: w.inDays(1), assignees: { users: [w.studentA.id] } } },
      [404, 422],
    );
    await refusedAndUnchanged(
      { method: 'POST', url: '/api/submissions', headers: h, payload: { exercise_id: bExercise.id, due_date: w.inDays(1), course_id: aCourse.id, assignees: { users: [bStudent.id] } } },
      [404, 422],
    );
    const form = await multipart([['title', 'B'], ['course_ids[0]', String(aCourse.id)]]);
    await refusedAndUnchanged({ method: 'POST', url: `/api/exercises/${bExercise.id}`, headers: { ...h, ...form.headers }, payload: form.payload }, [404, 422]);
    // removing teacher A's media through one's own exercise does nothing to A's media
    const aMedia = await t.db.query.mediaFiles.findFirst({ where: (m, { eq }) => eq(m.exerciseId, aExercise.id) });
    const removeForm = await multipart([['title', 'B2'], ['remove_media[0]', String(aMedia!.id)]]);
    const rm = await t.app.inject({ method: 'POST', url: `/api/exercises/${bExercise.id}`, headers: { ...h, ...removeForm.headers }, payload: removeForm.payload });
    expect([200, 404, 422]).toContain(rm.statusCode);
    expect(await t.db.query.mediaFiles.findFirst({ where: (m, { eq }) => eq(m.id, aMedia!.id) })).toBeDefined();
  });

  it("filters naming another's student or course never widen the answer", async () => {
    const task = await w.task();
    for (const [who, url] of [
      ['teacherB', `/api/submissions?student_id=${w.studentA.id}`],
      ['studentB', `/api/submissions?student_id=${w.studentA.id}`],
      ['teacherB', `/api/calendar-events?course_id=${task.exercise.course.id}`],
      ['studentB', `/api/calendar-events?course_id=${task.exercise.course.id}`],
      ['teacherB', `/api/students?course_id=${task.exercise.course.id}`],
      ['teacherB', `/api/exercises?course_id=${task.exercise.course.id}&page=1`],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url, headers: w.headersOf(who) });
      expect(res.statusCode, `${who} ${url}`).toBeLessThan(500);
      expect(res.body, `${who} ${url}`).not.toContain(task.teacherNote!);
      expect(res.body, `${who} ${url}`).not.toContain(task.exercise.title);
      expect(res.body, `${who} ${url}`).not.toContain(w.studentA.name);
    }
  });
});
