import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as schemaModule from './schema/index';

const { schema } = schemaModule;
export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** Inside db.transaction(tx => ...). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../drizzle', import.meta.url));

export type DbHandle = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Raw client for operator tasks (backup, restore). */
  pglite?: PGlite;
  pool?: pg.Pool;
  close: () => Promise<void>;
};

// DATE columns stay 'YYYY-MM-DD' strings; node-postgres would otherwise build a local Date.
pg.types.setTypeParser(1082, (v: string) => v);
// bigint counts (count(*)) as numbers: our counts never approach 2^53.
pg.types.setTypeParser(20, (v: string) => Number(v));
// numeric as number (round(), avg())
pg.types.setTypeParser(1700, (v: string) => Number(v));

/** Shared buffers of the embedded database (see docs/decisions/bench-results.md). */
export const PGLITE_SHARED_BUFFERS = '16MB';

export async function openPglite(dataDir: string | undefined, loadDataDir?: Blob | File): Promise<DbHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    parsers: { 1082: (v: string) => v, 20: (v: string) => Number(v), 1700: (v: string) => Number(v) },
    // PostgreSQL's default 128 MB of shared buffers live in the WASM heap and stay resident: with
    // 16 MB the server opens ~120 MB smaller (the files are cached by the OS all the same).
    // Start parameters, so nothing is written into the data folder's postgresql.conf.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
  });
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return { db, kind: 'pglite', pglite: client, close: () => client.close() };
}

export async function openPostgres(url: string, max = 10): Promise<DbHandle> {
  const pool = new pg.Pool({ connectionString: url, max });
  // An idle connection that breaks (a PostgreSQL restart, an administrator ending it) is dropped
  // from the pool and replaced on the next query; without a listener it would end the process.
  pool.on('error', (err) => {
    process.stderr.write(`PostgreSQL: an idle connection was closed (${err.message}); it will be replaced.\n`);
  });
  // Fail fast with a clear message when the server is not reachable.
  const c = await pool.connect();
  c.release();
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return { db, kind: 'postgres', pool, close: () => pool.end() };
}

export async function migrateDb(handle: DbHandle): Promise<void> {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
  } else {
    await migratePg(handle.db as never, { migrationsFolder: MIGRATIONS_DIR });
  }
}

/** Rows of a raw SQL query, for both drivers. */
export async function rows<T>(db: DbOrTx, query: Parameters<Db['execute']>[0]): Promise<T[]> {
  const res = (await db.execute(query)) as unknown as { rows: T[] };
  return res.rows;
}
