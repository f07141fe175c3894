/**
 * `npm run bench -- --processes 3` (docs/decisions/0013-many-processes.md): the read calls of a school day through Debian's
 * haproxy in front of N server processes on one PostgreSQL database, beside the same calls
 * against one process, on this machine. Each call runs `--duration` seconds (default 8) with
 * `--connections` (default 20) connections; reported: requests per second and p99.
 * On 2 cores N processes cannot beat one by much (they share the cores with PostgreSQL and the
 * load generator); the figure shows what the balancer costs and that nothing breaks.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrateDb, openPostgres } from '../server/db/client';
import { startServer, stopServer, type Server } from '../server/test/crash-helpers';
import { startHaproxy } from './haproxy';
import { load, type LoadResult } from './run';
import { BENCH_PASSWORD, seedScale, studentEmail, teacherEmail } from './seed-scale';

export type ProcessesResult = {
  processes: number;
  rows: Array<{ call: string; one: LoadResult; many: LoadResult }>;
};

const CALLS: Array<{ name: string; path: string; as: 'teacher' | 'student' }> = [
  { name: 'teacher: students', path: '/api/students', as: 'teacher' },
  { name: 'teacher: dashboard', path: '/api/dashboard', as: 'teacher' },
  { name: 'teacher: exercises', path: '/api/exercises', as: 'teacher' },
  { name: 'student: tasks', path: '/api/submissions?status=open,overdue&order=due&limit=20', as: 'student' },
  { name: 'student: metrics', path: '/api/my-metrics', as: 'student' },
];

async function token(base: string, email: string): Promise<string> {
  const r = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: BENCH_PASSWORD }) });
  if (!r.ok) throw new Error(`sign-in ${email}: ${r.status}`);
  return ((await r.json()) as { token: string }).token;
}

async function measure(base: string, tokens: Record<'teacher' | 'student', string>, o: { duration: number; connections: number }) {
  const out: Record<string, LoadResult> = {};
  for (const c of CALLS) {
    // one second to warm the caches, then the measured run
    await load({ url: `${base}${c.path}`, headers: { authorization: `Bearer ${tokens[c.as]}` }, connections: o.connections, duration: 1 });
    out[c.name] = await load({ url: `${base}${c.path}`, headers: { authorization: `Bearer ${tokens[c.as]}` }, connections: o.connections, duration: o.duration });
  }
  return out;
}

export async function runProcessesBench(o: { processes: number; pgUrl?: string; duration?: number; connections?: number; log: (m: string) => void }): Promise<ProcessesResult> {
  const adminUrl = o.pgUrl ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `uk_procs_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const dbUrl = u.toString();
  const dataDir = mkdtempSync(join(tmpdir(), 'uk-procs-'));
  const servers: Server[] = [];
  let balancer: Awaited<ReturnType<typeof startHaproxy>> | null = null;
  try {
    const h = await openPostgres(dbUrl, 2);
    await migrateDb(h);
    await seedScale(h.db, { teachers: 4, students: 120, bigTeacherStudents: 40, pastDays: 30, futureDays: 14, taskRate: 0.6, exercisesPerTeacher: 20, coursesPerTeacher: 3 });
    await h.close();
    const env = { DATABASE_URL: dbUrl, DATA_DIR: dataDir, DEMO_SEED: 'false', APP_SECRET: randomBytes(32).toString('base64url') };
    servers.push(await startServer(env));
    const tokens = { teacher: await token(servers[0]!.url, teacherEmail(1)), student: await token(servers[0]!.url, studentEmail(1)) };
    const opts = { duration: o.duration ?? 8, connections: o.connections ?? 20 };
    o.log(`processes bench: one process, ${CALLS.length} read calls × ${opts.duration} s, ${opts.connections} connections`);
    const one = await measure(servers[0]!.url, tokens, opts);
    for (let i = 1; i < o.processes; i++) servers.push(await startServer(env));
    balancer = await startHaproxy(servers.map((s) => s.url));
    o.log(`processes bench: ${o.processes} processes behind haproxy`);
    const many = await measure(balancer.url, tokens, opts);
    return { processes: o.processes, rows: CALLS.map((c) => ({ call: c.name, one: one[c.name]!, many: many[c.name]! })) };
  } finally {
    if (balancer) await balancer.stop();
    for (const s of servers) await stopServer(s);
    rmSync(dataDir, { recursive: true, force: true });
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a.end();
  }
}

export function formatProcesses(r: ProcessesResult): string {
  const pad = (s: string, n: number) => s.padEnd(n);
  const lines = [`\n== read calls: one process beside ${r.processes} processes behind haproxy (one PostgreSQL, this machine)`];
  lines.push(`   ${pad('call', 22)} ${'1 proc req/s'.padStart(13)} ${'p99 ms'.padStart(8)}   ${`${r.processes} procs req/s`.padStart(14)} ${'p99 ms'.padStart(8)}  errors`);
  for (const x of r.rows)
    lines.push(
      `   ${pad(x.call, 22)} ${String(x.one.rps).padStart(13)} ${String(x.one.p99).padStart(8)}   ${String(x.many.rps).padStart(14)} ${String(x.many.p99).padStart(8)}  ${x.one.errors + x.one.non2xx + x.many.errors + x.many.non2xx}`,
    );
  return lines.join('\n');
}
