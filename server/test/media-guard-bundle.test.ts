import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_GUARD_TEXT } from '../lib/media-guard';
import { makeWav } from '../modules/recordings/sample-recordings';
import { REPO_ROOT, freePort } from './crash-helpers';
import { nestedClustersWebm, nestedMoovMp4 } from './hostile-media';
import { spawn, type ChildProcess } from 'node:child_process';

/**
 * The media guard in the production form (docs/decisions/media-parser-guard.md): the server
 * bundled by esbuild as scripts/build-if-needed.mjs does, run by plain node with the 128 MB heap
 * of `npm start`. Its worker thread is found beside the bundle (../../server/lib/), crafted files
 * are refused, and the process is still there to take a normal recording.
 */
const outDir = join(REPO_ROOT, 'dist', `guard-test-${randomBytes(4).toString('hex')}`);
const dataDir = mkdtempSync(join(tmpdir(), 'media-guard-bundle-'));
let proc: ChildProcess;
let url: string;
let output = '';

beforeAll(async () => {
  // the same options as scripts/build-if-needed.mjs, into a folder two levels below the project like dist/server
  await build({
    entryPoints: [join(REPO_ROOT, 'server/main.ts')],
    bundle: true,
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
  proc = spawn(process.execPath, ['--max-old-space-size=128', join(outDir, 'main.mjs')], {
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

describe('the bundled server (node dist/…/main.mjs, 128 MB heap)', () => {
  it('refuses crafted containers with 422 and still takes a normal recording', { timeout: 60_000 }, async () => {
    const login = await fetch(`${url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ayse@example.com', password: 'demo1234' }),
    });
    expect(login.status, output).toBe(200);
    const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
    const tasks = (await (await fetch(`${url}/api/submissions?status=open`, { headers: auth })).json()) as Array<{ id: number }>;
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
