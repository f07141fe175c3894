import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The real server as an operator runs it: its own process, a real port on loopback. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export type Server = { proc: ChildProcess; url: string; pid: number; output: () => string; exited: Promise<number | null> };

/**
 * Starts `server/main.ts` in its own node process (node --import tsx: one process, so its pid is
 * the server's and kill -9 hits the server itself) and waits until /api/health answers.
 * `nodeArgs` go to node itself (`--max-old-space-size=128`, as `npm start` runs it).
 */
export async function startServer(env: Record<string, string>, timeoutMs = 90_000, nodeArgs: string[] = []): Promise<Server> {
  // env.PORT: a given port (a process restarted behind a load balancer); otherwise a free one.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  let out = '';
  const proc = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'server/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', STATIC_DIR: join(REPO_ROOT, 'no-web-build'), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let dead = false;
  void exited.then(() => (dead = true));
  while (Date.now() < deadline) {
    if (dead) throw new Error(`server exited during start:\n${out}`);
    try {
      const r = await fetch(`${url}/api/health`);
      if (r.ok) return { proc, url, pid: proc.pid!, output: () => out, exited };
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  proc.kill('SIGKILL');
  throw new Error(`server did not answer within ${timeoutMs} ms:\n${out}`);
}

export async function stopServer(s: Server, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (s.proc.exitCode !== null || s.proc.signalCode !== null) return;
  s.proc.kill(signal);
  await s.exited;
}

/** A fresh PostgreSQL database for one test file (when TEST_DATABASE_URL is set). */
export async function freshPgDatabase(): Promise<{ url: string; drop: () => Promise<void> } | null> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return null;
  const name = `uk_crash_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const a = new pg.Client({ connectionString: base });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

/** Every file under a folder, relative, with its size. */
export function listFiles(root: string): Map<string, number> {
  const out = new Map<string, number>();
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(relative(root, p), statSync(p).size);
    }
  };
  walk(root);
  return out;
}

/** A small JSON API client for one caller. */
export function client(base: string, token?: string) {
  const headers = (extra: Record<string, string> = {}) => ({ ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra });
  return {
    async json<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
      const r = await fetch(`${base}${path}`, {
        method,
        headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await r.text();
      return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
    },
    async form<T = unknown>(path: string, fd: FormData): Promise<{ status: number; body: T }> {
      const r = await fetch(`${base}${path}`, { method: 'POST', headers: headers(), body: fd });
      const text = await r.text();
      return { status: r.status, body: (text ? JSON.parse(text) : null) as T };
    },
  };
}
