import type { QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { Worker } from 'node:worker_threads';

/**
 * The embedded database in a worker thread (server/db/pglite-worker.mjs), seen from the main
 * thread as the part of PGlite's client that drizzle-orm/pglite, the migrator and the bench use:
 * `query`, `exec`, `transaction`, `dumpDataDir`, `close`. docs/decisions/0005-pglite-worker.md.
 *
 * Messages (main → worker): `{id, op: 'query', text, params, rowMode?, keep?, paramTypes?, tx?}`,
 * `{id, op: 'exec', text, tx?}`, `{id, op: 'begin', tx}`, `{id, op: 'end', tx, commit}`,
 * `{id, op: 'dump', compression}`, `{id, op: 'close'}`; answers `{id, ok, result | error}`, and
 * `{id: 0}` once the database is open (or failed to). Queries are sent at once and run in the
 * order they arrive (PGlite runs one at a time); a transaction holds the database from `begin`
 * to `end`, and a query sent meanwhile without its number waits for it, as in one thread.
 */

/** What a caller of the proxy may rely on; a subset of PGlite's client. */
export type PgliteClient = {
  query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(query: string, options?: QueryOptions): Promise<Array<Results>>;
  transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T>;
  dumpDataDir(compression?: 'none' | 'gzip' | 'auto'): Promise<File | Blob>;
  close(): Promise<void>;
  readonly closed: boolean;
};

export type PgliteWorkerOptions = {
  dataDir?: string;
  /** A dump (tar, optionally gzipped) to start from, as PGlite's `loadDataDir`. */
  loadDataDir?: Blob;
  startParams: string[];
  /** Called once if the worker stops on its own (a crash in the database): every call fails from then on. */
  onCrash?: (err: Error) => void;
};

type WireError = { name?: string; message?: string } & Record<string, unknown>;
type Answer = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: WireError };
type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

/** The worker thread's V8 young generation (MB); see bench-results.md, fourth pass. */
export const WORKER_YOUNG_GENERATION_MB = 8;

export const WORKER_URL = new URL('../../server/db/pglite-worker.mjs', import.meta.url);

/** A database error as the caller sees it: the message and every field the worker sent (code, detail, constraint, …). */
function toError(w: WireError): Error {
  const err = new Error(w.message ?? 'database error');
  for (const [k, v] of Object.entries(w)) if (k !== 'message' && k !== 'stack' && k !== 'name') (err as unknown as Record<string, unknown>)[k] = v;
  if (w.name) err.name = w.name;
  return err;
}

/**
 * Per-query parsers are functions and cannot cross to the worker. Drizzle only ever passes
 * identity parsers (keep timestamps, dates and intervals as text): those are sent as type ids.
 */
function keptTypes(parsers: QueryOptions['parsers']): number[] | undefined {
  if (!parsers) return undefined;
  const oids: number[] = [];
  for (const [oid, parse] of Object.entries(parsers)) {
    if (parse('2000-01-01', Number(oid)) !== '2000-01-01') throw new Error(`only parsers that keep the text can be used with the embedded database (type ${oid})`);
    oids.push(Number(oid));
  }
  return oids;
}

function message(text: string, params: unknown[] | undefined, options: QueryOptions | undefined, tx: number | undefined) {
  if (options?.serializers || options?.blob || options?.onNotice) throw new Error('query option not supported by the embedded database worker');
  return {
    op: 'query' as const,
    text,
    params: params ?? [],
    ...(options?.rowMode ? { rowMode: options.rowMode } : {}),
    ...(options?.parsers ? { keep: keptTypes(options.parsers) } : {}),
    ...(options?.paramTypes ? { paramTypes: options.paramTypes } : {}),
    ...(tx !== undefined ? { tx } : {}),
  };
}

export class PgliteWorker implements PgliteClient {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private nextTx = 1;
  private dead: Error | null = null;
  private closing = false;
  private isClosed = false;

  private constructor(worker: Worker) {
    this.worker = worker;
  }

