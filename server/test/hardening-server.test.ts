import { mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffPng } from '../modules/media/sample-files';
import { multipart } from './authz-world';
import { client, freshPgDatabase, startServer, stopServer, type Server } from './crash-helpers';

/**
 * Findings of the outside security test that need the real server, as `npm start` runs it: its
 * own process with a 128 MB heap, a real port on loopback (PGlite, or PostgreSQL with
 * TEST_DATABASE_URL). Text fields must not fill the heap (H1), deep JSON must not block it,
 * slow or stalled bodies must not hold connections (M2), one address gets a bounded number of
 * connections (M2). Small timeouts here; the defaults are 30 s (README, settings).
 */
const REQUEST_TIMEOUT_S = 1;
const IDLE_TIMEOUT_S = 5; // long enough that a busy test process never looks idle to the server
const MAX_CONNECTIONS = 12;

let server: Server;
let dataDir: string;
let pgDb: Awaited<ReturnType<typeof freshPgDatabase>>;
let token: string;
let host: string;
let port: number;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'uk-hardening-'));
  pgDb = await freshPgDatabase();
  server = await startServer(
    {
      DATA_DIR: dataDir,
      DEMO_SEED: 'true',
      REQUEST_TIMEOUT_SECONDS: String(REQUEST_TIMEOUT_S),
      IDLE_TIMEOUT_SECONDS: String(IDLE_TIMEOUT_S),
      MAX_CONNECTIONS_PER_IP: String(MAX_CONNECTIONS),
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    },
    90_000,
    ['--max-old-space-size=128'],
  );
  const u = new URL(server.url);
  host = u.hostname;
  port = Number(u.port);
  const r = await client(server.url).json<{ token: string }>('POST', '/api/login', { email: 'lehrer@example.com', password: 'demo1234' });
  expect(r.status).toBe(200);
  token = r.body.token;
}, 120_000);

afterAll(async () => {
  if (server) await stopServer(server, 'SIGKILL');
  await pgDb?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function alive(): Promise<void> {
  expect(server.proc.exitCode, server.output()).toBeNull();
  const h = await fetch(`${server.url}/api/health`);
  expect(h.status).toBe(200);
  expect(server.output()).not.toMatch(/heap out of memory|FATAL ERROR/i);
}

/** A raw connection from a loopback address of its own (127.0.0.x), so each test counts its own sockets. */
function rawSocket(localAddress: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host, port, localAddress });
    s.once('connect', () => resolve(s));
    s.once('error', reject);
  });
}

