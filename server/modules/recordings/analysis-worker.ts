import { parentPort } from 'node:worker_threads';
import { runJob, type AnalysisJob } from './analysis-compute';

/**
 * The analysis worker thread (docs/decisions/listening.md, "What a report may cost"): a track's
 * base64, its decoding and its report are computed here, in a V8 heap of its own with a limit; the
 * main thread (analysis-pool.ts) stops it after a wall-clock limit and starts a new one for the
 * next job. One job at a time.
 *
 * Messages (main → worker): `{id, job}`; answers `{id, result}` (analysis-compute.ts
 * AnalysisResult), or `{id, result: {ok: false, error}}` when the job itself threw (a fault of ours).
 *
 * Run from the sources through analysis-worker-source.mjs (tests, `npm run dev`); bundled by
 * esbuild beside the server as dist/server/analysis-worker.mjs (scripts/build-if-needed.mjs).
 */
if (!parentPort) throw new Error('analysis-worker runs as a worker thread');
const port = parentPort;

port.on('message', (m: { id: number; job: AnalysisJob }) => {
  try {
    port.postMessage({ id: m.id, result: runJob(m.job) });
  } catch (e) {
    port.postMessage({ id: m.id, result: { ok: false, error: e instanceof Error ? e.message : String(e) } });
  }
});
