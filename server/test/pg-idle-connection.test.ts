import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { withTestApp, type TestApp } from './test-app';

/** PostgreSQL only: idle pool connections ended by the server do not end the app. */
const url = process.env.TEST_DATABASE_URL;
let t: TestApp;
withTestApp((app) => {
  t = app;
});

describe.skipIf(!url)('PostgreSQL connections ended by the server', () => {
  it('the app keeps answering after its idle connections were terminated', async () => {
    const teacher = await t.teacher();
    const courses = () => t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers });
    // several parallel calls, so the pool holds more than one idle connection
    await Promise.all([courses(), courses(), courses()]);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const db = (await admin.query<{ db: string }>('select current_database() as db')).rows[0]!.db;
    const appDb = (await t.db.execute<{ db: string }>('select current_database() as db' as never)) as unknown as { rows: Array<{ db: string }> };
    const target = appDb.rows[0]!.db;
    expect(target).not.toBe(db);
    const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [target]);
    await admin.end();
    expect(killed.rowCount).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200)); // the pool sees the closed sockets
    const after = await Promise.all([courses(), courses()]);
    for (const r of after) expect(r.statusCode).toBe(200);
  });
});