/** Resolves with what the server sent and how long it took until it closed the connection. */
function whenClosed(s: Socket, since = Date.now()): Promise<{ ms: number; data: string }> {
  let data = '';
  s.on('data', (d: Buffer) => (data += d.toString()));
  s.on('error', () => {});
  return new Promise((resolve) => {
    if (s.destroyed) resolve({ ms: Date.now() - since, data });
    s.once('close', () => resolve({ ms: Date.now() - since, data }));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('H1: text fields cannot fill the heap', () => {
  it('five parallel forms of 298 text fields of 64 KiB each are refused (413/422) and the server lives', async () => {
    const big = 'x'.repeat(64 * 1024);
    // built beforehand, so that sending is all the test process does while the five run
    const form = async (names: (i: number) => string) => {
      const fd = new FormData();
      fd.append('title', 'Speicher');
      for (let i = 0; i < 298; i++) fd.append(names(i), big);
      const res = new Response(fd);
      return { body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') ?? '' };
    };
    const shapes = [(i: number) => `tags[${i}]`, () => 'description', (i: number) => `feld_${i}`, (i: number) => `course_ids[${i}]`, () => 'tags'];
    const bodies = await Promise.all(shapes.map(form));
    expect(bodies[0]!.body.length).toBeGreaterThan(19_000_000);
    const started = Date.now();
    const results = await Promise.all(
      bodies.map(async ({ body, type }) => {
        const r = await fetch(`${server.url}/api/exercises`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body });
        return { status: r.status, body: (await r.json()) as { message: string } };
      }),
    );
    for (const r of results) {
      expect([413, 422]).toContain(r.status);
      expect(r.body.message).toBeTruthy();
    }
    expect(Date.now() - started).toBeLessThan(30_000);
    await alive();
    // and it still takes a real form
    const fd = new FormData();
    fd.append('title', 'Nach dem Angriff');
    fd.append('description', 'ü'.repeat(5000));
    const ok = await client(server.url, token).form<{ id: number }>('/api/exercises', fd);
    expect(ok.status).toBe(201);
  }, 90_000);

  it('deeply nested JSON is refused quickly: 1 MB of nested arrays (413), 60 KB of them (422)', async () => {
    for (const [size, status] of [
      [520_000, 413],
      [30_000, 422],
    ] as const) {
      const body = `${'['.repeat(size)}${']'.repeat(size)}`;
      const started = performance.now();
      const r = await fetch(`${server.url}/api/courses`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      const ms = performance.now() - started;
      expect(r.status, String(size)).toBe(status);
      // The statuses say where it was refused (the size limit, then the depth guard before
      // JSON.parse); the time only that no slow path was taken, with room for a loaded machine.
      expect(ms, String(size)).toBeLessThan(2000);
    }
    await alive();
  });
});

describe('M2: slow and stalled requests', () => {
  it('a body that stops after 10 of 100 announced bytes is closed within the request timeout (408)', async () => {
    const s = await rawSocket('127.0.0.3');
    const closed = whenClosed(s);
    s.write('POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":"');
    const { ms, data } = await closed;
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + 1500);
    expect(data).toMatch(/^HTTP\/1\.1 408/);
    expect(data).toContain('Die Anfrage kam nicht rechtzeitig an.');
  });

  it('headers that never finish are closed within the request timeout (408)', async () => {
    const s = await rawSocket('127.0.0.3');
    const closed = whenClosed(s);
    s.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    const { ms, data } = await closed;
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_S * 1000 + 1500);
    expect(data).toMatch(/^HTTP\/1\.1 408/);
  });

  it('an upload that stalls is closed once it has been idle for the idle timeout', async () => {
    const body = await multipart([['title', 'Stau'], ['media_files[0]', staffPng(200, 80), 'bild.png', 'image/png']]);
    const s = await rawSocket('127.0.0.4');
    const head = `POST /api/exercises HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\n\r\n`;
    s.write(head);
    s.write(body.payload.subarray(0, 200));
    const since = Date.now();
    const { ms } = await whenClosed(s, since);
    expect(ms).toBeGreaterThanOrEqual(IDLE_TIMEOUT_S * 1000 - 300);
    expect(ms).toBeLessThan(IDLE_TIMEOUT_S * 1000 + 2000);
  });

  it('an upload that keeps sending slowly but steadily is not cut, though it takes longer than both timeouts', async () => {
    const body = await multipart([['title', 'Langsam'], ['media_files[0]', staffPng(300, 120), 'langsam.png', 'image/png']]);
    const s = await rawSocket('127.0.0.5');
    const closed = whenClosed(s);
    s.write(
      `POST /api/exercises HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\nConnection: close\r\n\r\n`,
    );
    const steps = 20;
    const started = Date.now();
    const chunk = Math.ceil(body.payload.length / steps);
    for (let i = 0; i < steps; i++) {
      s.write(body.payload.subarray(i * chunk, (i + 1) * chunk));
      await sleep(400); // well inside the idle timeout, 8 s in all
    }
    const { data } = await closed;
    expect(Date.now() - started).toBeGreaterThan(Math.max(REQUEST_TIMEOUT_S, IDLE_TIMEOUT_S) * 1000);
    expect(data).toMatch(/^HTTP\/1\.1 201/);
  }, 30_000);

  it(`one address gets at most MAX_CONNECTIONS_PER_IP (${MAX_CONNECTIONS}) connections; the next is closed at once`, async () => {
    const open: Socket[] = [];
    for (let i = 0; i < MAX_CONNECTIONS; i++) open.push(await rawSocket('127.0.0.6'));
    for (const s of open) s.on('error', () => {});
    await sleep(100);
    const extra = await rawSocket('127.0.0.6');
    const { ms, data } = await whenClosed(extra);
    // Closed without an answer and before the request timeout, whose 408 would come with data.
    expect(ms).toBeLessThan(REQUEST_TIMEOUT_S * 1000);
    expect(data).toBe('');
    expect(open.filter((s) => s.destroyed)).toHaveLength(0);
    // another address is not affected, and a freed place can be taken again
    const other = await rawSocket('127.0.0.7');
    other.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect((await whenClosed(other)).data).toMatch(/^HTTP\/1\.1 200/);
    open.pop()!.destroy();
    await sleep(100);
    const again = await rawSocket('127.0.0.6');
    again.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
    expect((await whenClosed(again)).data).toMatch(/^HTTP\/1\.1 200/);
    for (const s of open) s.destroy();
    await alive();
  });
});
