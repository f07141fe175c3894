import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeTrack } from '@contract/listening/analyze';
import { planTake, synthTrack } from '@contract/listening/testing/synth';
import { MEDIA_GUARD_TEXT } from '../lib/media-guard';
import { makeWav } from '../modules/recordings/sample-recordings';
import { REPO_ROOT, freePort } from './crash-helpers';
import { nestedClustersWebm, nestedMoovMp4 } from './hostile-media';

/**
 * The server in its production form: bundled by esbuild with the entries and options of
 * scripts/build-if-needed.mjs (the analysis worker an entry of its own, dist/server/analysis-worker.mjs),
 * into a folder two levels below the project like dist/server, and run by plain node with the
 * flags of `npm start`. Built and started once for the worker threads that must be found beside
 * the bundle: the media guard's (docs/decisions/media-parser-guard.md) and the analysis's
 * (docs/decisions/listening.md, "What a report may cost").
 */
const ENTRY = 'analysis-worker=server/modules/recordings/analysis-worker.ts';
const outDir = join(REPO_ROOT, 'dist', `bundle-test-${randomBytes(4).toString('hex')}`);
const dataDir = mkdtempSync(join(tmpdir(), 'bundle-test-'));
let proc: ChildProcess;
let url: string;
let output = '';

beforeAll(async () => {
  await build({
    entryPoints: [join(REPO_ROOT, 'server/main.ts'), { in: join(REPO_ROOT, 'server/modules/recordings/analysis-worker.ts'), out: 'analysis-worker' }],
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  proc = spawn(process.execPath, ['--max-old-space-size=128', '--max-semi-space-size=8', join(outDir, 'main.mjs')], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', STATIC_DIR: join(REPO_ROOT, 'no-web-build') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited during start:\n${output}`);
    if (Date.now() > deadline) throw new Error(`server did not answer:\n${output}`);
    const ok = await fetch(`${url}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 300));
  }
}, 120_000);

afterAll(async () => {
  if (proc && proc.exitCode === null) {
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGINT');
    await exited;
  }
  rmSync(outDir, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
});

/** The demo student Ayşe signed in to the bundled server, with her open tasks. */
async function demoStudent(): Promise<{ auth: { authorization: string }; tasks: Array<{ id: number }> }> {
  const login = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ayse@example.com', password: 'demo1234' }),
  });
  expect(login.status, output).toBe(200);
  const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const tasks = (await (await fetch(`${url}/api/submissions?status=open`, { headers: auth })).json()) as Array<{ id: number }>;
  return { auth, tasks };
}

describe('the bundled server (node dist/…/main.mjs, 128 MB heap): the media guard', () => {
  it('refuses crafted containers with 422 and still takes a normal recording', { timeout: 60_000 }, async () => {
    const { auth, tasks } = await demoStudent();
    const send = async (id: number, file: Buffer, name: string, type: string) => {
      const fd = new FormData();
      fd.append('duration_ms', '3000');
      fd.append('file', new Blob([new Uint8Array(file)], { type }), name);
      const r = await fetch(`${url}/api/submissions/${id}/recordings`, { method: 'POST', headers: auth, body: fd });
      return { status: r.status, body: (await r.json()) as { message?: string } };
    };
    // a task that takes recordings (not expired)
    let taskId: number | undefined;
    for (const t of tasks) {
      const r = await send(t.id, makeWav(1000), 'a.wav', 'audio/wav');
      if (r.status === 201) {
        taskId = t.id;
        break;
      }
    }
    expect(taskId, `no demo task took a recording: ${output}`).toBeDefined();
    for (const [file, name, type] of [
      [nestedClustersWebm(260_000), 'x.webm', 'video/webm'],
      [nestedMoovMp4(131_072), 'x.mp4', 'video/mp4'],
    ] as const) {
      const r = await send(taskId!, file, name, type);
      expect(r.status, `${name}: ${output}`).toBe(422);
      expect(r.body.message).toBe(MEDIA_GUARD_TEXT.de);
    }
    expect(proc.exitCode, output).toBeNull();
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect((await send(taskId!, makeWav(1500), 'b.wav', 'audio/wav')).status).toBe(201);
    expect(output).not.toMatch(/could not start/);
  });
});

describe('the bundled server (node dist/…/main.mjs, 128 MB heap): the analysis worker', () => {
  it('builds the worker where `npm start` builds the server', () => {
    expect(readFileSync(join(REPO_ROOT, 'scripts/build-if-needed.mjs'), 'utf8')).toContain(`'${ENTRY}'`);
    expect(existsSync(join(outDir, 'analysis-worker.mjs'))).toBe(true);
  });

  it("computes a take's report in its bundled worker", { timeout: 60_000 }, async () => {
    const { auth, tasks } = await demoStudent();
    let recordingId: number | undefined;
    for (const t of tasks) {
      const fd = new FormData();
      fd.append('duration_ms', '30000');
      fd.append('file', new Blob([new Uint8Array(makeWav(30_000))], { type: 'audio/wav' }), 'take.wav');
      const r = await fetch(`${url}/api/submissions/${t.id}/recordings`, { method: 'POST', headers: auth, body: fd });
      if (r.status === 201) {
        recordingId = ((await r.json()) as { id: number }).id;
        break;
      }
    }
    expect(recordingId, `no demo task took a recording: ${output}`).toBeDefined();
    const take = planTake({ seed: 3, makam: 'hicaz', notes: 40 });
    const track = synthTrack(take, 3);
    const frames = Math.min(track.f0.length, 1400);
    const stored = storeTrack({ hopMs: 20, f0: track.f0.slice(0, frames), onsetsMs: take.notes.map((n) => Math.round(n.startMs)).filter((ms) => ms < frames * 20) });
    const res = await fetch(`${url}/api/recordings/${recordingId}/analysis`, { method: 'PUT', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ track: stored }) });
    const body = (await res.json()) as { report?: { duration_ms: number } };
    expect(res.status, `${JSON.stringify(body)}\n${output}`).toBe(201);
    expect(body.report?.duration_ms).toBe(frames * 20);
    expect(proc.exitCode, output).toBeNull();
    expect(output).not.toMatch(/could not start/);
  });
});
