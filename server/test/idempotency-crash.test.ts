import { request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeWav } from '../modules/recordings/sample-recordings';
import { multipart } from './authz-world';
import { client, freshPgDatabase, startServer, stopServer, type Server } from './crash-helpers';

/**
 * A reservation does not outlive the process that held it (docs/decisions/idempotency-and-offline-sessions.md,
 * "After a crash"): the real server is killed with -9 while a recording upload with an
 * Idempotency-Key is in flight (the key reserved, the body still arriving); after the restart the
 * phone's queue sends the same take with the same key and it is delivered within seconds — on
 * PGlite at once, on PostgreSQL (TEST_DATABASE_URL) once the dead process's lease ran out.
 */

let dataDir: string;
let pgDb: Awaited<ReturnType<typeof freshPgDatabase>>;
let env: Record<string, string>;
let server: Server | null = null;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'uk-idem-crash-'));
  pgDb = await freshPgDatabase();
  env = { DATA_DIR: dataDir, DEMO_SEED: 'true', ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) };
});
afterAll(async () => {
  if (server) await stopServer(server, 'SIGKILL');
  await pgDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

it('delivers a take after a crash with the key its first try reserved, within seconds of the restart', { timeout: 240_000 }, async () => {
  server = await startServer(env);
  const login = await client(server.url).json<{ token: string }>('POST', '/api/login', { email: 'ayse@example.com', password: 'demo1234' });
  expect(login.status).toBe(200);
  const ayse = client(server.url, login.body.token);
  const tasks = (await ayse.json<Array<{ id: number; status: string }>>('GET', '/api/submissions')).body.filter((x) => x.status === 'open' || x.status === 'overdue');
  const taskId = tasks[0]!.id;
  const countTakes = async (base: string) => (await client(base, login.body.token).json<{ data: unknown[] }>('GET', `/api/submissions/${taskId}/recordings`)).body.data.length;
  const before = await countTakes(server.url);
  const body = await multipart([['file', makeWav(2000), 'aufnahme.wav', 'audio/wav']]);
  const headers = { authorization: `Bearer ${login.body.token}`, ...body.headers, 'idempotency-key': 'take-crash-1' };
  const send = async (base: string) => {
    const r = await fetch(`${base}/api/submissions/${taskId}/recordings`, { method: 'POST', headers, body: body.payload });
    return { status: r.status, text: await r.text() };
  };

  // The first try: headers and half the body, then the connection stays open (the phone on a bad line).
  const url = new URL(`${server.url}/api/submissions/${taskId}/recordings`);
  const slow = request({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...headers, 'content-length': String(body.payload.length) } });
  slow.on('error', () => {});
  slow.write(body.payload.subarray(0, Math.floor(body.payload.length / 2)));
  // Its reservation is made once its headers are read: give a loaded machine time for that before
  // the repeat, which would otherwise reserve the key itself and be stored (201).
  await new Promise((r) => setTimeout(r, 1500));
  // The key is reserved: a repeat meanwhile is told to wait.
  let busy = 0;
  for (let i = 0; i < 100 && busy !== 409; i++) {
    busy = (await send(server.url)).status;
    if (busy !== 409) await new Promise((r) => setTimeout(r, 50));
  }
  expect(busy).toBe(409);

  process.kill(server.pid, 'SIGKILL');
  await server.exited;
  slow.destroy();
  server = await startServer(env);

  // The outbox retries a 409 with Retry-After; it must get through within seconds, not an hour.
  const restarted = Date.now();
  let res = await send(server.url);
  let refused = 0;
  while (res.status === 409 && Date.now() - restarted < 30_000) {
    refused++;
    await new Promise((r) => setTimeout(r, 1000));
    res = await send(server.url);
  }
  const waited = Date.now() - restarted;
  expect(res.status, res.text).toBe(201);
  // PGlite: the first send after the restart goes through; PostgreSQL: within the lease (10 s) and a retry
  if (pgDb) expect(waited).toBeLessThan(15_000);
  else expect(refused).toBe(0);
  // exactly once: the repeat is the stored answer, and the task has one recording
  const again = await send(server.url);
  expect(again.status).toBe(201);
  expect(again.text).toBe(res.text);
  expect(await countTakes(server.url)).toBe(before + 1);
  console.log(`idempotency after a crash (${pgDb ? 'postgres' : 'pglite'}): delivered ${waited} ms after the restart, ${refused} times 409 before`);
  await stopServer(server);
  server = null;
});
