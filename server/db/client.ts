import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PgliteWorker, type PgliteClient } from './pglite-proxy';
import * as schemaModule from './schema/index';
import { attachCluster, Cluster, PgCluster } from '../lib/cluster';

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
  /** Raw client of the embedded database (in its worker thread): bench, dumps. */
  pglite?: PgliteClient;
  pool?: pg.Pool;
  /** How this process's caches hear of other processes' changes (server/lib/cluster.ts). */
  cluster: Cluster;
  close: () => Promise<void>;
};

// DATE columns stay 'YYYY-MM-DD' strings; node-postgres would otherwise build a local Date.
pg.types.setTypeParser(1082, (v: string) => v);
// bigint counts (count(*)) as numbers: our counts never approach 2^53.
pg.types.setTypeParser(20, (v: string) => Number(v));
// numeric as number (round(), avg())
pg.types.setTypeParser(1700, (v: string) => Number(v));

/** Shared buffers of the embedded database (see docs/decisions/bench-results.md). */
export const PGLITE_SHARED_BUFFERS = '8MB';

/**
 * The embedded database, run in a worker thread (server/db/pglite-worker.mjs, decision 0005):
 * its queries run in WebAssembly synchronously, and on the main thread a 30 ms read held up
 * every other request for those 30 ms. `onCrash` is called if the worker stops on its own.
 */
export async function openPglite(dataDir: string | undefined, loadDataDir?: Blob | File, opts: { onCrash?: (err: Error) => void } = {}): Promise<DbHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const client = await PgliteWorker.open({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    // The parsers (DATE as text, int8 and numeric as numbers) are set in the worker, as above for pg.
    // PostgreSQL's default 128 MB of shared buffers live in the WASM heap and stay resident: with
    // 8 MB the server opens ~120 MB smaller (the files are cached by the OS all the same; 16 → 8 MB
    // took another ~10 MB off the peak under load at the same speed).
    // Start parameters, so nothing is written into the data folder's postgresql.conf.
    startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
    ...(opts.onCrash ? { onCrash: opts.onCrash } : {}),
  });
  const db = drizzlePglite(client as unknown as PGlite, { schema }) as unknown as Db;
  // One process per data folder: nobody else to tell.
  const cluster = new Cluster();
  attachCluster(db, cluster);
  return { db, kind: 'pglite', pglite: client, cluster, close: () => client.close() };
}

/** Statements worth keeping prepared: data reads and writes with a bounded number of parameters. */
const PREPARABLE = /^\s*(select|with|insert|update|delete)\b/i;
const MAX_PREPARED_PARAMS = 32;
const MAX_PREPARED_TEXTS = 1000;
const statementNames = new Map<string, string | null>();

/**
 * The name under which a statement text is prepared on each connection, or null. PostgreSQL then
 * parses it once per connection and, after a few runs, reuses its plan: the planning of the task
 * list's page query (~1 ms of its ~2 ms) is not paid on every call. Statements with long
 * `in (…)` lists (one text per list length) and anything beyond the first 1,000 texts stay
 * unnamed, so the statements kept on the server stay bounded.
 */
export function preparedName(text: string): string | null {
  const known = statementNames.get(text);
  if (known !== undefined) return known;
  if (statementNames.size >= MAX_PREPARED_TEXTS) return null;
  const params = text.match(/\$\d+/g)?.length ?? 0;
  const name = PREPARABLE.test(text) && params <= MAX_PREPARED_PARAMS ? `uk_${createHash('sha1').update(text).digest('hex').slice(0, 20)}` : null;
  statementNames.set(text, name);
  return name;
}

type QueryConfigLike = { text?: unknown; name?: unknown };

export async function openPostgres(url: string, max = 10): Promise<DbHandle> {
  const pool = new pg.Pool({ connectionString: url, max });
  // Every query of the app goes through a pooled client (pool.query checks one out too).
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (config: unknown, ...rest: unknown[]) => {
      if (config && typeof config === 'object' && typeof (config as QueryConfigLike).text === 'string' && !(config as QueryConfigLike).name) {
        const name = preparedName((config as { text: string }).text);
        if (name) return query({ ...config, name }, ...rest);
      }
      return query(config, ...rest);
    };
  });
  // An idle connection that breaks (a PostgreSQL restart, an administrator ending it) is dropped
  // from the pool and replaced on the next query; without a listener it would end the process.
  pool.on('error', (err) => {
    process.stderr.write(`PostgreSQL: an idle connection was closed (${err.message}); it will be replaced.\n`);
  });
  // Fail fast with a clear message when the server is not reachable.
  const c = await pool.connect();
  c.release();
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  // Other server processes may share this database: caches hear of their changes (LISTEN/NOTIFY).
  const cluster = new PgCluster(pool, url);
  attachCluster(db, cluster);
  return {
    db,
    kind: 'postgres',
    pool,
    cluster,
    close: async () => {
      await cluster.close();
      await endPool(pool);
    },
  };
}

/**
 * Ends a pool and waits until every connection is closed. `pool.end()` resolves once the pool has
 * let go of its clients, before their sockets close: a database dropped WITH (FORCE) right after
 * (tests, a scratch database) could still end a closing connection, and a pool without an error
 * listener throws that error where nothing can catch it.
 */
export async function endPool(pool: pg.Pool): Promise<void> {
  let open = pool.totalCount;
  const closed = new Promise<void>((resolve) => {
    if (open === 0) return resolve();
    pool.on('remove', () => {
      if (--open <= 0) resolve();
    });
  });
  await pool.end();
  // bounded: a socket that never reports its end must not hold a shutdown
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((r) => (timer = setTimeout(r, 5000)))]);
  clearTimeout(timer);
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
