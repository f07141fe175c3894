import { PGlite } from '@electric-sql/pglite';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openPglite, rows, type Db, type DbHandle } from './client';
import { PgliteWorker } from './pglite-proxy';
import { courses, users } from './schema/index';
import * as schemaModule from './schema/index';

/**
 * The embedded database in its worker thread (server/db/pglite-proxy.ts, pglite-worker.mjs,
 * decision 0005): the same answers as PGlite in the calling thread, errors with their SQLSTATE,
 * transactions that hold the database, statements kept prepared. Always on PGlite, also when the
 * API tests run on PostgreSQL.
 */

let h: DbHandle;
let db: Db;
let local: PGlite;
let localDb: Db;
const snapshot = () => new Blob([readFileSync(inject('snapshotPath'))]);

beforeAll(async () => {
  h = await openPglite(undefined, snapshot());
  db = h.db;
  // PGlite in this thread, as the server ran it before, for comparison.
  local = await PGlite.create({ loadDataDir: snapshot(), parsers: { 1082: (v: string) => v, 20: (v: string) => Number(v), 1700: (v: string) => Number(v) } });
  localDb = drizzle(local, { schema: schemaModule.schema }) as unknown as Db;
  // every account belongs to a school (docs/decisions/schools-and-roles.md): school 1 in both databases
  for (const d of [db, localDb]) await d.execute(sql`insert into schools (id, name) values (1, 'Schule')`);
});
afterAll(async () => {
  await h.close();
  await local.close();
});

const seq = (() => {
  let n = 0;
  return () => `${Date.now().toString(36)}${(n++).toString(36)}`;
})();

async function teacher(d: Db = db) {
  const [u] = await d
    .insert(users)
    .values({ name: `Lehrer ${seq()}`, email: `w-${seq()}@example.test`, role: 'teacher', teacherId: null, schoolId: 1, passwordHash: 'x' })
    .returning();
  return u!;
}

