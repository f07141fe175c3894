import { Worker } from 'node:worker_threads';
import { AppError, type Msg } from '../errors';
import { DEFAULT_LIMITS, type LimitReason, type WalkLimits } from '@contract/media-walkers.mjs';

/**
 * The one way the server reads an uploaded file's bytes (its type, a recording's tracks and
 * length): in a small pool of worker threads (server/lib/media-guard-worker.mjs), each with a
 * heap limit of its own and a wall-clock limit after which it is stopped and replaced. The
 * parsers there are bounded in depth, element count and bytes read (contract/media-walkers.mjs);
 * a file over any bound, or one that kills or stalls its worker, is a 422 (MediaRefused), and the
 * server goes on. docs/decisions/media-parser-guard.md.
 */

/** What a probe reports: the type file-type reads, and with `deep` the container's kind and length. */
export type MediaProbe = {
  /** file-type's name for the bytes, without parameters; null if it knows none. */
  mime: string | null;
  hasVideo?: boolean;
  /** The length the file states (seconds), or null/undefined where it says none. */
  seconds?: number | null;
  /** A WebM/Matroska whose elements could not be read as one (no EBML, no track). */
  unreadable?: boolean;
};

export const MEDIA_GUARD = {
  /** Worker threads probing at once (the machine has few cores; a probe takes milliseconds). */
  workers: 2,
  /** Each worker's old generation (MB): far above what a real file needs (a 50 MiB MP3: ~10 MB). */
  heapMb: 64,
  youngMb: 8,
  /** After the probe's own time limit, how long the worker may take to give up before it is stopped. */
  graceMs: 1_000,
  /** An idle worker is stopped after this long (a new one starts in ~50–100 ms). */
  idleMs: 60_000,
} as const;

export const WORKER_URL = new URL('../../server/lib/media-guard-worker.mjs', import.meta.url);

/** Why a file was refused: a bound of the parsers, or its worker died (heap) or stalled. */
export type GuardReason = LimitReason | 'crash';

export const MEDIA_GUARD_TEXT: Msg = {
  de: 'Diese Datei ist zu verschachtelt oder zu umfangreich aufgebaut, um sicher geprüft zu werden, und wurde nicht gespeichert.',
  tr: 'Bu dosyanın yapısı güvenli bir şekilde incelenemeyecek kadar iç içe veya karmaşık. Dosya kaydedilmedi.',
};

/** A file the guard refused: 422 with MEDIA_GUARD_TEXT; `code` is stable for logs, `reason` says which bound. */
export class MediaRefused extends AppError {
  readonly code = 'media_limits';
  constructor(readonly reason: GuardReason) {
    super(422, MEDIA_GUARD_TEXT);
    this.name = 'MediaRefused';
  }
}

/** Errors of a worker that never ran: not the file's doing. */
const START_FAILURES = new Set(['MODULE_NOT_FOUND', 'ERR_MODULE_NOT_FOUND', 'ERR_WORKER_PATH', 'ERR_WORKER_INIT_FAILED', 'ERR_WORKER_INVALID_EXEC_ARGV', 'ERR_UNSUPPORTED_DIR_IMPORT']);

type Answer = { id: number; ok: true; result: MediaProbe } | { id: number; ok: false; limit: LimitReason } | { id: number; ok: false; error: string };
type Job = {
  id: number;
  file: string;
  deep: boolean;
  limits: WalkLimits;
  resolve: (p: MediaProbe) => void;
  reject: (e: Error) => void;
};
type Slot = { worker: Worker | null; job: Job | null; stopTimer: NodeJS.Timeout | null; idleTimer: NodeJS.Timeout | null };

const slots: Slot[] = Array.from({ length: MEDIA_GUARD.workers }, () => ({ worker: null, job: null, stopTimer: null, idleTimer: null }));
const queue: Job[] = [];
let nextId = 1;
/** Workers started so far (tests see a crashed one replaced). */
let started = 0;

/**
 * Reads a file's type (and with `deep`, a recording's kind and length) in the guard's workers.
 * Throws MediaRefused (422) for a file over a bound; any other error is a fault of the server
 * (the file could not be opened).
 */
export function probeMedia(file: string, o: { deep: boolean; limits?: Partial<WalkLimits> }): Promise<MediaProbe> {
  return new Promise<MediaProbe>((resolve, reject) => {
    queue.push({ id: nextId++, file, deep: o.deep, limits: { ...DEFAULT_LIMITS, ...o.limits }, resolve, reject });
    pump();
  });
}

/** How many workers the guard has started (a test sees a stopped one replaced). */
export function mediaGuardWorkersStarted(): number {
  return started;
}

function pump(): void {
  for (const slot of slots) {
    if (slot.job) continue;
    const job = queue.shift();
    if (!job) return;
    run(slot, job);
  }
}

function spawn(slot: Slot): Worker {
  const w = new Worker(WORKER_URL, {
    stdout: false,
    stderr: false,
    resourceLimits: { maxOldGenerationSizeMb: MEDIA_GUARD.heapMb, maxYoungGenerationSizeMb: MEDIA_GUARD.youngMb },
  });
  started++;
  w.on('message', (m: Answer) => {
    if (slot.worker !== w) return;
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    done(slot);
    if (m.ok) job.resolve(m.result);
    else if ('limit' in m) job.reject(new MediaRefused(m.limit));
    else job.reject(new Error(`media probe failed: ${m.error}`));
    pump();
  });
  const died = (err?: Error) => {
    if (slot.worker !== w) return;
    slot.worker = null;
    const job = slot.job;
    done(slot);
    // A worker that cannot start (its file missing beside the compiled server) is the server's
    // fault, a 500; out of heap (ERR_WORKER_OUT_OF_MEMORY) or any other death: the file did it.
    const code = (err as { code?: unknown } | undefined)?.code;
    if (typeof code === 'string' && START_FAILURES.has(code)) job?.reject(new Error(`the media guard's worker could not start: ${err?.message}`));
    else job?.reject(new MediaRefused('crash'));
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
  worker.ref(); // a probe under way keeps the process alive; an idle worker does not (done)
  slot.job = job;
  // The walkers stop themselves at the time limit; a parser stuck in a loop is stopped from here.
  slot.stopTimer = setTimeout(() => {
    if (slot.job !== job) return;
    done(slot);
    job.reject(new MediaRefused('time'));
    void stop(slot).then(pump);
  }, job.limits.timeMs + MEDIA_GUARD.graceMs);
  slot.stopTimer.unref();
  worker.postMessage({ id: job.id, file: job.file, deep: job.deep, limits: job.limits });
}

/** The slot is free again; its worker stays for the next job, and stops when idle long enough. */
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
    }, MEDIA_GUARD.idleMs);
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
