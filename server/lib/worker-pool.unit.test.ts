import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createWorkerPool, type WorkerPoolLimits } from './worker-pool';

// The pool that the media guard and a take's analysis share (docs/decisions/media-parser-guard.md),
// with a worker of its own (test-workers/pool-test-worker.mjs).

type Job = { kind: 'echo' | 'sleep' | 'fail' | 'loop' | 'heap'; value?: unknown; ms?: number; size?: number };
type Result = { value: unknown; threadId: number; workerData: unknown };
type Answer = { id: number; ok: true; result: Result } | { id: number; ok: false; error: string };

class Limit extends Error {
  constructor(readonly reason: 'time' | 'crash' | 'busy') {
    super(`test pool: ${reason}`);
  }
}

const WORKER = new URL('./test-workers/pool-test-worker.mjs', import.meta.url);
const LIMITS: WorkerPoolLimits<Job> = { workers: 1, heapMb: 16, youngMb: 4, timeMs: 10_000, idleMs: 60_000, queueJobs: Infinity, queueSize: Infinity };

function pool(limits: Partial<WorkerPoolLimits<Job>> = {}, url = WORKER) {
  return createWorkerPool<Job, Result, Answer>({
    name: 'the test worker',
    url,
    workerData: { from: 'the test' },
    limits: { ...LIMITS, ...limits },
    size: (job) => job.size ?? 0,
    message: (job) => job,
    answer: (m) => (m.ok ? { result: m.result } : { error: new Error(`failed: ${m.error}`) }),
    errors: { time: () => new Limit('time'), crash: () => new Limit('crash'), busy: () => new Limit('busy') },
  });
}

const reason = (p: Promise<unknown>) => p.then(() => 'answered', (e: unknown) => (e instanceof Limit ? e.reason : e));

describe('worker pool', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'worker-pool-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('answers a job in a worker with its workerData; the worker stays for the next job', async () => {
    const p = pool();
    const a = await p.run({ kind: 'echo', value: 1 });
    expect(a).toMatchObject({ value: 1, workerData: { from: 'the test' } });
    const b = await p.run({ kind: 'echo', value: 2 });
    expect(b.threadId).toBe(a.threadId);
    expect(p.stats()).toEqual({ jobs: 2, started: 1, alive: 1, queued: 0 });
    await expect(p.run({ kind: 'fail', value: 'no' })).rejects.toThrow('failed: no');
    await p.setLimits({})(); // stops the idle worker
    expect(p.stats().alive).toBe(0);
  });

  it('a job past its time limit: the time error, the worker stopped, the next job in a fresh worker', async () => {
    const p = pool({ timeMs: (job) => (job.kind === 'loop' ? 200 : 10_000) });
    const first = await p.run({ kind: 'echo' });
    const started = Date.now();
    expect(await reason(p.run({ kind: 'loop' }))).toBe('time');
    expect(Date.now() - started).toBeLessThan(5_000);
    const next = await p.run({ kind: 'echo', value: 'after' });
    expect(next.value).toBe('after');
    expect(next.threadId).not.toBe(first.threadId);
    expect(p.stats().started).toBe(2);
    await p.setLimits({})();
  });

  it('a job that exhausts its heap: the crash error, and the next job in a fresh worker', async () => {
    const p = pool({ timeMs: 30_000 });
    expect(await reason(p.run({ kind: 'heap' }))).toBe('crash');
    expect((await p.run({ kind: 'echo', value: 'after' })).value).toBe('after');
    expect(p.stats().started).toBe(2);
    await p.setLimits({})();
  });

  it('a full queue, in jobs or in size: the busy error at once; the waiting jobs run in order', async () => {
    const p = pool({ queueJobs: 2, queueSize: 5 });
    const order: unknown[] = [];
    const running = p.run({ kind: 'sleep', ms: 300, value: 'a' }).then((r) => order.push(r.value));
    const b = p.run({ kind: 'echo', value: 'b', size: 3 }).then((r) => order.push(r.value));
    expect(await reason(p.run({ kind: 'echo', size: 3 }))).toBe('busy'); // 3 + 3 > 5
    const c = p.run({ kind: 'echo', value: 'c', size: 2 }).then((r) => order.push(r.value));
    expect(await reason(p.run({ kind: 'echo' }))).toBe('busy'); // two wait already
    expect(p.stats().queued).toBe(2);
    await Promise.all([running, b, c]);
    expect(order).toEqual(['a', 'b', 'c']);
    // a free worker takes a job whatever the bounds
    const none = pool({ queueJobs: 0, queueSize: 0 });
    expect((await none.run({ kind: 'echo', value: 'free', size: 10 })).value).toBe('free');
    await Promise.all([p.setLimits({})(), none.setLimits({})()]);
  });

  it('a worker file that is missing: a plain Error saying it could not start (not the job\'s error)', async () => {
    const p = pool({}, new URL('./test-workers/no-such-worker.mjs', import.meta.url));
    const e = await p.run({ kind: 'echo' }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(Error);
    expect(e).not.toBeInstanceOf(Limit);
    expect((e as Error).message).toMatch(/^the test worker could not start: /);
  });

  it('a job under way holds the process; a process whose only pool is idle ends at once, not after the idle time', { timeout: 60_000 }, async () => {
    // Each job must keep it alive (else the top-level await never settles: exit code 13), the
    // second one too, in the worker that was idle for a moment; once answered, the idle worker
    // (60 s before it is stopped) must not.
    const script = join(tmp, 'idle.mts');
    const lib = (p: string) => JSON.stringify(fileURLToPath(new URL(p, import.meta.url)));
    writeFileSync(
      script,
      `import { createWorkerPool } from ${lib('./worker-pool.ts')};
       import { pathToFileURL } from 'node:url';
       const pool = createWorkerPool({
         name: 'the idle test worker', url: pathToFileURL(${lib('./test-workers/pool-test-worker.mjs')}),
         limits: { workers: 1, heapMb: 16, youngMb: 4, timeMs: 30_000, idleMs: 60_000, queueJobs: Infinity, queueSize: Infinity },
         message: (job: object) => job, answer: (m: { result: { value: unknown } }) => ({ result: m.result }),
         errors: { time: () => new Error('time'), crash: () => new Error('crash') },
       });
       await pool.run({ kind: 'sleep', ms: 300 });
       const r = await pool.run({ kind: 'sleep', ms: 300, value: 'answered' });
       console.log(r.value);
      `,
    );
    const root = fileURLToPath(new URL('../..', import.meta.url));
    const started = Date.now();
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    child.stderr.on('data', (d: Buffer) => (out += String(d)));
    const kill = setTimeout(() => child.kill(), 30_000);
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    clearTimeout(kill);
    expect(out.trim()).toBe('answered');
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
