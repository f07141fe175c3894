/**
 * The baseline of the benchmark: a bare Fastify server (no auth, no zod, no hooks) that runs
 * exactly the SQL the real app runs for each call, through the same driver.
 *
 * At start it builds the real app in this process on a logging Drizzle instance, sends each call
 * of the plan once through `inject` and records the SQL and parameters that the call's handler
 * ran (the token lookup of the auth hook is left out: that is the overhead being measured).
 * Then it serves `GET /base/<name>` replaying those statements with the raw driver and sending
 * the rows as JSON, and `GET /base/ping` with no database at all.
 *
 * Environment: BENCH_PLAN (JSON file of {name, method, url, token}[]), BENCH_PORT,
 * BENCH_DATABASE_URL (PostgreSQL) or BENCH_PGDATA (a PGlite folder nobody else uses).
 * Writes what it captured to BENCH_INFO (JSON) and prints `BASELINE_READY <port>` when listening.
 */
import type { PGlite } from '@electric-sql/pglite';
import Fastify from 'fastify';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { openPglite, openPostgres, type Db } from '../server/db/client';
import { schema } from '../server/db/schema/index';

/** A call to capture; `email` signs in with BENCH_PASSWORD (the same for every bench account). */
export type PlanEntry = { name: string; method: 'GET'; url: string; email: string };
export type Captured = { text: string; params: unknown[] };
export type CaptureInfo = { name: string; status: number; queries: number; sql: string[]; explain?: string[] };

const isRead = (q: string) => /^\s*(select|with)\b/i.test(q);
const isAuth = (q: string) => /"tokens"/.test(q);

async function main() {
  const plan = JSON.parse(readFileSync(process.env.BENCH_PLAN ?? '', 'utf8')) as PlanEntry[];
  const port = Number(process.env.BENCH_PORT ?? 0);
  let sink: Captured[] | null = null;
  const logger = {
    logQuery(text: string, params: unknown[]) {
      sink?.push({ text, params });
    },
  };

  let exec: (q: Captured) => Promise<unknown[]>;
  let db: Db;
  let kind: 'postgres' | 'pglite';
  let close: () => Promise<void>;
  if (process.env.BENCH_DATABASE_URL) {
    const h = await openPostgres(process.env.BENCH_DATABASE_URL); // same pool size as the server
    const pool = h.pool!;
    db = drizzlePg(pool, { schema, logger }) as unknown as Db;
    exec = async (q) => (await pool.query(q.text, q.params as unknown[])).rows;
    kind = 'postgres';
    close = h.close;
  } else {
    const h = await openPglite(process.env.BENCH_PGDATA);
    const client = h.pglite!;
    // The server's client: a proxy to PGlite in its worker thread (server/db/pglite-proxy.ts).
    db = drizzlePglite(client as unknown as PGlite, { schema, logger }) as unknown as Db;
    exec = async (q) => (await client.query(q.text, q.params as unknown[])).rows;
    kind = 'pglite';
    close = h.close;
  }

  const dataDir = mkdtempSync(join(tmpdir(), 'uk-bench-base-'));
  const config = loadConfig({ DATA_DIR: dataDir, DEMO_SEED: 'false', LOG_LEVEL: 'silent', STATIC_DIR: join(dataDir, 'no-web') });
  const app = await buildApp({ config, db, dbKind: kind, mediaDir: join(dataDir, 'media'), secret: 'b'.repeat(40) }, { logger: false });
  const captured = new Map<string, Captured[]>();
  const info: CaptureInfo[] = [];
  const tokens = new Map<string, string>();
  for (const entry of plan) {
    let token = tokens.get(entry.email);
    if (!token) {
      const r = await app.inject({ method: 'POST', url: '/api/login', payload: { email: entry.email, password: process.env.BENCH_PASSWORD } });
      token = (r.json() as { token: string }).token;
      tokens.set(entry.email, token);
    }
    sink = [];
    const res = await app.inject({ method: entry.method, url: entry.url, headers: { authorization: `Bearer ${token}` } });
    const qs = sink.filter((q) => isRead(q.text) && !isAuth(q.text));
    sink = null;
    captured.set(entry.name, qs);
    info.push({ name: entry.name, status: res.statusCode, queries: qs.length, sql: qs.map((q) => q.text.replace(/\s+/g, ' ')) });
  }
  await app.close();
  if (process.env.BENCH_EXPLAIN === '1') {
    // EXPLAIN ANALYZE of each captured statement, as run (parameters bound), after one warm run.
    for (const i of info) {
      i.explain = [];
      for (const q of captured.get(i.name) ?? []) {
        await exec(q);
        const plan = (await exec({ text: `explain (analyze, buffers) ${q.text}`, params: q.params })) as Array<Record<string, string>>;
        i.explain.push(plan.map((r) => Object.values(r)[0]).join('\n'));
      }
    }
  }

  const base = Fastify({ logger: false });
  base.get('/base/ping', async () => ({ ok: true }));
  base.get<{ Params: { name: string } }>('/base/:name', async (req, reply) => {
    const qs = captured.get(req.params.name);
    if (!qs || qs.length === 0) return reply.code(404).send({ message: 'no captured SQL' });
    if (qs.length === 1) return exec(qs[0]!);
    const out: unknown[][] = [];
    for (const q of qs) out.push(await exec(q));
    return out;
  });
  const shutdown = async () => {
    await base.close();
    await close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown());
  process.on('SIGINT', () => void shutdown());
  await base.listen({ port, host: '127.0.0.1' });
  const addr = base.server.address();
  if (process.env.BENCH_INFO) writeFileSync(process.env.BENCH_INFO, JSON.stringify(info));
  console.log(`BASELINE_READY ${typeof addr === 'object' && addr ? addr.port : port}`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
