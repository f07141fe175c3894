import { availableParallelism } from 'node:os';
import { createWorkerPool, type WorkerPoolLimits } from '../../lib/worker-pool';
import type { AnalysisJob, AnalysisResult } from './analysis-compute';

/**
 * Where a take's report is computed (docs/decisions/listening.md, "What a report may cost"): a
 * small pool of worker threads (analysis-worker.ts), each with a heap limit of its own and a
 * wall-clock limit per job after which it is stopped and replaced, and a queue of bounded size in
 * front of them. The event loop that answers every other request only hands the job over and takes
 * the answer back. The pool is the media guard's (server/lib/worker-pool.ts,
 * docs/decisions/media-parser-guard.md).
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

type Answer = { id?: number; result?: AnalysisResult };

const pool = createWorkerPool<AnalysisJob, AnalysisResult, Answer>({
  name: 'the analysis worker',
  url: WORKER_URL,
  workerData: WORKER_DATA,
  limits: { ...ANALYSIS_WORKER, queueSize: ANALYSIS_WORKER.queueChars },
  size: (job) => job.data.length,
  message: (job) => ({ job }),
  answer: (m) => (m.result ? { result: m.result } : undefined),
  // The report cannot stop itself: at the time limit the pool stops the worker. Out of heap or any
  // other death during a job: the job's.
  errors: { time: () => new AnalysisWorkerLimit('time'), crash: () => new AnalysisWorkerLimit('crash'), busy: () => new AnalysisWorkerLimit('busy') },
});

/** ANALYSIS_WORKER's names for the pool's limits (the queue's size is its base64's length). */
function poolLimits(l: Partial<typeof ANALYSIS_WORKER>): Partial<WorkerPoolLimits<AnalysisJob>> {
  const { queueChars, ...rest } = l;
  return queueChars === undefined ? rest : { ...rest, queueSize: queueChars };
}

/**
 * Computes a job in a worker. Throws AnalysisWorkerLimit when the queue is full or the worker ran
 * out of time or heap; any other error is a fault of the server (the worker could not start).
 */
export function runAnalysis(job: AnalysisJob): Promise<AnalysisResult> {
  return pool.run(job);
}

/** For the tests: jobs handed to a worker and workers started so far in this process. */
export function analysisWorkerStats(): { jobs: number; started: number } {
  const { jobs, started } = pool.stats();
  return { jobs, started };
}

/**
 * For the tests: other limits until the returned function restores them. Idle workers stop, so the
 * next job starts one with the new heap limit.
 */
export function setAnalysisWorkerLimits(o: Partial<typeof ANALYSIS_WORKER>): () => Promise<void> {
  return pool.setLimits(poolLimits(o));
}
