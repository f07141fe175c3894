// The embedded database (PGlite: PostgreSQL compiled to WebAssembly) in a worker thread of its
// own. A query runs synchronously inside the WebAssembly for as long as it takes; here that blocks
// only this thread, and the server's main thread keeps answering what needs no database (cached
// lists, static files, the current user) while a heavy read runs. docs/decisions/0005-pglite-worker.md.
//
// Plain JavaScript: Node runs it as it is, from the sources (tests, `npm run dev`) and beside
// the compiled server (dist/server/main.mjs finds it at ../../server/db/). The other side is
// server/db/pglite-proxy.ts; the messages are described there.
// @ts-check
import { PGlite, parse, protocol } from '@electric-sql/pglite';
import { parentPort, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('pglite-worker.mjs runs as a worker thread');
const port = parentPort;

/** @type {{ dataDir?: string; loadDataDir?: ArrayBuffer; startParams: string[] }} */
const init = workerData;

// The parsers every query of the app gets (server/db/client.ts): DATE stays 'YYYY-MM-DD', int8 and
// numeric become numbers.
const parsers = { 1082: (/** @type {string} */ v) => v, 20: (/** @type {string} */ v) => Number(v), 1700: (/** @type {string} */ v) => Number(v) };

/** Per-query parsers cannot cross threads: the caller names the types whose text it keeps as is. */
const identity = (/** @type {string} */ v) => v;
/** @type {Map<string, Record<number, (v: string) => string>>} */
const keepers = new Map();
function keepParsers(/** @type {number[] | undefined} */ oids) {
  if (!oids || oids.length === 0) return undefined;
  const key = oids.join(',');
  let p = keepers.get(key);
  if (!p) {
    p = Object.fromEntries(oids.map((o) => [o, identity]));
    keepers.set(key, p);
  }
  return p;
}

/** An error as plain data: its message, name and every cloneable own field (code, detail, constraint, …). */
function wireError(/** @type {unknown} */ e) {
  if (!e || typeof e !== 'object') return { name: 'Error', message: String(e) };
  const err = /** @type {Record<string, unknown>} */ (e);
  /** @type {Record<string, unknown>} */
  const out = { name: err.name ?? 'Error', message: err.message ?? String(e) };
  for (const k of Object.keys(err)) {
    if (k === 'queryOptions' || k === 'cause') continue; // parsers (functions); a cause of its own
    const v = err[k];
    if (v === undefined || typeof v === 'function') continue;
    try {
      structuredClone(v);
      out[k] = v;
    } catch {
      // not cloneable: left out
    }
  }
  return out;
}

let pg;
try {
  pg = await PGlite.create({
    ...(init.dataDir ? { dataDir: init.dataDir } : {}),
    ...(init.loadDataDir ? { loadDataDir: new Blob([init.loadDataDir]) } : {}),
    parsers,
    startParams: init.startParams,
  });
} catch (e) {
  port.postMessage({ id: 0, ok: false, error: wireError(e) });
  process.exit(1);
}
const db = pg;

/**
 * Open transactions by the caller's number: the PGlite transaction handle and how to end it. A
 * transaction holds PGlite's transaction lock until the caller ends it; queries without a
 * transaction number wait behind it, as they would in one thread.
 * @type {Map<number, { tx: import('@electric-sql/pglite').Transaction; end: (commit: boolean, replyId: number) => void }>}
 */
const txs = new Map();
const ROLLBACK = Symbol('rollback');

/** Sends an answer; one that cannot be cloned becomes an error answer instead of ending the thread. */
function send(/** @type {number} */ id, /** @type {unknown} */ result, /** @type {Transferable[]} */ transfer = []) {
  try {
    port.postMessage({ id, ok: true, result }, transfer);
  } catch (e) {
    port.postMessage({ id, ok: false, error: wireError(e) });
  }
}

function reply(/** @type {number} */ id, /** @type {Promise<unknown>} */ work, /** @type {(r: any) => Transferable[]} */ transfer = () => []) {
  work.then(
    (result) => send(id, result, transfer(result)),
    (e) => port.postMessage({ id, ok: false, error: wireError(e) }),
  );
}

// ---------------------------------------------------------------------------------------------
// Statements kept prepared. PGlite's query() parses and plans every statement anew; on this
// WebAssembly build planning is most of a metrics read (EXPLAIN ANALYZE, small school: planning
// 18 ms, execution 3 ms). Reads and writes are therefore prepared once under a name, as the
// server does on PostgreSQL (server/db/client.ts, preparedName: the same rule and bounds), and
// PostgreSQL reuses their plans after a few runs. Same extended-protocol steps as PGlite's own
// query(), with Parse and Describe only the first time.

const PREPARABLE = /^\s*(select|with|insert|update|delete)\b/i;
const MAX_PREPARED_PARAMS = 64;
const MAX_PREPARED_TEXTS = 1000;
/** @type {Map<string, { name: string; types: number[] } | null>} */
const prepared = new Map();
let statements = 0;
const ser = protocol.serialize;
const noSync = { syncToFs: false };

/** The prepared statement for a text, or null when it is not to be kept (then PGlite's own query() runs it). */
function preparable(/** @type {string} */ text, /** @type {unknown[]} */ params, /** @type {any} */ options) {
  if (options?.paramTypes) return null;
  const known = prepared.get(text);
  if (known !== undefined) return known;
  if (prepared.size >= MAX_PREPARED_TEXTS || !PREPARABLE.test(text) || params.length > MAX_PREPARED_PARAMS) {
    if (prepared.size < MAX_PREPARED_TEXTS) prepared.set(text, null);
    return null;
  }
  return { name: '', types: [] }; // prepared on first run
}

/** One run of a kept statement; the caller holds PGlite's query lock. */
async function runPrepared(/** @type {string} */ text, /** @type {unknown[]} */ params, /** @type {any} */ options) {
  /** @type {any[]} */
  const messages = [];
  try {
    let st = prepared.get(text);
    if (!st) {
      const name = `uk_${++statements}`;
      await db.execProtocolStream(ser.parse({ name, text }), noSync);
      const types = parse.parseDescribeStatementResults(await db.execProtocolStream(ser.describe({ type: 'S', name }), noSync));
      st = { name, types };
      prepared.set(text, st);
    }
    const types = st.types;
    const values = params.map((v, i) => {
      if (v === null || v === undefined) return null;
      const serialize = db.serializers[/** @type {number} */ (types[i])];
      return serialize ? serialize(v) : String(v);
    });
    messages.push(...(await db.execProtocolStream(ser.bind({ statement: st.name, values }), noSync)));
    messages.push(...(await db.execProtocolStream(ser.describe({ type: 'P' }), noSync)));
    messages.push(...(await db.execProtocolStream(ser.execute({}), noSync)));
  } catch (e) {
    if (e && typeof e === 'object') Object.assign(e, { query: text, params });
    throw e;
  } finally {
    messages.push(...(await db.execProtocolStream(ser.sync(), noSync)));
  }
  return parse.parseResults(messages, parserTable(options), options?.rowMode ? { rowMode: options.rowMode } : undefined)[0];
}

/**
 * The parsers of a query: the database's own with the kept types on top, merged once per set of
 * kept types. Given the kept ones as an option, PGlite's parseResults copies its whole table of
 * ~320 parsers into a new object on every query, and Drizzle sends kept types with every query:
 * that copy was ~30 % of the worker's time on a small read (docs/decisions/bench-results.md,
 * 2026-12-07).
 * @type {WeakMap<object, Record<number, (v: string, t: number) => unknown>>}
 */
const parserTables = new WeakMap();
function parserTable(/** @type {any} */ options) {
  const keep = options?.parsers;
  if (!keep) return db.parsers;
  let table = parserTables.get(keep);
  if (!table) {
    table = { ...db.parsers, ...keep };
    parserTables.set(keep, table);
  }
  return table;
}

/**
 * A query: kept prepared when it qualifies, else PGlite's query(). Outside a transaction it takes
 * PGlite's transaction lock first, as PGlite's query() does, and syncs the files after.
 */
async function query(/** @type {number | undefined} */ txId, /** @type {string} */ text, /** @type {unknown[]} */ params, /** @type {any} */ options) {
  const t = target(txId);
  if (!preparable(text, params, options)) return t.query(text, params, options);
  let dropped = false;
  const run = async () => {
    try {
      return await runPrepared(text, params, options);
    } catch (e) {
      // A plan cached before a change of the tables it reads (0A000 "cached plan must not change
      // result type"): the statement is dropped (prepared again on its next run) and, outside a
      // transaction, the text runs once more unnamed.
      const st = prepared.get(text);
      if (st && /** @type {any} */ (e)?.code === '0A000') {
        prepared.delete(text);
        dropped = true;
        await db.execProtocolStream(ser.close({ type: 'S', name: st.name }), noSync);
        await db.execProtocolStream(ser.sync(), noSync);
      }
      throw e;
    }
  };
  if (txId !== undefined) return db._runExclusiveQuery(run);
  try {
    return await db._runExclusiveTransaction(() =>
      db._runExclusiveQuery(async () => {
        const r = await run();
        await db.syncToFs();
        return r;
      }),
    );
  } catch (e) {
    if (dropped) return db.query(text, params, options);
    throw e;
  }
}

function target(/** @type {number | undefined} */ txId) {
  if (txId === undefined) return db;
  const t = txs.get(txId);
  if (!t) throw new Error(`transaction ${txId} is not open`);
  return t.tx;
}

port.on('message', (/** @type {any} */ m) => {
  switch (m.op) {
    case 'query': {
      const options = m.rowMode || m.keep || m.paramTypes ? { rowMode: m.rowMode, parsers: keepParsers(m.keep), paramTypes: m.paramTypes } : undefined;
      reply(m.id, Promise.resolve().then(() => query(m.tx, m.text, m.params, options)));
      return;
    }
    case 'exec':
      reply(m.id, Promise.resolve().then(() => target(m.tx).exec(m.text)));
      return;
    case 'begin': {
      const txId = /** @type {number} */ (m.tx);
      let entered = false;
      /** @type {number} */
      let endId = 0;
      db.transaction(
        (tx) =>
          new Promise((resolve, reject) => {
            entered = true;
            txs.set(txId, {
              tx,
              end: (commit, replyId) => {
                endId = replyId;
                if (commit) resolve(undefined);
                else reject(ROLLBACK);
              },
            });
            port.postMessage({ id: m.id, ok: true, result: null });
          }),
      ).then(
        () => {
          txs.delete(txId);
          port.postMessage({ id: endId, ok: true, result: null });
        },
        (e) => {
          txs.delete(txId);
          if (!entered) port.postMessage({ id: m.id, ok: false, error: wireError(e) });
          else if (e === ROLLBACK) port.postMessage({ id: endId, ok: true, result: null });
          else port.postMessage({ id: endId, ok: false, error: wireError(e) });
        },
      );
      return;
    }
    case 'end': {
      const t = txs.get(m.tx);
      if (!t) port.postMessage({ id: m.id, ok: false, error: wireError(new Error(`transaction ${m.tx} is not open`)) });
      else t.end(Boolean(m.commit), m.id);
      return;
    }
    case 'dump':
      reply(
        m.id,
        db.dumpDataDir(m.compression).then(async (f) => ({ bytes: await f.arrayBuffer(), type: f.type })),
        (r) => [r.bytes],
      );
      return;
    case 'close':
      reply(m.id, db.close());
      return;
    default:
      port.postMessage({ id: m.id, ok: false, error: { name: 'Error', message: `unknown operation ${String(m.op)}` } });
  }
});

port.postMessage({ id: 0, ok: true, result: 'ready' });
