import { Worker } from 'node:worker_threads';

/**
 * The one bounded pool of worker threads (docs/decisions/media-parser-guard.md, "Worker threads
 * with their own heap"): the media guard (media-guard.ts) and a take's analysis report (the
 * recordings module's analysis-pool.ts) both run their work through it. Each worker has a heap
 * limit of its own and takes one job at a time; a job still running at its wall-clock limit has
 * its worker stopped and replaced; a worker that dies during a job fails that job and the next job
 * gets a new worker; the jobs waiting for a busy worker are bounded in number and size; an idle
 * worker is stopped after a while and never keeps the process alive.
 *
 * Messages: the pool posts `{id, ...message(job)}` and hands the worker's answers for that id to
 * `answer`; the worker's own protocol is the user's.
 */

export type WorkerPoolLimits<Job> = {
  /** Worker threads working at once. */
  workers: number;
  /** Each worker's old and young generation (MB). */
  heapMb: number;
  youngMb: number;
  /** A job's wall-clock limit (ms), counted from when a worker takes it; the worker is then stopped. */
  timeMs: number | ((job: Job) => number);
  /** An idle worker is stopped after this long (ms). */
  idleMs: number;
  /** Jobs waiting for a busy worker, at most (then `errors.busy`); Infinity: no bound. */
  queueJobs: number;
  /** The sum of their `size`, at most (then `errors.busy`); Infinity: no bound. */
  queueSize: number;
};

/** What the worker's answer means for its job: a result, an error, or nothing (not an answer; the job goes on). */
export type PoolAnswer<Result> = { result: Result } | { error: Error } | undefined;

export type WorkerPoolOptions<Job, Result, Answer> = {
  /** Names the workers in the error of one that cannot start ("the media guard's worker"). */
  name: string;
  url: URL;
  workerData?: unknown;
  limits: WorkerPoolLimits<Job>;
  /** A job's weight against `queueSize` (e.g. its length); 0 when not given. */
  size?: (job: Job) => number;
  /** What is posted to the worker for a job, besides the pool's `id`. */
  message: (job: Job) => object;
  answer: (answer: Answer, job: Job) => PoolAnswer<Result>;
  /** The errors of the job's limits: its time ran out, its worker died (out of heap), the queue was full. */
  errors: { time: (job: Job) => Error; crash: (job: Job) => Error; busy?: (job: Job) => Error };
};

export type WorkerPool<Job, Result> = {
  /**
   * Runs a job in a worker. Rejects with the pool's `errors` for a full queue, a time-out or a
   * worker that died during the job; with a plain Error (a fault of the server, a 500) when the
   * worker could not start.
   */
  run(job: Job): Promise<Result>;
  /** Jobs handed to a worker and workers started so far; workers alive and jobs waiting now. */
  stats(): { jobs: number; started: number; alive: number; queued: number };
  /**
   * For the tests: other limits until the returned function restores them. Idle workers stop, so
   * the next job starts one with the new limits.
   */
  setLimits(o: Partial<WorkerPoolLimits<Job>>): () => Promise<void>;
};

/** Errors of a worker that never ran: not the job's doing (its file missing beside the compiled server, a module not found). */
const START_FAILURES = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND', 'ERR_WORKER_PATH', 'ERR_WORKER_INIT_FAILED', 'ERR_WORKER_INVALID_EXEC_ARGV', 'ERR_UNSUPPORTED_DIR_IMPORT']);

type Queued<Job, Result> = { id: number; job: Job; size: number; resolve: (r: Result) => void; reject: (e: Error) => void };
type Slot<Job, Result> = { worker: Worker | null; job: Queued<Job, Result> | null; stopTimer: NodeJS.Timeout | null; idleTimer: NodeJS.Timeout | null };