describe('the embedded database in a worker thread', () => {
  it('answers as PGlite in this thread does: dates as text, int8 and numeric as numbers, timestamps through Drizzle', async () => {
    const q = sql`select 1::int8 as big, 2.5::numeric as num, '2024-02-29'::date as d, '2024-02-29 10:00:00+00'::timestamptz as ts,
      interval '1 day' as iv, array['2024-01-01'::date] as ds, '{"a":[1,2]}'::jsonb as j, null::text as n, 'x'::bytea as b, true as t`;
    expect(await rows(db, q)).toEqual(await rows(localDb, q));
    // Drizzle's query builder (array rows, its own parsers for timestamps) on both
    const same = { name: 'Gleich', email: 'same@example.test', role: 'teacher' as const, teacherId: null, schoolId: 1, passwordHash: 'x', createdAt: new Date('2024-03-01T10:00:00.123Z') };
    for (const d of [db, localDb]) await d.insert(users).values(same);
    const pick = (d: Db) =>
      d.select({ name: users.name, createdAt: users.createdAt, role: users.role, phone: users.phone }).from(users).where(eq(users.email, same.email));
    expect(await pick(db)).toEqual(await pick(localDb));
    expect((await pick(db))[0]!.createdAt).toEqual(same.createdAt);
  });

  it('gives errors their SQLSTATE and fields (Drizzle wraps them in cause)', async () => {
    const e1 = await db.execute(sql`select 1 / 0`).catch((e: unknown) => e as { cause?: { code?: string } });
    expect(e1).toBeInstanceOf(Error);
    expect((e1 as { cause?: { code?: string } }).cause?.code).toBe('22012');
    const t = await teacher();
    const e2 = (await db
      .insert(users)
      .values({ name: 'Doppelt', email: t.email.toUpperCase(), role: 'teacher', teacherId: null, schoolId: 1, passwordHash: 'x' })
      .catch((e: unknown) => e)) as { cause?: { code?: string; constraint?: string; message?: string } };
    expect(e2.cause?.code).toBe('23505');
    expect(e2.cause?.constraint).toBe('users_email_lower_key');
    // a bad parameter (Bind of a kept statement) fails alone; the next run of the same text works
    const byId = (id: unknown) => h.pglite!.query<{ id: number }>('select id from users where id = $1', [id]);
    await expect(byId('not a number')).rejects.toMatchObject({ code: '22P02' });
    expect((await byId(t.id)).rows).toEqual([{ id: t.id }]);
    // a syntax error
    await expect(h.pglite!.query('selec 1')).rejects.toMatchObject({ code: '42601' });
  });

  it('rolls a transaction back when it throws, a nested one to its savepoint', async () => {
    const t = await teacher();
    await expect(
      db.transaction(async (tx) => {
        await tx.insert(courses).values({ teacherId: t.id, name: 'weg' });
        throw new Error('stop');
      }),
    ).rejects.toThrow('stop');
    await db.transaction(async (tx) => {
      await tx.insert(courses).values({ teacherId: t.id, name: 'bleibt' });
      await tx
        .transaction(async (inner) => {
          await inner.insert(courses).values({ teacherId: t.id, name: 'innen weg' });
          throw new Error('inner');
        })
        .catch(() => {});
    });
    const names = await rows<{ name: string }>(db, sql`select name from courses where teacher_id = ${t.id} order by name`);
    expect(names.map((r) => r.name)).toEqual(['bleibt']);
    // an error inside, caught by the callback: COMMIT rolls back and rejects (as PGlite does)
    await expect(
      h.pglite!.transaction(async (tx) => {
        await tx.query('insert into courses (teacher_id, name) values ($1, $2)', [t.id, 'abgebrochen']);
        await tx.query('select 1 / 0').catch(() => {});
      }),
    ).rejects.toMatchObject({ code: '25P02' });
    expect(await rows(db, sql`select 1 from courses where name = 'abgebrochen'`)).toEqual([]);
  });

  it('holds the database for a transaction: a query from outside waits for its end and sees what it committed', async () => {
    const t = await teacher();
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await db.transaction(async (tx) => {
      await tx.insert(courses).values({ teacherId: t.id, name: 'in der Transaktion' });
      outside = rows<{ n: number }>(db, sql`select count(*)::int as n from courses where teacher_id = ${t.id}`).then((r) => {
        order.push('outside');
        return r;
      });
      await new Promise((r) => setTimeout(r, 50));
      await tx.execute(sql`select 1`);
      order.push('tx end');
    });
    expect(await outside).toEqual([{ n: 1 }]);
    expect(order).toEqual(['tx end', 'outside']);
  });

  it('answers many concurrent queries each with its own result, in the order sent', async () => {
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        i % 3 === 0 ? rows<{ v: number }>(db, sql`select ${i}::int as v`).then((r) => r[0]!.v) : h.pglite!.query<{ v: number }>('select $1::int as v', [i]).then((r) => r.rows[0]!.v),
      ),
    );
    expect(results).toEqual(Array.from({ length: 60 }, (_, i) => i));
    // run one after the other in the order sent
    await h.pglite!.exec('create temp table seen (i int)');
    await Promise.all(Array.from({ length: 20 }, (_, i) => h.pglite!.query('insert into seen values ($1)', [i])));
    const order = await h.pglite!.query<{ i: number }>('select i from seen order by ctid');
    expect(order.rows.map((r) => r.i)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  it('keeps statements prepared, and a table change under one does not fail the next call', async () => {
    const pg = h.pglite!;
    await pg.exec('create table kept (a int)');
    await pg.query('insert into kept values ($1)', [1]);
    for (let i = 0; i < 7; i++) expect((await pg.query('select * from kept')).rows).toEqual([{ a: 1 }]); // past PostgreSQL's 5 custom plans
    const names = await pg.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements where statement = 'select * from kept'`);
    expect(names.rows).toEqual([{ n: 1 }]);
    await pg.exec('alter table kept add column b int default 2');
    expect((await pg.query('select * from kept')).rows).toEqual([{ a: 1, b: 2 }]);
    expect((await pg.query('select * from kept')).rows).toEqual([{ a: 1, b: 2 }]);
    await pg.exec('drop table kept');
  });

  it('dumps the data folder (backups of the bench, templates)', async () => {
    const dump = await h.pglite!.dumpDataDir('gzip');
    expect(dump.size).toBeGreaterThan(100_000);
    const copy = await openPglite(undefined, dump);
    try {
      expect(await rows(copy.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`)).toEqual(
        await rows(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`),
      );
    } finally {
      await copy.close();
    }
  });

  it('fails every waiting and later call when the worker stops on its own, and says so once', async () => {
    const crashes: Error[] = [];
    const c = await PgliteWorker.open({ loadDataDir: snapshot(), startParams: PGlite.defaultStartParams, onCrash: (e) => crashes.push(e) });
    const waiting = c.query('select pg_sleep(0.2)');
    await (c as unknown as { worker: { terminate: () => Promise<number> } }).worker.terminate();
    await expect(waiting).rejects.toThrow(/worker stopped/);
    await expect(c.query('select 1')).rejects.toThrow(/worker stopped/);
    expect(crashes).toHaveLength(1);
    expect(c.closed).toBe(true);
    await c.close(); // nothing left to close
  });

  it('closes cleanly: calls after close fail', async () => {
    const c = await PgliteWorker.open({ loadDataDir: snapshot(), startParams: PGlite.defaultStartParams });
    expect((await c.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await c.close();
    expect(c.closed).toBe(true);
    await expect(c.query('select 1')).rejects.toThrow();
  });
});
