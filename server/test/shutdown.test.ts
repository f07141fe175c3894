import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, stopServer, type Server } from './crash-helpers';

/**
 * Graceful shutdown (docs/deploy.md, decision 0013): the real server as its own process. On
 * SIGTERM /api/health answers 503 at once while other calls are still served for
 * SHUTDOWN_DRAIN_SECONDS; a request in flight when the server stops taking connections still gets
 * its answer; then the process exits with 0.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'uk-shutdown-'));
let server: Server | null = null;
afterAll(async () => {
  if (server) await stopServer(server, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('SIGTERM', () => {
  it('drains: health 503 while the rest is served, the request in flight is answered, exit 0', async () => {
    server = await startServer({ DATA_DIR: dataDir, DEMO_SEED: 'false', SHUTDOWN_DRAIN_SECONDS: '1' });
    const s = server;
    const { port } = new URL(s.url);

    // A sign-in whose body is still arriving when the server stops taking connections.
    const body = JSON.stringify({ email: 'niemand@example.com', password: 'falsch-falsch' });
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((r) => socket.once('connect', () => r()));
    let answer = '';
    socket.on('data', (d: Buffer) => (answer += d.toString()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.write(`POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
    socket.write(body.slice(0, 10));

    s.proc.kill('SIGTERM');
    const start = Date.now();
    let health = 0;
    while (Date.now() - start < 500) {
      health = (await fetch(`${s.url}/api/health`)).status;
      if (health === 503) break;
    }
    expect(health).toBe(503);
    expect((await fetch(`${s.url}/api/health`)).headers.get('cache-control')).toBe('no-store');
    // still serving everything else during the drain
    expect((await fetch(`${s.url}/api/docs`)).status).toBe(200);

    // after the drain the listener is closed: new connections are refused …
    await new Promise((r) => setTimeout(r, 1300));
    await expect(fetch(`${s.url}/api/docs`)).rejects.toThrow();
    // … but the request in flight finishes
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(await s.exited).toBe(0);
    server = null;
  });
});