export function createWorkerPool<Job, Result, Answer extends { id?: number } = { id?: number }>(o: WorkerPoolOptions<Job, Result, Answer>): WorkerPool<Job, Result> {
  let limits = { ...o.limits };
  let slots = makeSlots();
  const queue: Queued<Job, Result>[] = [];
  let queuedSize = 0;
  let nextId = 1;
  const counts = { jobs: 0, started: 0 };

  function makeSlots(): Slot<Job, Result>[] {
    return Array.from({ length: limits.workers }, () => ({ worker: null, job: null, stopTimer: null, idleTimer: null }));
  }

  function run(job: Job): Promise<Result> {
    const size = o.size?.(job) ?? 0;
    const waits = slots.every((s) => s.job) || queue.length > 0;
    if (waits && (queue.length >= limits.queueJobs || queuedSize + size > limits.queueSize)) {
      return Promise.reject(o.errors.busy?.(job) ?? new Error(`${o.name}: the queue is full`));
    }
    return new Promise<Result>((resolve, reject) => {
      queue.push({ id: nextId++, job, size, resolve, reject });
      queuedSize += size;
      pump();
    });
  }

  function pump(): void {
    for (const slot of slots) {
      if (slot.job) continue;
      const job = queue.shift();
      if (!job) return;
      queuedSize -= job.size;
      take(slot, job);
    }
  }

  function spawn(slot: Slot<Job, Result>): Worker {
    const w = new Worker(o.url, {
      workerData: o.workerData,
      stdout: false,
      stderr: false,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: limits.youngMb },
    });
    counts.started++;
    w.on('message', (m: Answer) => {
      if (slot.worker !== w) return;
      const job = slot.job;
      if (!job || job.id !== m.id) return;
      const a = o.answer(m, job.job);
      if (!a) return;
      done(slot);
      if ('result' in a) job.resolve(a.result);
      else job.reject(a.error);
      pump();
    });
    const died = (err?: Error) => {
      if (slot.worker !== w) return;
      slot.worker = null;
      const job = slot.job;
      done(slot);
      // A worker that cannot start is the server's fault (500); out of heap
      // (ERR_WORKER_OUT_OF_MEMORY) or any other death during a job: the job's.
      const code = (err as { code?: unknown } | undefined)?.code;
      if (typeof code === 'string' && START_FAILURES.has(code)) job?.reject(new Error(`${o.name} could not start: ${err?.message}`));
      else if (job) job.reject(o.errors.crash(job.job));
      pump();
    };
    w.on('error', died);
    w.on('exit', () => died());
    return w;
  }

  function take(slot: Slot<Job, Result>, job: Queued<Job, Result>): void {
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const worker = (slot.worker ??= spawn(slot));
    worker.ref(); // a job under way keeps the process alive; an idle worker does not (done)
    slot.job = job;
    counts.jobs++;
    // Whatever the job's own bounds, a worker still busy at the limit is stopped from here.
    const timeMs = typeof limits.timeMs === 'function' ? limits.timeMs(job.job) : limits.timeMs;
    slot.stopTimer = setTimeout(() => {
      if (slot.job !== job) return;
      done(slot);
      job.reject(o.errors.time(job.job));
      void stop(slot).then(pump);
    }, timeMs);
    slot.stopTimer.unref();
    worker.postMessage({ ...o.message(job.job), id: job.id });
  }

  /** The slot is free again; its worker stays for the next job and stops when idle long enough. */
  function done(slot: Slot<Job, Result>): void {
    if (slot.stopTimer) clearTimeout(slot.stopTimer);
    slot.stopTimer = null;
    slot.job = null;
    // unref after the listeners are on: adding a 'message' listener refs the worker's port again
    slot.worker?.unref();
    if (slot.worker && !slot.idleTimer) {
      slot.idleTimer = setTimeout(() => {
        slot.idleTimer = null;
        if (!slot.job) void stop(slot);
      }, limits.idleMs);
      slot.idleTimer.unref();
    }
  }

  async function stop(slot: Slot<Job, Result>): Promise<void> {
    const w = slot.worker;
    slot.worker = null;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    if (w) await w.terminate();
  }

  function setLimits(change: Partial<WorkerPoolLimits<Job>>): () => Promise<void> {
    const before = limits;
    limits = { ...limits, ...change };
    const renew = async () => {
      const old = slots;
      slots = makeSlots();
      await Promise.all(old.map(async (s) => (s.job ? undefined : stop(s))));
    };
    void renew();
    return async () => {
      limits = before;
      await renew();
    };
  }

  function stats() {
    return { ...counts, alive: slots.filter((s) => s.worker).length, queued: queue.length };
  }

  return { run, stats, setLimits };
}
