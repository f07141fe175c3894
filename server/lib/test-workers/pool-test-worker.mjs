// A worker for server/lib/worker-pool.unit.test.ts: each message `{id, kind, ...}` answers
// `{id, ok: true, result}` (echo, sleep), `{id, ok: false, error}` (fail), or never (loop: runs
// forever; heap: fills its heap until the pool's limit ends the worker).
// @ts-check
import { parentPort, threadId, workerData } from 'node:worker_threads';

if (!parentPort) throw new Error('pool-test-worker.mjs runs as a worker thread');
const port = parentPort;

port.on('message', (/** @type {{ id: number; kind: string; value?: unknown; ms?: number }} */ m) => {
  if (m.kind === 'echo') port.postMessage({ id: m.id, ok: true, result: { value: m.value, threadId, workerData } });
  else if (m.kind === 'sleep') {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, m.ms ?? 0);
    port.postMessage({ id: m.id, ok: true, result: { value: m.value, threadId, workerData } });
  } else if (m.kind === 'fail') port.postMessage({ id: m.id, ok: false, error: String(m.value) });
  else if (m.kind === 'loop') for (;;);
  else if (m.kind === 'heap') {
    /** @type {number[][]} */
    const kept = [];
    for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => i + kept.length));
  }
});
