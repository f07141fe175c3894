import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setupTestApp, type TestApp } from './test-app';

/**
 * DESIGN.md: a request that needs no database (a cached list, a static file, the current user)
 * is not delayed while the embedded database runs a heavy read. PGlite runs its queries
 * synchronously in WebAssembly; in the server's own thread one 1 s read held every other request
 * for that second (decision 0005: it runs in a worker thread). On PostgreSQL the read runs in
 * another process anyway; the test holds there as well.
 */

let t: TestApp;
beforeAll(async () => {
  // what one process keeps answers while its database is busy: one instance
  t = await setupTestApp({}, { balanced: false });
});
afterAll(async () => {
  await t.close();
});

const HEAVY_SECONDS = 1;

it('answers a cached list and the current user while the database is busy for a second', async () => {
  const teacher = await t.teacher();
  await t.course(teacher);
  const list = { method: 'GET' as const, url: '/api/courses?language=de', headers: teacher.headers };
  const me = { method: 'GET' as const, url: '/api/user', headers: teacher.headers };
  const kept = await t.app.inject(list); // from the database once, then kept (decision 0004)
  expect(kept.statusCode).toBe(200);
  expect((await t.app.inject(me)).statusCode).toBe(200); // the token is now known without the database

  let heavyDone = false;
  const started = performance.now();
  const heavy = t.db.execute(sql`select pg_sleep(${HEAVY_SECONDS})`).then(() => {
    heavyDone = true;
    return performance.now() - started;
  });
  await new Promise((r) => setTimeout(r, 50)); // the read is running
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    for (const req of [list, me]) {
      const t0 = performance.now();
      const r = await t.app.inject(req);
      times.push(performance.now() - t0);
      expect(r.statusCode).toBe(200);
      if (req === list) expect(r.body).toBe(kept.body);
    }
  }
  expect(heavyDone).toBe(false); // every request above was answered while the read ran
  // none waited for the read (it would have taken its whole second); room for a loaded machine
  expect(Math.max(...times)).toBeLessThan((HEAVY_SECONDS * 1000) / 2);
  expect(await heavy).toBeGreaterThanOrEqual(HEAVY_SECONDS * 1000 - 50);
  // and a request that needs the database still gets it
  expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
});
