import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { AnalysisJob, AnalysisResult } from './analysis-compute';

/**
 * Where a take's report is computed (docs/decisions/listening.md, "What a report may cost"): a
 * small pool of worker threads (analysis-worker.ts), each with a heap limit of its own and a
 * wall-clock limit per job after which it is stopped and replaced, and a queue of bounded size in
 * front of them. The event loop that answers every other request only hands the job over and takes
 * the answer back. The pattern of the media guard (server/lib/media-guard.ts).
 */

export const ANALYSIS_WORKER = {
  /**
   * Worker threads computing at once: one on a machine of two cores (the other is the main
   * thread's and the database's), two from three cores on.
   */
  workers: Math.max(1, Math.min(2, availableParallelism() - 1)),
  /** Each worker's old generation (MB): a 60-minute track's report runs in 24 MB (not in 16). */
  heapMb: 64,
  youngMb: 8,
  /**
   * A job's wall-clock limit (ms), counted from when a worker takes it: a 60-minute take's report
   * is ~0.4 s of CPU, 1–7 s of wall time on this machine while other test suites load it (load
   * average 12 on two cores), and a fresh worker from the sources compiles for a second or more.
   */
  timeMs: 30_000,
  /** Jobs waiting for a busy worker, at most (then 503): with one worker, a minute or more of work. */
  queueJobs: 32,
  /** Their base64, at most (a 60-minute take is ~350 KB of it, a 5-minute take ~25 KB). */
  queueChars: 8 * 1024 * 1024,
  /** An idle worker is stopped after this long. */
  idleMs: 60_000,
};

/** Why a job was not computed: the queue was full, or its worker ran out of time or heap. */
export class AnalysisWorkerLimit extends Error {
  constructor(readonly reason: 'busy' | 'time' | 'crash') {
    super(`analysis worker: ${reason}`);
    this.name = 'AnalysisWorkerLimit';
  }
}

/** The bundled server (dist/server/*.mjs) starts its bundled worker; the sources start it through tsx. */
const fromSources = import.meta.url.endsWith('.ts');
const WORKER_URL = fromSources ? new URL('./analysis-worker-source.mjs', import.meta.url) : new URL('./analysis-worker.mjs', import.meta.url);
const WORKER_DATA = fromSources ? { entry: new URL('./analysis-worker.ts', import.meta.url).href } : {};

/** Errors of a worker that never ran: not the job's doing (the bundled worker missing beside the server). */
const START_FAILURES = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND', 'ERR_WORKER_PATH', 'ERR_WORKER_INIT_FAILED', 'ERR_WORKER_INVALID_EXEC_ARGV']);

type Job = { id: number; job: AnalysisJob; resolve: (r: AnalysisResult) => void; reject: (e: Error) => void };
type Slot = { worker: Worker | null; job: Job | null; stopTimer: NodeJS.Timeout | null; idleTimer: NodeJS.Timeout | null };

let limits = { ...ANALYSIS_WORKER };
let slots: Slot[] = makeSlots();
const queue: Job[] = [];
let queuedChars = 0;
let nextId = 1;
const stats = { jobs: 0, started: 0 };

function makeSlots(): Slot[] {
  return Array.from({ length: limits.workers }, () => ({ worker: null, job: null, stopTimer: null, idleTimer: null }));
}

/**
 * Computes a job in a worker. Throws AnalysisWorkerLimit when the queue is full or the worker ran
 * out of time or heap; any other error is a fault of the server (the worker could not start).
 */
export function runAnalysis(job: AnalysisJob): Promise<AnalysisResult> {
  const waits = slots.every((s) => s.job) || queue.length > 0;
  if (waits && (queue.length >= limits.queueJobs || queuedChars + job.data.length > limits.queueChars)) return Promise.reject(new AnalysisWorkerLimit('busy'));
  return new Promise<AnalysisResult>((resolve, reject) => {
    queue.push({ id: nextId++, job, resolve, reject });
    queuedChars += job.data.length;
    pump();
  });
}

/** For the tests: jobs handed to a worker and workers started so far in this process. */
export function analysisWorkerStats(): { jobs: number; started: number } {
  return { ...stats };
}

/**
 * For the tests: other limits until the returned function restores them. Idle workers stop, so the
 * next job starts one with the new heap limit.
 */
export function setAnalysisWorkerLimits(o: Partial<typeof ANALYSIS_WORKER>): () => Promise<void> {
  const before = limits;
  limits = { ...limits, ...o };
  const apply = async () => {
    const old = slots;
    slots = makeSlots();
    await Promise.all(old.map(async (s) => (s.job ? undefined : stop(s))));
  };
  void apply();
  return async () => {
    limits = before;
    await apply();
  };
}

function pump(): void {
  for (const slot of slots) {
    if (slot.job) continue;
    const job = queue.shift();
    if (!job) return;
    queuedChars -= job.job.data.length;
    run(slot, job);
  }
}

function spawn(slot: Slot): Worker {
  const w = new Worker(WORKER_URL, {
    workerData: WORKER_DATA,
    stdout: false,
    stderr: false,
    resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: limits.youngMb },
  });
  stats.started++;
  w.on('message', (m: { id?: number; result?: AnalysisResult }) => {
    if (slot.worker !== w) return;
    const job = slot.job;
    if (!job || job.id !== m.id || !m.result) return;
    done(slot);
    job.resolve(m.result);
    pump();
  });
  const died = (err?: Error) => {
    if (slot.worker !== w) return;
    slot.worker = null;
    const job = slot.job;
    done(slot);
    // A worker that cannot start is the server's fault (500); out of heap or any other death
    // during a job: the job's (ERR_WORKER_OUT_OF_MEMORY).
    const code = (err as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && START_FAILURES.has(code)) job?.reject(new Error(`the analysis worker could not start: ${err?.message}`));
    else job?.reject(new AnalysisWorkerLimit('crash'));
    pump();
  };
  w.on('error', died);
  w.on('exit', () => died());
  return w;
}

function run(slot: Slot, job: Job): void {
  if (slot.idleTimer) clearTimeout(slot.idleTimer);
  slot.idleTimer = null;
  const worker = (slot.worker ??= spawn(slot));
  worker.ref(); // a job under way keeps the process alive; an idle worker does not (done)
  slot.job = job;
  stats.jobs++;
  // The report cannot stop itself: at the limit the worker is stopped from here.
  slot.stopTimer = setTimeout(() => {
    if (slot.job !== job) return;
    done(slot);
    job.reject(new AnalysisWorkerLimit('time'));
    void stop(slot).then(pump);
  }, limits.timeMs);
  slot.stopTimer.unref();
  worker.postMessage({ id: job.id, job: job.job });
}

/** The slot is free again; its worker stays for the next job and stops when idle long enough. */
function done(slot: Slot): void {
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

async function stop(slot: Slot): Promise<void> {
  const w = slot.worker;
  slot.worker = null;
  if (slot.idleTimer) clearTimeout(slot.idleTimer);
  slot.idleTimer = null;
  if (w) await w.terminate();
}