  /** Starts the worker and opens the database in it; rejects with the database's error. */
  static async open(o: PgliteWorkerOptions): Promise<PgliteWorker> {
    const bytes = o.loadDataDir ? await o.loadDataDir.arrayBuffer() : undefined;
    const worker = new Worker(WORKER_URL, {
      workerData: { dataDir: o.dataDir, loadDataDir: bytes, startParams: o.startParams },
      transferList: bytes ? [bytes] : [],
      // The worker's stdout/stderr go to the process's own.
      stdout: false,
      stderr: false,
      // Its JavaScript only turns the database's answers into rows and hands them over: a small
      // young generation (V8's default is up to 16–32 MB) keeps the thread's share of RSS down.
      resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB },
    });
    const client = new PgliteWorker(worker);
    await new Promise<void>((resolve, reject) => {
      const early = (e: Error) => reject(e);
      const exitEarly = (code: number) => reject(new Error(`the embedded database worker stopped while opening (exit code ${code})`));
      worker.once('error', early);
      worker.once('exit', exitEarly);
      worker.once('message', (m: Answer) => {
        worker.off('error', early);
        worker.off('exit', exitEarly);
        if (m.ok) resolve();
        else reject(toError(m.error));
      });
    }).catch(async (e: unknown) => {
      await worker.terminate();
      throw e;
    });
    worker.on('message', (m: Answer) => client.answer(m));
    worker.on('error', (e) => client.fail(e));
    worker.on('exit', (code) => client.fail(new Error(`the embedded database worker stopped (exit code ${code})`)));
    client.idle();
    if (o.onCrash) client.onCrash = o.onCrash;
    return client;
  }

  private onCrash: ((err: Error) => void) | undefined;

  get closed(): boolean {
    return this.isClosed;
  }

  private answer(m: Answer): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.ok) p.resolve(m.result);
    else p.reject(toError(m.error));
    if (this.pending.size === 0) this.idle();
  }

  /** The worker ended: every waiting call fails, and so does every later one. */
  private fail(e: Error): void {
    if (this.dead) return;
    this.dead = e;
    this.isClosed = true;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    if (!this.closing) this.onCrash?.(e);
  }

  /** An idle worker does not keep the process alive (a CLI that forgets to close still ends). */
  private idle(): void {
    this.worker.unref();
  }

  private send<T>(msg: Record<string, unknown>, transfer: ArrayBuffer[] = []): Promise<T> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      try {
        this.worker.postMessage({ ...msg, id }, transfer);
      } catch (e) {
        // e.g. a parameter that cannot be cloned (a function)
        this.pending.delete(id);
        if (this.pending.size === 0) this.idle();
        reject(e as Error);
      }
    });
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    try {
      return this.send<Results<T>>(message(text, params, options, undefined));
    } catch (e) {
      return Promise.reject(e as Error);
    }
  }

  exec(text: string, options?: QueryOptions): Promise<Array<Results>> {
    if (options && Object.keys(options).length) return Promise.reject(new Error('exec options are not supported by the embedded database worker'));
    return this.send<Array<Results>>({ op: 'exec', text });
  }

  /**
   * BEGIN, the callback with a client bound to this transaction, then COMMIT – or ROLLBACK when
   * the callback throws (its error is rethrown). As PGlite's own: a COMMIT of a transaction that
   * failed inside rolls back and rejects.
   */
  async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
    const txId = this.nextTx++;
    await this.send({ op: 'begin', tx: txId });
    let closed = false;
    const check = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const tx = {
      query: <R>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<R>> => {
        try {
          check();
          return this.send<Results<R>>(message(text, params, options, txId));
        } catch (e) {
          return Promise.reject(e as Error);
        }
      },
      exec: (text: string): Promise<Array<Results>> => {
        try {
          check();
          return this.send<Array<Results>>({ op: 'exec', text, tx: txId });
        } catch (e) {
          return Promise.reject(e as Error);
        }
      },
      sql: () => Promise.reject(new Error('tx.sql is not supported by the embedded database worker')),
      listen: () => Promise.reject(new Error('tx.listen is not supported by the embedded database worker')),
      rollback: async () => {
        check();
        closed = true;
        await this.send({ op: 'end', tx: txId, commit: false });
      },
      get closed() {
        return closed;
      },
    } as unknown as Transaction;
    let result: T;
    try {
      result = await callback(tx);
    } catch (e) {
      if (!closed) {
        closed = true;
        await this.send({ op: 'end', tx: txId, commit: false }).catch(() => {});
      }
      throw e;
    }
    if (!closed) {
      closed = true;
      await this.send({ op: 'end', tx: txId, commit: true });
    }
    return result;
  }

  async dumpDataDir(compression: 'none' | 'gzip' | 'auto' = 'auto'): Promise<File | Blob> {
    const r = await this.send<{ bytes: ArrayBuffer; type: string }>({ op: 'dump', compression });
    return new Blob([r.bytes], { type: r.type });
  }

  /** Waits for what was sent before, closes the database (PGlite's close) and ends the worker. */
  async close(): Promise<void> {
    if (this.closing || this.dead) {
      this.isClosed = true;
      return;
    }
    this.closing = true;
    try {
      await this.send({ op: 'close' });
    } finally {
      this.isClosed = true;
      await this.worker.terminate();
    }
  }
}
