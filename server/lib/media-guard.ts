import { AppError, type Msg } from '../errors';
import { DEFAULT_LIMITS, type LimitReason, type WalkLimits } from '@contract/media-walkers.mjs';
import { createWorkerPool } from './worker-pool';

/**
 * The one way the server reads an uploaded file's bytes (its type, a recording's tracks and
 * length): in a small pool of worker threads (worker-pool.ts, running media-guard-worker.mjs),
 * each with a heap limit of its own and a wall-clock limit after which it is stopped and replaced.
 * The parsers there are bounded in depth, element count and bytes read
 * (contract/media-walkers.mjs); a file over any bound, or one that kills or stalls its worker, is
 * a 422 (MediaRefused), and the server goes on. docs/decisions/media-parser-guard.md.
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

type Job = { file: string; deep: boolean; limits: WalkLimits };
type Answer = { id: number; ok: true; result: MediaProbe } | { id: number; ok: false; limit: LimitReason } | { id: number; ok: false; error: string };

// One probe per worker at a time, the rest wait in order (no bound: a probe takes milliseconds).
const pool = createWorkerPool<Job, MediaProbe, Answer>({
  name: "the media guard's worker",
  url: WORKER_URL,
  limits: {
    workers: MEDIA_GUARD.workers,
    heapMb: MEDIA_GUARD.heapMb,
    youngMb: MEDIA_GUARD.youngMb,
    // The walkers stop themselves at the probe's time limit; a parser stuck in a loop is stopped by the pool.
    timeMs: (job) => job.limits.timeMs + MEDIA_GUARD.graceMs,
    idleMs: MEDIA_GUARD.idleMs,
    queueJobs: Infinity,
    queueSize: Infinity,
  },
  message: (job) => job,
  answer: (m) => (m.ok ? { result: m.result } : { error: 'limit' in m ? new MediaRefused(m.limit) : new Error(`media probe failed: ${m.error}`) }),
  // Out of heap or any other death during a probe: the file did it.
  errors: { time: () => new MediaRefused('time'), crash: () => new MediaRefused('crash') },
});

/**
 * Reads a file's type (and with `deep`, a recording's kind and length) in the guard's workers.
 * Throws MediaRefused (422) for a file over a bound; any other error is a fault of the server
 * (the file could not be opened, the worker could not start).
 */
export function probeMedia(file: string, o: { deep: boolean; limits?: Partial<WalkLimits> }): Promise<MediaProbe> {
  return pool.run({ file, deep: o.deep, limits: { ...DEFAULT_LIMITS, ...o.limits } });
}

/** How many workers the guard has started (a test sees a stopped one replaced). */
export function mediaGuardWorkersStarted(): number {
  return pool.stats().started;
}
