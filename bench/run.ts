/**
 * `npm run bench`: the budgets of DESIGN.md measured on the real server.
 *
 *   npm run bench                         PostgreSQL at school scale (uk_bench, seeded when empty) and PGlite small
 *   npm run bench -- --db pg|pglite       one database only
 *   npm run bench -- --seed               drop and re-seed uk_bench first
 *   npm run bench -- --duration 5 --connections 20 --only tasks,calendar --no-startup --no-bundle
 *   npm run bench -- --no-offline        without the phone-profile reload of the task list (docs/decisions/offline-practice.md)
 *   npm run bench -- --processes 3       only: read calls through haproxy in front of 3 processes beside one (docs/decisions/0013-many-processes.md)
 *   npm run bench -- --only beside        requests that need no database beside a heavy read (the overview)
 *   npm run bench -- --only inbox,inbox-count,upload   the teacher's recordings inbox; server RSS during a 50 MiB upload
 *   npm run bench -- --server tsx         the server through tsx (as npm run dev) instead of compiled (as npm start)
 *   npm run bench -- --explain            EXPLAIN (ANALYZE, BUFFERS) of every captured statement into the JSON
 *   npm run bench -- --lighthouse         also Lighthouse (mobile) on the six pages (bench/lighthouse.ts)
 *   npm run bench -- --listening          only: the listening analysis (bench/listening.ts, docs/decisions/listening.md);
 *                                         --listening-tracks N for the CLI part (default 1000); --no-listening skips it in a full run
 *   npm run bench -- --reminders          only: the practice reminder run for 1,000 students, three runs at once (bench/reminders.ts)
 *
 * The server runs as a child process (server/main.ts, so its RSS is its own) on a loopback port;
 * beside it a baseline process (bench/baseline-server.ts) serves the same SQL through the same
 * driver from a bare Fastify route. autocannon drives both, one call after the other, so every
 * figure has its own ceiling measured in the same minute. Results: a table on the terminal and
 * JSON under bench/results/.
 */
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { RECORDING_LIMITS } from '@contract/recordings';
import { UPLOAD_MAX_BYTES } from '@contract/constants';
import { openPostgres, rows, type Db } from '../server/db/client';
import { todayInZone } from '../server/lib/time';
import { staffPng } from '../server/modules/media/sample-files';
import { measureUploadRss, paddedChunks, postForm, wavChunks, type UploadRss } from './upload';
import type { PlanEntry, CaptureInfo } from './baseline-server';
import {
  BENCH_PASSWORD,
  DEFAULT_PG_BENCH_URL,
  PRESETS,
  preparePglite,
  preparePostgres,
  summarize,
  type DataSummary,
  type PresetName,
} from './seed-scale';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TZ = 'Europe/Berlin';

// ---------------------------------------------------------------------------------------------
// Options and results

export type BenchOptions = {
  db: 'postgres' | 'pglite';
  /** PostgreSQL database of the run (created and seeded when missing or empty). */
  pgUrl?: string;
  /** Data preset: PostgreSQL 'school', PGlite 'small' by default. */
  preset?: PresetName;
  /** PostgreSQL: drop and re-seed the database first. */
  reseed?: boolean;
  /** Seconds of load per call (and as much again on the baseline). */
  durationSec?: number;
  warmupSec?: number;
  connections?: number;
  /** Requests sent one after the other (no concurrency) for the unloaded latency. */
  seqRequests?: number;
  /** How often the 200-student daily assignment is posted. */
  assignRepeats?: number;
  /** 'bundle' (default: compiled with esbuild and run by plain node, as `npm start` does) or 'tsx' (as `npm run dev`). */
  server?: ServerMode;
  /** Sign-ins one after the other (argon2id, reported apart); default 10. */
  signIns?: number;
  /** Measure start to first answer (embedded database) – PGlite runs only. */
  startup?: boolean;
  /** Bytes of the recording upload (default 50 MiB less 4 KiB) and of the exercise media upload (20 MiB less 4 KiB). */
  uploadBytes?: number;
  mediaUploadBytes?: number;
  /** Each upload is sent this often (default 3); the run with the largest RSS growth is reported. */
  uploadRuns?: number;
  /** Only these calls (names of CALLS, or beside, upload, practice, assign); default all. */
  only?: string[];
  /** EXPLAIN ANALYZE every captured statement (plans go into the JSON, timings into the log). */
  explain?: boolean;
  /** Where JSON results go; null: none. */
  resultsDir?: string | null;
  log?: (msg: string) => void;
};

export type Budget = { what: string; limit: string; value: string; ok: boolean | null };

export type CallResult = {
  name: string;
  label: string;
  request: string;
  status: 'ok' | 'skipped';
  note?: string;
  rps?: number;
  p50?: number;
  p99?: number;
  seq_p50?: number;
  seq_p99?: number;
  non2xx?: number;
  errors?: number;
  bytes?: number;
  rss_max_mb?: number;
  baseline?: { rps: number; p50: number; p99: number; queries: number; status: number };
  sql?: string[];
  explain?: string[];
  ratio?: number;
  /** Cached routes: the same load with `Cache-Control: no-cache`, every answer from the database. */
  cold?: { rps: number; p50: number; p99: number };
};

export type BenchReport = {
  db: 'postgres' | 'pglite';
  server: ServerMode;
  preset: PresetName;
  started_at: string;
  finished_at?: string;
  machine: { cpus: number; load_before: number[]; load_after?: number[]; node: string; uptime_note?: string };
  options: { durationSec: number; warmupSec: number; connections: number; seqRequests: number };
  data: DataSummary & { seed_ms?: number };
  server_start_ms: number;
  rss_idle_mb?: number;
  rss_max_mb?: number;
  bare_fastify?: { rps: number; p50: number; p99: number };
  calls: CallResult[];
  sign_in?: { seq_p50: number; seq_p99: number; rps: number; p50: number; p99: number; n: number };
  assign?: { students: number; rows: number; runs_ms: number[]; median_ms: number; status?: number; note?: string };
  beside?: BesideResult;
  /** Server RSS while one large upload streams in (DESIGN.md: ≤ 16 MB growth). */
  uploads?: UploadRss[];
  startup?: StartupResult;
  budgets: Budget[];
};

/**
 * DESIGN.md: a request that needs no database, while the embedded database runs a heavy read, is
 * not delayed by it. Small probes (one connection each) alone, then while `connections`
 * connections load a heavy read.
 */
export type BesideResult = {
  heavy: string;
  heavy_rps: number;
  heavy_p99: number;
  probes: Array<{ name: string; request: string; needs_db: boolean; alone_p50: number; alone_p99: number; p50: number; p99: number; n: number; non2xx: number }>;
};

export type StartupResult = { fresh_ms: number[]; demo_first_ms?: number; demo_restart_ms: number[]; bench_data_ms?: number[] };

// ---------------------------------------------------------------------------------------------
// Processes

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => res(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['DATABASE_URL', 'TEST_DATABASE_URL', 'APP_SECRET', 'PORT', 'DATA_DIR', 'STATIC_DIR', 'NODE_OPTIONS']) delete env[k];
  return { ...env, ...extra };
}

export type Child = { proc: ChildProcess; pid: number; output: () => string; stop: () => Promise<void> };

/**
 * The server compiled as `npm start` runs it, or through tsx as `npm run dev` does. Compiled: one ESM file built
 * with esbuild (packages external) at the same depth below a folder that links node_modules,
 * drizzle and package.json, so the server's relative paths resolve as in the work tree.
 */
export type ServerMode = 'tsx' | 'bundle';

export function serverBundle(): string {
  const dir = join(tmpdir(), 'uk-bench-server');
  // server/db/client.ts finds ../../drizzle (and the database worker ../../server/db/pglite-worker.mjs)
  // from its own file: the bundle sits two folders deep.
  const out = join(dir, 'a', 'server', 'main.mjs');
  mkdirSync(join(dir, 'a', 'server'), { recursive: true });
  for (const name of ['node_modules', 'drizzle', 'package.json', 'server']) {
    const link = join(dir, name);
    rmSync(link, { force: true, recursive: false });
    symlinkSync(join(ROOT, name), link);
  }
  const r = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'esbuild'),
    // the analysis worker beside main.mjs, as scripts/build-if-needed.mjs builds it for `npm start`
    ['server/main.ts', 'analysis-worker=server/modules/recordings/analysis-worker.ts', '--bundle', '--splitting', '--platform=node', '--format=esm', '--packages=external', `--outdir=${dirname(out)}`, '--out-extension:.js=.mjs', '--log-level=warning'],
    { cwd: ROOT, stdio: 'inherit', timeout: 120_000 },
  );
  if (r.status !== 0) throw new Error('esbuild of server/main.ts and its analysis worker failed');
  return out;
}

/**
 * The Node.js flags `npm start` gives the server (package.json), so the bench measures the same
 * process; `BENCH_NODE_FLAGS` (space-separated) replaces them, to measure a change before it goes
 * into `npm start`.
 */
export function startNodeFlags(): string[] {
  const override = process.env.BENCH_NODE_FLAGS;
  if (override !== undefined) return override.split(/\s+/).filter(Boolean);
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start ?? '';
  const m = /\bnode((?:\s+--[\w-]+(?:=\S+)?)*)\s+dist\/server\/main\.mjs/.exec(start);
  return m?.[1]?.trim().split(/\s+/).filter(Boolean) ?? [];
}

function spawnTs(script: string, env: NodeJS.ProcessEnv): Child {
  const args = script.endsWith('.mjs') ? [...startNodeFlags(), script] : ['--import', 'tsx', script];
  const proc = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => {
    out = (out + d.toString()).slice(-8000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  return {
    proc,
    pid: proc.pid ?? -1,
    output: () => out,
    stop: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      const t = setTimeout(() => proc.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(t);
    },
  };
}

/** Starts server/main.ts; resolves when /api/health answers 200, with the time it took. */
export async function startServer(env: Record<string, string>, timeoutMs = 90_000, entry = 'server/main.ts'): Promise<{ child: Child; port: number; startMs: number }> {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawnTs(entry, cleanEnv({ HOST: '127.0.0.1', PORT: String(port), DEMO_SEED: 'false', LOG_LEVEL: 'warn', APP_TIMEZONE: TZ, ...env }));
  for (;;) {
    if (child.proc.exitCode !== null) throw new Error(`server exited (${child.proc.exitCode}):\n${child.output()}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (r.status === 200) break;
    } catch {
      // not listening yet
    }
    if (performance.now() - t0 > timeoutMs) {
      await child.stop();
      throw new Error(`server did not answer within ${timeoutMs} ms:\n${child.output()}`);
    }
    await sleep(10);
  }
  return { child, port, startMs: Math.round(performance.now() - t0) };
}

async function startBaseline(env: Record<string, string>, timeoutMs = 300_000): Promise<{ child: Child; port: number; info: CaptureInfo[] }> {
  const port = await freePort();
  const infoFile = join(mkdtempSync(join(tmpdir(), 'uk-bench-info-')), 'info.json');
  const child = spawnTs('bench/baseline-server.ts', cleanEnv({ BENCH_PORT: String(port), BENCH_INFO: infoFile, ...env }));
  const t0 = Date.now();
  for (;;) {
    if (/BASELINE_READY \d+/.test(child.output())) {
      const info = JSON.parse(readFileSync(infoFile, 'utf8')) as CaptureInfo[];
      rmSync(join(infoFile, '..'), { recursive: true, force: true });
      return { child, port, info };
    }
    if (child.proc.exitCode !== null) throw new Error(`baseline exited (${child.proc.exitCode}):\n${child.output()}`);
    if (Date.now() - t0 > timeoutMs) {
      await child.stop();
      throw new Error(`baseline not ready within ${timeoutMs} ms:\n${child.output()}`);
    }
    await sleep(50);
  }
}

/** VmRSS of a process in MB, sampled. */
export function rssSampler(pid: number, everyMs = 100) {
  let max = 0;
  let last = 0;
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m?.[1]) {
        last = Number(m[1]) / 1024;
        max = Math.max(max, last);
      }
    } catch {
      // process gone
    }
  };
  read();
  const timer = setInterval(read, everyMs);
  timer.unref();
  let windowMax = 0;
  return {
    now: () => (read(), last),
    max: () => max,
    /** Starts a window; the returned function gives the window's maximum. */
    window: () => {
      windowMax = last;
      const t = setInterval(() => (windowMax = Math.max(windowMax, last)), everyMs);
      t.unref();
      return () => {
        clearInterval(t);
        return Math.max(windowMax, last);
      };
    },
    stop: () => clearInterval(timer),
  };
}

// ---------------------------------------------------------------------------------------------
// Load

type LoadOpts = {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  duration?: number;
  amount?: number;
  requests?: autocannon.Request[];
};

export type LoadResult = { rps: number; p50: number; p99: number; non2xx: number; errors: number; total: number; bytes: number };

export async function load(o: LoadOpts): Promise<LoadResult> {
  const r = await autocannon({
    url: o.url,
    method: o.method ?? 'GET',
    headers: o.headers,
    body: o.body,
    connections: o.connections,
    ...(o.amount ? { amount: o.amount } : { duration: o.duration ?? 1 }),
    ...(o.requests ? { requests: o.requests } : {}),
    timeout: 30,
  });
  const total = r.requests.total;
  return {
    rps: Math.round(o.amount ? total / Math.max(r.duration, 0.001) : r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    total,
    bytes: total ? Math.round(r.throughput.total / total) : 0,
  };
}

/**
 * Waits until a server has worked off the requests autocannon left in flight when it stopped
 * (a heavy call leaves up to `connections` of them): /api/health, or /base/ping, answers fast
 * twice in a row. Without this the next call would be measured against the last one's rest.
 */
export async function drain(url: string, maxMs = 30_000): Promise<void> {
  const t0 = performance.now();
  let fast = 0;
  while (fast < 2 && performance.now() - t0 < maxMs) {
    const s = performance.now();
    try {
      await (await fetch(url)).arrayBuffer();
    } catch {
      // refused while busy: try again
    }
    fast = performance.now() - s < 15 ? fast + 1 : 0;
    if (fast < 2) await sleep(20);
  }
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function login(base: string, email: string): Promise<{ token: string; id: number; ms: number }> {
  const t0 = performance.now();
  const r = await fetch(`${base}/api/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: BENCH_PASSWORD }) });
  const ms = performance.now() - t0;
  if (r.status !== 200) throw new Error(`login ${email}: HTTP ${r.status} ${await r.text()}`);
  const j = (await r.json()) as { token: string; user: { id: number } };
  return { token: j.token, id: j.user.id, ms };
}

// ---------------------------------------------------------------------------------------------
// The subjects of the measurement, read from the database before the server holds it

export type Subjects = {
  today: string;
  teacherEmail: string;
  teacherId: number;
  studentEmail: string;
  studentId: number;
  taskId: number;
  /** A task of the student that takes recordings (not expired, none yet), for the upload. */
  uploadTaskId: number;
  exerciseId: number;
  teacherStudentIds: number[];
  /** Open, unexpired tasks of a few of the teacher's students, for start/stop. */
  practice: Array<{ email: string; submissionId: number }>;
  calendarStart: string;
  calendarEnd: string;
};

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** FullCalendar's month grid: Monday on or before the 1st, 6 weeks. */
export function monthGrid(today: string): { start: string; end: string } {
  const first = `${today.slice(0, 8)}01`;
  const dow = new Date(`${first}T12:00:00Z`).getUTCDay(); // 0 Sunday
  const start = addDays(first, -((dow + 6) % 7));
  return { start, end: addDays(start, 42) };
}

export async function discover(db: Db): Promise<Subjects> {
  const today = todayInZone(TZ);
  const [t] = await rows<{ id: number; email: string }>(db, sql`select id, email from users where role = 'teacher' order by id limit 1`);
  if (!t) throw new Error('no teacher in the bench database');
  const students = await rows<{ id: number; email: string }>(db, sql`select id, email from users where teacher_id = ${t.id} order by id`);
  const s = students[0];
  if (!s) throw new Error('the bench teacher has no students');
  const [task] = await rows<{ id: number }>(
    db,
    sql`select s.id from submissions s join media_files m on m.exercise_id = s.exercise_id
        where s.student_id = ${s.id} and s.due_date < ${today}::date order by s.due_date desc limit 1`,
  );
  const [up] = await rows<{ id: number }>(
    db,
    sql`select s.id from submissions s where s.student_id = ${s.id} and (s.expiration_date is null or s.expiration_date >= ${today}::date)
        and not exists (select 1 from recordings r where r.submission_id = s.id) order by s.due_date desc, s.id limit 1`,
  );
  const [ex] = await rows<{ id: number }>(db, sql`select id from exercises where teacher_id = ${t.id} and deleted_at is null order by id limit 1`);
  const practice = await rows<{ email: string; submissionId: number }>(
    db,
    sql`select u.email, x.id as "submissionId" from (select id, email from users where teacher_id = ${t.id} order by id limit 10) u
        cross join lateral (
          select s.id from submissions s where s.student_id = u.id and s.completed_at is null and s.due_date >= ${today}::date
            and (s.expiration_date is null or s.expiration_date >= ${today}::date)
            and not exists (select 1 from practice_sessions p where p.submission_id = s.id and p.ended_at is null)
          order by s.due_date limit 3) x`,
  );
  const grid = monthGrid(today);
  return {
    today,
    teacherEmail: t.email,
    teacherId: t.id,
    studentEmail: s.email,
    studentId: s.id,
    taskId: task?.id ?? 0,
    uploadTaskId: up?.id ?? 0,
    exerciseId: ex?.id ?? 0,
    teacherStudentIds: students.map((x) => x.id),
    practice,
    calendarStart: grid.start,
    calendarEnd: grid.end,
  };
}

// ---------------------------------------------------------------------------------------------
// The calls

type CallDef = {
  name: string;
  label: string;
  who: 'teacher' | 'student';
  path: (s: Subjects) => string;
  /** Which budget its unloaded or loaded latency answers to. */
  kind: 'list' | 'metrics' | 'calendar' | 'read';
  /** Its route may answer from the server's read cache (server/lib/read-cache.ts): also measured cold. */
  cached?: boolean;
};

export const CALLS: CallDef[] = [
  { name: 'user', label: 'current user (auth only)', who: 'student', path: () => '/api/user', kind: 'read' },
  // The task list screen asks for its counts and then pages of 50 in the order it shows.
  { name: 'tasks', label: 'task list of a student (page of 50)', who: 'student', path: () => '/api/submissions?order=work&limit=50&language=de', kind: 'list' , cached: true },
  { name: 'tasks-page3', label: 'task list, third page', who: 'student', path: () => '/api/submissions?order=work&limit=50&offset=100&language=de', kind: 'list' , cached: true },
  { name: 'task-counts', label: 'task counts of a student', who: 'student', path: () => '/api/submissions/counts?language=de', kind: 'read' , cached: true },
  { name: 'tasks-open', label: 'next open tasks (dashboard)', who: 'student', path: () => '/api/submissions?status=open&limit=5&language=de', kind: 'list' , cached: true },
  { name: 'tasks-all', label: 'every task of a student (3 years; no screen asks)', who: 'student', path: () => '/api/submissions?language=de', kind: 'read' , cached: true },
  { name: 'task-detail', label: 'task detail', who: 'student', path: (s) => `/api/submissions/${s.taskId}?language=de`, kind: 'read' },
  { name: 'sessions', label: 'practice sessions of a task', who: 'student', path: (s) => `/api/submissions/${s.taskId}/practice-sessions`, kind: 'list' },
  { name: 'my-metrics', label: 'metrics of a student (own)', who: 'student', path: () => '/api/my-metrics?language=de', kind: 'metrics' },
  { name: 'calendar', label: 'calendar month, teacher', who: 'teacher', path: (s) => `/api/calendar-events?start=${s.calendarStart}&end=${s.calendarEnd}&language=de`, kind: 'calendar' , cached: true },
  { name: 'calendar-student', label: 'calendar month, student', who: 'student', path: (s) => `/api/calendar-events?start=${s.calendarStart}&end=${s.calendarEnd}&language=de`, kind: 'calendar' , cached: true },
  { name: 'students', label: 'students list', who: 'teacher', path: () => '/api/students?language=de', kind: 'list' , cached: true },
  { name: 'courses', label: 'courses list', who: 'teacher', path: () => '/api/courses?language=de', kind: 'list' , cached: true },
  { name: 'exercises', label: 'exercises list', who: 'teacher', path: () => '/api/exercises?language=de', kind: 'list' , cached: true },
  { name: 'teacher-tasks', label: 'tasks of one student (teacher, page of 50)', who: 'teacher', path: (s) => `/api/submissions?student_id=${s.studentId}&order=work&limit=50&language=de`, kind: 'list' , cached: true },
  { name: 'metrics', label: 'metrics of a student (teacher)', who: 'teacher', path: (s) => `/api/students/${s.studentId}/metrics?language=de`, kind: 'metrics' },
  { name: 'overview', label: 'overview of a student', who: 'teacher', path: (s) => `/api/students/${s.studentId}/overview?language=de`, kind: 'metrics' },
  { name: 'dashboard', label: 'teacher dashboard counts', who: 'teacher', path: () => '/api/dashboard?language=de', kind: 'read' },
  // "Zu prüfen" (docs/decisions/recordings.md): the first page of unanswered recordings and the badge.
  { name: 'inbox', label: 'recordings inbox (Zu prüfen)', who: 'teacher', path: () => '/api/recordings/inbox?language=de', kind: 'list', cached: true },
  { name: 'inbox-count', label: 'recordings inbox count (badge)', who: 'teacher', path: () => '/api/recordings/inbox/count', kind: 'list', cached: true },
];

// ---------------------------------------------------------------------------------------------
// Web bundle

export type BundleResult = {
  dir: string;
  login_js_gzip: number;
  login_files: string[];
  css_gzip: number;
  screens: Record<string, number>;
  /** /tools with every tool loaded (each tool is a lazy chunk of its own): reported beside /login. */
  tools_js_gzip?: number;
  /** What the service worker precaches (docs/decisions/offline-practice.md): files, bytes as stored, bytes gzip (about what the install downloads). */
  precache?: { entries: number; bytes: number; gzip: number };
};

/** The service worker's precache list (the `url` entries Workbox injected into sw.js) and its size. */
export function measurePrecache(webDir: string): { entries: number; bytes: number; gzip: number } | undefined {
  const swFile = join(webDir, 'sw.js');
  if (!existsSync(swFile)) return undefined;
  const urls = [...readFileSync(swFile, 'utf8').matchAll(/"url":"([^"]+)"/g)].map((m) => m[1]!);
  let bytes = 0;
  let gzip = 0;
  for (const u of urls) {
    const data = readFileSync(join(webDir, u));
    bytes += data.length;
    gzip += /\.(woff2|png)$/.test(u) ? data.length : gzipSync(data).length;
  }
  return { entries: urls.length, bytes, gzip };
}

type ManifestChunk = { file: string; src?: string; isEntry?: boolean; isDynamicEntry?: boolean; imports?: string[]; dynamicImports?: string[]; css?: string[] };

/** Gzip size of the JavaScript /login and each screen load, from Vite's manifest. */
export function measureBundle(webDir: string): BundleResult {
  const manifest = JSON.parse(readFileSync(join(webDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const sizes = new Map<string, number>();
  const gz = (file: string) => {
    let v = sizes.get(file);
    if (v === undefined) {
      v = gzipSync(readFileSync(join(webDir, file))).length;
      sizes.set(file, v);
    }
    return v;
  };
  const closure = (key: string, acc = new Set<string>()): Set<string> => {
    const c = manifest[key];
    if (!c || acc.has(c.file)) return acc;
    acc.add(c.file);
    for (const i of c.imports ?? []) closure(i, acc);
    return acc;
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) throw new Error('no entry in the Vite manifest');
  const entry = closure(entryKey);
  const routeKeys = Object.keys(manifest).filter((k) => manifest[k]?.isDynamicEntry && /routes\//.test(k));
  const sum = (files: Set<string>) => [...files].filter((f) => f.endsWith('.js')).reduce((a, f) => a + gz(f), 0);
  const loginKey = routeKeys.find((k) => /routes\/login/.test(k));
  const loginFiles = loginKey ? closure(loginKey, new Set(entry)) : entry;
  // The signed-in screens render inside the main layout (a lazy chunk of its own).
  const layoutKey = Object.keys(manifest).find((k) => manifest[k]?.isDynamicEntry && /layout/.test(k) && !/routes\//.test(k));
  const screens: Record<string, number> = {};
  for (const k of routeKeys) {
    const name = k.replace(/^.*routes\//, '').replace(/\.tsx?$/, '');
    const files = closure(k, new Set(entry));
    if (layoutKey && k !== layoutKey && k !== loginKey) closure(layoutKey, files);
    screens[name] = sum(files);
  }
  const cssFiles = new Set<string>();
  for (const f of manifest[entryKey]?.css ?? []) cssFiles.add(f);
  const toolsKey = routeKeys.find((k) => /routes\/tools\./.test(k));
  let toolsJs: number | undefined;
  if (toolsKey) {
    const files = closure(toolsKey, new Set(entry));
    if (layoutKey) closure(layoutKey, files);
    for (const k of Object.keys(manifest)) if (/features\/tools\/components\//.test(k)) closure(k, files);
    toolsJs = sum(files);
  }
  return {
    dir: webDir,
    login_js_gzip: sum(loginFiles),
    login_files: [...loginFiles],
    css_gzip: [...cssFiles].reduce((a, f) => a + gz(f), 0),
    screens,
    ...(toolsJs !== undefined ? { tools_js_gzip: toolsJs } : {}),
    ...(measurePrecache(webDir) ? { precache: measurePrecache(webDir) } : {}),
  };
}

/** The built web app: dist/web when built, else a build into a temp folder (never into dist/). */
export function ensureWebBuild(log: (m: string) => void, webDir?: string): string {
  const dir = webDir ?? join(ROOT, 'dist', 'web');
  if (existsSync(join(dir, '.vite', 'manifest.json'))) return dir;
  const out = join(tmpdir(), 'uk-bench-web');
  log(`building the web app into ${out} …`);
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--outDir', out, '--emptyOutDir', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    timeout: 300_000,
  });
  if (r.status !== 0) throw new Error('vite build failed');
  return out;
}

// ---------------------------------------------------------------------------------------------
// Start-up of the embedded database

export async function measureStartup(log: (m: string) => void, benchDataDir?: string, rounds = 2, entry = 'server/main.ts'): Promise<StartupResult> {
  const res: StartupResult = { fresh_ms: [], demo_restart_ms: [] };
  // What `npm start` prepares before the first start (the web build and the migrated template a
  // new data folder is copied from): without it a fresh folder runs PGlite's initdb instead.
  const prep = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build-if-needed.mjs')], { cwd: ROOT, stdio: 'inherit', timeout: 300_000 });
  if (prep.status !== 0) throw new Error('scripts/build-if-needed.mjs failed');
  log('start-up: prepared as npm start does (scripts/build-if-needed.mjs)');
  const dirs: string[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const dir = mkdtempSync(join(tmpdir(), 'uk-bench-start-'));
      dirs.push(dir);
      const s = await startServer({ DATA_DIR: dir, DEMO_SEED: 'false' }, 90_000, entry);
      res.fresh_ms.push(s.startMs);
      await s.child.stop();
    }
    const demo = mkdtempSync(join(tmpdir(), 'uk-bench-demo-'));
    dirs.push(demo);
    const first = await startServer({ DATA_DIR: demo, DEMO_SEED: 'true' }, 90_000, entry);
    res.demo_first_ms = first.startMs;
    await first.child.stop();
    for (let i = 0; i < rounds; i++) {
      const s = await startServer({ DATA_DIR: demo, DEMO_SEED: 'true' }, 90_000, entry);
      res.demo_restart_ms.push(s.startMs);
      await s.child.stop();
    }
    if (benchDataDir) {
      res.bench_data_ms = [];
      for (let i = 0; i < rounds; i++) {
        const s = await startServer({ DATA_DIR: benchDataDir }, 90_000, entry);
        res.bench_data_ms.push(s.startMs);
        await s.child.stop();
      }
    }
    log(`start: fresh ${res.fresh_ms.join('/')} ms, demo first ${res.demo_first_ms} ms, demo restart ${res.demo_restart_ms.join('/')} ms`);
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  return res;
}

// ---------------------------------------------------------------------------------------------
// One run

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.floor((s.length - 1) / 2)] ?? 0) : 0;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0) : 0;
};
const r1 = (v: number) => Math.round(v * 10) / 10;

export async function runBench(opts: BenchOptions): Promise<BenchReport> {
  const log = opts.log ?? ((m: string) => console.log(m));
  const presetName: PresetName = opts.preset ?? (opts.db === 'postgres' ? 'school' : 'small');
  const preset = PRESETS[presetName];
  const o = {
    durationSec: opts.durationSec ?? 5,
    warmupSec: opts.warmupSec ?? 1,
    connections: opts.connections ?? 20,
    seqRequests: opts.seqRequests ?? 30,
  };
  const assignRepeats = opts.assignRepeats ?? 3;
  const only = opts.only && opts.only.length ? new Set(opts.only) : null;
  const cleanups: Array<() => Promise<void> | void> = [];
  const serverMode: ServerMode = opts.server ?? 'bundle';
  const entry = serverMode === 'bundle' ? serverBundle() : 'server/main.ts';
  const report: BenchReport = {
    db: opts.db,
    server: serverMode,
    preset: presetName,
    started_at: new Date().toISOString(),
    machine: { cpus: (await import('node:os')).cpus().length, load_before: loadavg().map(r1), node: process.version },
    options: o,
    data: undefined as unknown as BenchReport['data'],
    server_start_ms: 0,
    calls: [],
    budgets: [],
  };
  const runStart = new Date();
  let pgUrl: string | undefined;
  let pglDir: string | undefined;
  let subjects: Subjects;

  try {
    // 1. data
    if (opts.db === 'postgres') {
      pgUrl = opts.pgUrl ?? DEFAULT_PG_BENCH_URL;
      const p = await preparePostgres(pgUrl, preset, { reset: opts.reseed, log });
      report.data = { ...p.summary, ...(p.seedMs ? { seed_ms: p.seedMs } : {}) };
      const h = await openPostgres(pgUrl, 1);
      try {
        subjects = await discover(h.db);
      } finally {
        await h.close();
      }
    } else {
      pglDir = mkdtempSync(join(tmpdir(), 'uk-bench-pglite-'));
      const dir = pglDir;
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      log(`seeding PGlite (${presetName}) in ${dir} …`);
      const p = await preparePglite(dir, preset, { log, then: discover });
      report.data = { ...p.summary, seed_ms: p.seedMs };
      subjects = p.then;
      cpSync(join(dir, 'pgdata'), join(dir, 'baseline-pgdata'), { recursive: true });
    }
    log(`data: ${JSON.stringify(report.data)}`);

    // 2. server
    const serverEnv: Record<string, string> =
      opts.db === 'postgres'
        ? { DATABASE_URL: pgUrl!, DATA_DIR: mkdtempSync(join(tmpdir(), 'uk-bench-pgdir-')) }
        : { DATA_DIR: pglDir! };
    if (opts.db === 'postgres') cleanups.push(() => rmSync(serverEnv.DATA_DIR!, { recursive: true, force: true }));
    const selected = CALLS.filter((c) => !only || only.has(c.name));
    const planFile = join(mkdtempSync(join(tmpdir(), 'uk-bench-plan-')), 'plan.json');
    const plan: PlanEntry[] = selected.map((c) => ({
      name: c.name,
      method: 'GET',
      url: c.path(subjects),
      email: c.who === 'teacher' ? subjects.teacherEmail : subjects.studentEmail,
    }));
    writeFileSync(planFile, JSON.stringify(plan));
    cleanups.push(() => rmSync(join(planFile, '..'), { recursive: true, force: true }));
    const baseEnv = { BENCH_PLAN: planFile, BENCH_PASSWORD, BENCH_EXPLAIN: opts.explain ? '1' : '0' };
    const [serverR, baselineR] = await Promise.allSettled([
      startServer(serverEnv, 90_000, entry),
      startBaseline(opts.db === 'postgres' ? { ...baseEnv, BENCH_DATABASE_URL: pgUrl! } : { ...baseEnv, BENCH_PGDATA: join(pglDir!, 'baseline-pgdata') }),
    ]);
    if (serverR.status === 'fulfilled') cleanups.push(() => serverR.value.child.stop());
    if (baselineR.status === 'fulfilled') cleanups.push(() => baselineR.value.child.stop());
    if (serverR.status === 'rejected') throw serverR.reason;
    if (baselineR.status === 'rejected') throw baselineR.reason;
    const server = serverR.value;
    const baseline = baselineR.value;
    report.server_start_ms = server.startMs;
    const rss = rssSampler(server.child.pid);
    cleanups.push(() => rss.stop());
    report.rss_idle_mb = r1(rss.now());
    const base = `http://127.0.0.1:${server.port}`;
    log(`server pid ${server.child.pid} ready in ${server.startMs} ms (started beside the baseline), RSS ${report.rss_idle_mb} MB`);

    // 3. sign-in (argon2 is slow on purpose) and tokens
    const teacher = await login(base, subjects.teacherEmail);
    const student = await login(base, subjects.studentEmail);
    const seq: number[] = [teacher.ms, student.ms];
    for (let i = 2; i < (opts.signIns ?? 10); i++) seq.push((await login(base, subjects.teacherEmail)).ms);
    const loginLoad = await load({
      url: `${base}/api/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: subjects.teacherEmail, password: BENCH_PASSWORD }),
      connections: 4,
      duration: Math.min(3, o.durationSec),
    });
    report.sign_in = { seq_p50: r1(median(seq)), seq_p99: r1(pct(seq, 99)), n: seq.length, rps: loginLoad.rps, p50: loginLoad.p50, p99: loginLoad.p99 };
    log(`sign-in: ${JSON.stringify(report.sign_in)}`);
    // The calls use a token taken after the sign-in load: a user keeps only their most recent
    // tokens (server/lib/auth.ts), and the load signs the teacher in dozens of times.
    const tokenOf = { teacher: (await login(base, subjects.teacherEmail)).token, student: student.token };

    // 4. the baseline process (started beside the server) captured the SQL of each GET call
    for (const i of baseline.info) {
      if (!i.explain) continue;
      const times = i.explain.map((p) => /Execution Time: ([\d.]+) ms/.exec(p)?.[1] ?? '?');
      log(`explain ${i.name}: ${times.join(' + ')} ms`);
    }
    const bbase = `http://127.0.0.1:${baseline.port}`;
    const health = `${base}/api/health`;
    const bping = `${bbase}/base/ping`;
    const ping = await load({ url: `${bbase}/base/ping`, connections: o.connections, duration: Math.min(2, o.durationSec) });
    report.bare_fastify = { rps: ping.rps, p50: ping.p50, p99: ping.p99 };
    log(`bare Fastify: ${ping.rps} req/s`);

    // 5. the read calls
    for (const c of selected) {
      const url = `${base}${c.path(subjects)}`;
      const headers = auth(tokenOf[c.who]);
      const res: CallResult = { name: c.name, label: c.label, request: `GET ${c.path(subjects)} (${c.who})`, status: 'ok' };
      report.calls.push(res);
      const probe = await fetch(url, { headers });
      const body = await probe.arrayBuffer();
      if (probe.status < 200 || probe.status >= 300) {
        res.status = 'skipped';
        res.note = `HTTP ${probe.status}${probe.status === 404 || probe.status === 501 ? ' (route not there yet?)' : ''}`;
        log(`${c.name}: skipped, ${res.note}`);
        continue;
      }
      res.bytes = body.byteLength;
      // Cold headers: the server's read cache is bypassed, each answer comes from the database.
      const coldHeaders = { ...headers, 'cache-control': 'no-cache' };
      // One at a time: what a single request costs when the answer is not kept (the first load after a change).
      const seqR = await load({ url, headers: c.cached ? coldHeaders : headers, connections: 1, amount: o.seqRequests });
      res.seq_p50 = seqR.p50;
      res.seq_p99 = seqR.p99;
      // A heavy call gets time for every connection to finish a few requests (bounded).
      const dur = Math.round(Math.min(30, Math.max(o.durationSec, (seqR.p50 * o.connections * 4) / 1000)) * 10) / 10;
      if (o.warmupSec > 0) await load({ url, headers, connections: o.connections, duration: o.warmupSec });
      await drain(health);
      const win = rss.window();
      const r = await load({ url, headers, connections: o.connections, duration: dur });
      await drain(health);
      if (dur > o.durationSec) res.note = `${dur} s of load`;
      Object.assign(res, { rps: r.rps, p50: r.p50, p99: r.p99, non2xx: r.non2xx, errors: r.errors });
      if (c.cached) {
        const cold = await load({ url, headers: coldHeaders, connections: o.connections, duration: dur });
        await drain(health);
        res.cold = { rps: cold.rps, p50: cold.p50, p99: cold.p99 };
        if (cold.non2xx || cold.errors) Object.assign(res, { non2xx: (res.non2xx ?? 0) + cold.non2xx, errors: (res.errors ?? 0) + cold.errors });
      }
      res.rss_max_mb = r1(win());
      const cap = baseline.info.find((i) => i.name === c.name);
      if (cap) Object.assign(res, { sql: cap.sql, ...(cap.explain ? { explain: cap.explain } : {}) });
      if (cap && cap.queries > 0) {
        const burl = `${bbase}/base/${c.name}`;
        if (o.warmupSec > 0) await load({ url: burl, connections: o.connections, duration: o.warmupSec });
        await drain(bping);
        const b = await load({ url: burl, connections: o.connections, duration: dur });
        await drain(bping);
        res.baseline = { rps: b.rps, p50: b.p50, p99: b.p99, queries: cap.queries, status: cap.status };
        // Against the cold figure where there is one: auth and shaping, not the cache, are what this compares.
        const served = res.cold?.rps ?? r.rps;
        res.ratio = b.rps ? Math.round((served / b.rps) * 100) / 100 : undefined;
      } else if (cap) {
        res.note = [res.note, `no baseline (${cap.queries} SQL statements besides auth; HTTP ${cap.status})`].filter(Boolean).join('; ');
      }
      log(
        `${c.name}: ${r.rps} req/s p50 ${r.p50} p99 ${r.p99} ms (1 conn p50 ${seqR.p50}) ${res.bytes} B` +
          (res.cold ? ` | cold ${res.cold.rps} req/s p99 ${res.cold.p99} ms` : '') +
          (res.baseline ? ` | base ${res.baseline.rps} req/s → ×${res.ratio}` : '') +
          ` | RSS ${res.rss_max_mb} MB${r.non2xx || r.errors ? ` | non2xx ${r.non2xx} errors ${r.errors}` : ''}`,
      );
    }

    // 5b. requests that need no database beside a heavy read (DESIGN.md)
    if (!only || only.has('beside')) {
      report.beside = await measureBeside(base, subjects, tokenOf, o, log);
      await drain(health);
    }

    // 5c. server RSS while a large upload streams in (DESIGN.md: ≤ 16 MB growth)
    if (!only || only.has('upload')) {
      report.uploads = await measureUploads(base, server.child.pid, subjects, tokenOf, {
        recordingBytes: opts.uploadBytes ?? RECORDING_LIMITS.maxBytes - 4096,
        mediaBytes: opts.mediaUploadBytes ?? UPLOAD_MAX_BYTES - 4096,
        runs: opts.uploadRuns ?? 3,
      }, log);
      for (const u of report.uploads) {
        report.calls.push({
          name: u.name,
          label: u.label,
          request: u.request,
          status: u.status >= 200 && u.status < 300 ? 'ok' : 'skipped',
          seq_p50: u.ms,
          rss_max_mb: u.rss_peak_mb,
          note:
            `${r1(u.file_bytes / 1048576)} MiB in ${u.ms} ms; RSS ${u.rss_base_mb} → ${u.rss_peak_mb} MB (+${u.growth_mb}` +
            `${u.runs_growth_mb && u.runs_growth_mb.length > 1 ? `, worst of ${u.runs_growth_mb.join(' / ')}` : ''}), every ${u.sample_ms} ms` +
            (u.note ? `; ${u.note}` : ''),
        });
      }
      await drain(health);
    }

    // 6. practice start/stop (writes: no baseline)
    if (!only || only.has('practice')) {
      const res: CallResult = { name: 'practice', label: 'practice start + stop', request: 'POST …/practice-sessions/start, POST /api/practice-sessions/{id}/stop (student)', status: 'ok' };
      report.calls.push(res);
      const tokens = new Map<string, string>();
      for (const p of subjects.practice) if (!tokens.has(p.email)) tokens.set(p.email, (await login(base, p.email)).token);
      const pool = subjects.practice.map((p) => ({ token: tokens.get(p.email)!, id: p.submissionId }));
      if (pool.length < 2) {
        res.status = 'skipped';
        res.note = 'no open tasks to practise on';
      } else {
        const conns = Math.min(o.connections, Math.floor(pool.length / 2));
        type Ctx = { p?: { token: string; id: number }; sid?: number };
        const requests: autocannon.Request[] = [
          {
            method: 'POST',
            setupRequest: (req, ctx) => {
              const c = ctx as Ctx;
              const p = pool.shift();
              if (!p) return req;
              c.p = p;
              return { ...req, path: `/api/submissions/${p.id}/practice-sessions/start`, headers: auth(p.token) } as autocannon.Request;
            },
            onResponse: (status, body, ctx) => {
              const c = ctx as Ctx;
              try {
                const j = JSON.parse(body) as { id?: number; session?: { id: number } };
                c.sid = status === 201 ? j.id : j.session?.id;
              } catch {
                c.sid = undefined;
              }
            },
          },
          {
            method: 'POST',
            setupRequest: (req, ctx) => {
              const c = ctx as Ctx;
              return { ...req, path: `/api/practice-sessions/${c.sid ?? 0}/stop`, headers: auth(c.p?.token ?? '') } as autocannon.Request;
            },
            onResponse: (_s, _b, ctx) => {
              const c = ctx as Ctx;
              if (c.p) pool.push(c.p);
              c.p = undefined;
            },
          },
        ];
        const seqR = await load({ url: base, connections: 1, amount: Math.max(10, Math.floor(o.seqRequests / 2) * 2), requests });
        await drain(health);
        const win = rss.window();
        const r = await load({ url: base, connections: conns, duration: o.durationSec, requests });
        res.rss_max_mb = r1(win());
        Object.assign(res, { seq_p50: seqR.p50, seq_p99: seqR.p99, rps: r.rps, p50: r.p50, p99: r.p99, non2xx: r.non2xx, errors: r.errors });
        res.note = `${conns} connections, each on its own task`;
        if (r.total > 0 && r.non2xx === r.total) {
          res.status = 'skipped';
          res.note = 'every answer non-2xx (routes not there yet?)';
        }
        log(`practice: ${r.rps} req/s p50 ${r.p50} p99 ${r.p99} ms (1 conn p50 ${seqR.p50}) non2xx ${r.non2xx}`);
      }
    }

    // 7. assignment: a daily task for the teacher's students (200 at school scale → 6,000 rows)
    if (!only || only.has('assign')) {
      await drain(health);
      const ids = subjects.teacherStudentIds.slice(0, 200);
      const runs: number[] = [];
      const series = new Set<string>();
      let status = 0;
      let rowsN = 0;
      const win = rss.window();
      for (let i = 0; i < assignRepeats; i++) {
        const due = addDays(subjects.today, 60 + i * 31);
        const t0 = performance.now();
        const r = await fetch(`${base}/api/submissions?language=de`, {
          method: 'POST',
          headers: { ...auth(tokenOf.teacher), 'content-type': 'application/json' },
          body: JSON.stringify({
            exercise_id: subjects.exerciseId,
            due_date: due,
            course_id: null,
            teacher_note: 'Benchmark',
            assignees: { users: ids },
            recurrence_type: 'daily',
            recurrence_end_date: addDays(due, 29),
            expiration_days: 2,
          }),
        });
        const text = await r.text();
        const ms = performance.now() - t0;
        status = r.status;
        if (r.status !== 201) break;
        runs.push(Math.round(ms));
        const j = JSON.parse(text) as { submissions: Array<{ series_id: string }> };
        rowsN = j.submissions.length;
        for (const s of j.submissions) series.add(s.series_id);
      }
      const rssMax = r1(win());
      report.assign = runs.length
        ? { students: ids.length, rows: rowsN, runs_ms: runs, median_ms: median(runs), status }
        : { students: ids.length, rows: 0, runs_ms: [], median_ms: 0, status, note: `HTTP ${status}: skipped` };
      report.calls.push({ name: 'assign', label: `assign daily × 30 to ${ids.length} students`, request: 'POST /api/submissions (teacher)', status: runs.length ? 'ok' : 'skipped', note: runs.length ? `${rowsN} rows; runs ${runs.join(', ')} ms` : `HTTP ${status}`, seq_p50: runs.length ? median(runs) : undefined, seq_p99: runs.length ? Math.max(...runs) : undefined, rss_max_mb: rssMax });
      log(`assign: ${JSON.stringify(report.assign)}`);
      if (pgUrl && series.size) {
        const c = new pg.Client({ connectionString: pgUrl });
        await c.connect();
        await c.query('delete from submissions where series_id = any($1::uuid[])', [[...series]]);
        await c.end();
      }
    }
    report.rss_max_mb = r1(rss.max());
    await baseline.child.stop();
    await server.child.stop();

    // 8. start-up (embedded database)
    if (opts.db === 'pglite' && opts.startup !== false) {
      report.startup = await measureStartup(log, pglDir, 2, entry);
    }
    if (pgUrl) {
      // the sessions and tokens of this run go again, so the next run meets the same data
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query('delete from practice_sessions where started_at >= $1', [runStart]);
      // the uploads' rows (their files lived in the run's DATA_DIR, removed with it)
      await c.query('delete from recordings where created_at >= $1', [runStart]);
      await c.query('delete from exercises where created_at >= $1', [runStart]);
      await c.query('delete from tokens where created_at >= $1', [runStart]);
      await c.end();
      const h = await openPostgres(pgUrl, 1);
      try {
        report.data = { ...(await summarize(h.db, subjects.today)), ...(report.data.seed_ms ? { seed_ms: report.data.seed_ms } : {}) };
      } finally {
        await h.close();
      }
    }
  } finally {
    for (const c of cleanups.reverse()) await c();
  }
  report.machine.load_after = loadavg().map(r1);
  report.finished_at = new Date().toISOString();
  report.budgets = evaluate(report);
  if (opts.resultsDir !== null) {
    const dir = opts.resultsDir ?? join(ROOT, 'bench', 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${report.db}-${report.server}-${report.started_at.replace(/[:.]/g, '-')}.json`), JSON.stringify(report, null, 2));
  }
  return report;
}

// ---------------------------------------------------------------------------------------------
// Uploads: the server's RSS while 50 MiB stream in

/**
 * A recording of `recordingBytes` (a WAV) as the owning student, and an exercise file of
 * `mediaBytes` (a PNG padded with zeros) as the teacher, each generated while it is sent. A small
 * upload of each kind goes first, so the modules and buffers an upload needs once (multipart,
 * file-type, music-metadata) are loaded before the baseline is read: what is measured is what
 * the size costs. Each upload's row is deleted again (the file goes with the run's DATA_DIR).
 */
async function measureUploads(
  base: string,
  pid: number,
  subjects: Subjects,
  tokenOf: { teacher: string; student: string },
  o: { recordingBytes: number; mediaBytes: number; runs: number },
  log: (m: string) => void,
): Promise<UploadRss[]> {
  /** `o.runs` uploads; the one with the largest growth is kept, with every run's growth. */
  const worst = async (one: () => Promise<(UploadRss & { body: string }) | null>) => {
    const all: Array<UploadRss & { body: string }> = [];
    for (let i = 0; i < Math.max(1, o.runs); i++) {
      const r = await one();
      if (!r) break;
      all.push(r);
      if (r.status < 200 || r.status >= 300) break;
    }
    const failed = all.find((r) => r.status < 200 || r.status >= 300);
    const pick = failed ?? all.reduce((a, b) => (b.growth_mb > a.growth_mb ? b : a));
    const { body: _body, ...rest } = pick;
    return { ...rest, runs_growth_mb: all.map((r) => r.growth_mb), body: pick.body };
  };
  const out: UploadRss[] = [];
  const student = auth(tokenOf.student);
  const teacher = auth(tokenOf.teacher);
  // Recording
  const recUrl = `${base}/api/submissions/${subjects.uploadTaskId}/recordings?language=de`;
  const wav = (bytes: number) => [{ name: 'file', filename: 'aufnahme.wav', contentType: 'audio/wav', size: bytes, chunks: () => wavChunks(bytes) }];
  const warm = await postForm(recUrl, student, wav(200_000));
  if (warm.status === 201) {
    const id = (JSON.parse(warm.body) as { id: number }).id;
    await (await fetch(`${base}/api/recordings/${id}`, { method: 'DELETE', headers: student })).arrayBuffer();
  }
  let stored = '';
  const rec = await worst(async () => {
    const r = await measureUploadRss(
      pid,
      { name: 'upload-recording', label: `recording upload ${r1(o.recordingBytes / 1048576)} MiB`, request: `POST /api/submissions/{id}/recordings (student, WAV ${o.recordingBytes} B)`, fileBytes: o.recordingBytes },
      () => postForm(recUrl, student, wav(o.recordingBytes)),
    );
    if (r.status === 201) {
      const j = JSON.parse(r.body) as { id: number; size: number; duration_ms: number };
      stored = `stored ${j.size} B, ${r1(j.duration_ms / 60000)} min`;
      await (await fetch(`${base}/api/recordings/${j.id}`, { method: 'DELETE', headers: student })).arrayBuffer();
    }
    return r;
  });
  rec.note = rec.status === 201 ? stored : `HTTP ${rec.status}${warm.status !== 201 ? ` (warm-up HTTP ${warm.status})` : ''}: ${rec.body.slice(0, 200)}`;
  const { body: _b1, ...recR } = rec;
  out.push(recR);
  log(`upload recording: HTTP ${rec.status} ${rec.ms} ms, RSS ${rec.rss_base_mb} → ${rec.rss_peak_mb} MB (+${rec.growth_mb})`);
  // Exercise media: a new exercise of the teacher, then its update with one file
  const png = staffPng(60, 30);
  const made = await postForm(`${base}/api/exercises?language=de`, teacher, [{ name: 'title', value: 'Bench: Medien-Upload' }]);
  if (made.status !== 201) {
    out.push({ name: 'upload-media', label: 'exercise media upload', request: 'POST /api/exercises/{id} (teacher)', file_bytes: o.mediaBytes, status: made.status, ms: 0, rss_base_mb: 0, rss_peak_mb: 0, growth_mb: 0, samples: 0, sample_ms: 0, note: `creating the exercise: HTTP ${made.status}` });
    return out;
  }
  const exId = (JSON.parse(made.body) as { id: number }).id;
  const exUrl = `${base}/api/exercises/${exId}?language=de`;
  const pngPart = (bytes: number) => [
    { name: 'title', value: 'Bench: Medien-Upload' },
    { name: 'media_files[0]', filename: 'noten.png', contentType: 'image/png', size: bytes, chunks: () => paddedChunks(png, bytes) },
  ];
  await postForm(exUrl, teacher, pngPart(200_000));
  // Each run adds a file to the exercise (30 at most per exercise: the runs stay below).
  const media = await worst(() =>
    measureUploadRss(
      pid,
      { name: 'upload-media', label: `exercise media upload ${r1(o.mediaBytes / 1048576)} MiB`, request: `POST /api/exercises/{id} (teacher, media_files[0] PNG ${o.mediaBytes} B)`, fileBytes: o.mediaBytes },
      () => postForm(exUrl, teacher, pngPart(o.mediaBytes)),
    ),
  );
  if (media.status !== 200) media.note = `HTTP ${media.status}: ${media.body.slice(0, 200)}`;
  await (await fetch(`${base}/api/exercises/${exId}`, { method: 'DELETE', headers: teacher })).arrayBuffer();
  const { body: _b2, ...mediaR } = media;
  out.push(mediaR);
  log(`upload media: HTTP ${media.status} ${media.ms} ms, RSS ${media.rss_base_mb} → ${media.rss_peak_mb} MB (+${media.growth_mb})`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Beside a heavy read

/** The heavy read of the "beside" measurement and the probes sent next to it. */
const BESIDE_HEAVY = 'overview';
const BESIDE_PROBES: Array<{ name: string; who: 'teacher' | 'student'; path: string; needsDb: boolean }> = [
  // Kept by the read cache (decision 0004) and the token cache: answered without the database.
  { name: 'cached list (students, warm)', who: 'teacher', path: '/api/students?language=de', needsDb: false },
  { name: 'current user', who: 'student', path: '/api/user', needsDb: false },
  // `select 1`: waits its turn at the database, shown for comparison.
  { name: 'health (select 1)', who: 'student', path: '/api/health', needsDb: true },
];

async function measureBeside(
  base: string,
  subjects: Subjects,
  tokenOf: { teacher: string; student: string },
  o: { durationSec: number; connections: number },
  log: (m: string) => void,
): Promise<BesideResult> {
  const heavy = CALLS.find((c) => c.name === BESIDE_HEAVY)!;
  const heavyUrl = `${base}${heavy.path(subjects)}`;
  const dur = Math.max(4, o.durationSec);
  const probes = BESIDE_PROBES.map((p) => ({ ...p, url: `${base}${p.path}`, headers: auth(tokenOf[p.who]) }));
  for (const p of probes) await (await fetch(p.url, { headers: p.headers })).arrayBuffer();
  const alone: LoadResult[] = [];
  for (const p of probes) alone.push(await load({ url: p.url, headers: p.headers, connections: 1, duration: 2 }));
  await drain(`${base}/api/health`);
  // The heavy load runs `dur` s; the probes start once it is going and stop before it ends.
  const heavyRun = load({ url: heavyUrl, headers: auth(tokenOf[heavy.who]), connections: o.connections, duration: dur });
  await sleep(700);
  const beside = await Promise.all(probes.map((p) => load({ url: p.url, headers: p.headers, connections: 1, duration: dur - 1.5 })));
  const h = await heavyRun;
  const res: BesideResult = {
    heavy: `${heavy.label}, ${o.connections} connections`,
    heavy_rps: h.rps,
    heavy_p99: h.p99,
    probes: probes.map((p, i) => ({
      name: p.name,
      request: `GET ${p.path} (${p.who})`,
      needs_db: p.needsDb,
      alone_p50: alone[i]!.p50,
      alone_p99: alone[i]!.p99,
      p50: beside[i]!.p50,
      p99: beside[i]!.p99,
      n: beside[i]!.total,
      non2xx: beside[i]!.non2xx + beside[i]!.errors,
    })),
  };
  log(`beside ${res.heavy} (${h.rps} req/s, p99 ${h.p99} ms): ${res.probes.map((p) => `${p.name} p99 ${p.alone_p99} → ${p.p99} ms`).join('; ')}`);
  return res;
}

// ---------------------------------------------------------------------------------------------
// Budgets (DESIGN.md) and the table

export function evaluate(r: BenchReport, bundle?: BundleResult): Budget[] {
  const out: Budget[] = [];
  const isPg = r.db === 'postgres';
  for (const c of r.calls) {
    if (c.status !== 'ok') continue;
    const def = CALLS.find((d) => d.name === c.name);
    if (def?.kind === 'list' && c.p99 !== undefined) {
      out.push({ what: `${c.name}: p99 at ${r.options.connections} conn`, limit: '≤ 25 ms', value: `${c.p99} ms`, ok: isPg ? c.p99 <= 25 : null });
      // Shown, not judged: the same load when no answer is kept (every request after a write in the tenant).
      if (c.cold) out.push({ what: `${c.name}: p99 at ${r.options.connections} conn, cold (no cache)`, limit: 'no budget, shown', value: `${c.cold.p99} ms`, ok: null });
    }
    if (def?.kind === 'metrics' && c.seq_p50 !== undefined) {
      out.push({ what: `${c.name}: one call (p50 / p99, 1 conn)`, limit: '≤ 30 ms', value: `${c.seq_p50} / ${c.seq_p99} ms`, ok: c.seq_p50 <= 30 });
    }
    if (def?.kind === 'calendar' && c.seq_p50 !== undefined) {
      out.push({ what: `${c.name}: one call (p50 / p99, 1 conn)`, limit: '≤ 50 ms', value: `${c.seq_p50} / ${c.seq_p99} ms`, ok: c.seq_p50 <= 50 });
    }
    if (c.ratio !== undefined) out.push({ what: `${c.name}: throughput${c.cold ? ' (cold)' : ''} vs bare SQL route`, limit: '≥ 0.5', value: `×${c.ratio}`, ok: c.ratio >= 0.5 });
  }
  if (r.assign && r.assign.runs_ms.length) {
    out.push({ what: `POST /api/submissions, ${r.assign.rows} rows (median of ${r.assign.runs_ms.length})`, limit: '≤ 1000 ms', value: `${r.assign.median_ms} ms`, ok: r.assign.median_ms <= 1000 });
  }
  for (const p of r.beside?.probes ?? []) {
    out.push({
      what: `${p.name}: p99 beside a heavy read`,
      limit: p.needs_db ? 'needs the database, shown' : '≤ 25 ms',
      value: `${p.p99} ms`,
      ok: p.needs_db || isPg ? null : p.p99 <= 25 && p.non2xx === 0,
    });
  }
  for (const u of r.uploads ?? []) {
    const ok = u.status >= 200 && u.status < 300;
    out.push({
      what: `${u.name}: server RSS growth, ${r1(u.file_bytes / 1048576)} MiB`,
      limit: '≤ 16 MB',
      value: ok ? `+${u.growth_mb} MB` : `HTTP ${u.status}`,
      ok: ok ? u.growth_mb <= 16 : false,
    });
  }
  if (r.rss_max_mb !== undefined) out.push({ what: 'server RSS under load (max)', limit: '≤ 200 MB', value: `${r.rss_max_mb} MB`, ok: r.rss_max_mb <= 200 });
  if (r.startup) {
    const best = (xs: number[] | undefined) => (xs && xs.length ? Math.min(...xs) : undefined);
    const rows2: Array<[string, number | undefined]> = [
      ['start, fresh DATA_DIR (migrations), best of runs', best(r.startup.fresh_ms)],
      ['start, demo data, best of runs', best(r.startup.demo_restart_ms)],
      [`start, bench data (${r.preset}), best of runs`, best(r.startup.bench_data_ms)],
    ];
    for (const [what, v] of rows2) if (v !== undefined) out.push({ what, limit: '≤ 2000 ms', value: `${v} ms`, ok: v <= 2000 });
  }
  if (bundle) out.push({ what: '/login JavaScript, gzip', limit: '≤ 170 kB', value: `${r1(bundle.login_js_gzip / 1000)} kB`, ok: bundle.login_js_gzip <= 170_000 });
  return out;
}

const pad = (s: string, n: number) => (s.length >= n ? s.slice(0, n) : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);

export function formatReport(r: BenchReport): string {
  const lines: string[] = [];
  const d = r.data;
  lines.push(
    `\n== ${r.db === 'postgres' ? 'PostgreSQL' : 'PGlite'} · server ${r.server === 'bundle' ? 'compiled with esbuild, plain node (as npm start)' : 'tsx (as npm run dev)'} · preset ${r.preset}: ${d.teachers} teachers, ${d.students} students, ${d.exercises} exercises, ` +
      `${d.submissions} tasks (${Object.entries(d.by_status).map(([k, v]) => `${k} ${v}`).join(', ')}), ${d.practice_sessions} sessions, ` +
      `${d.recordings} recordings (${d.inbox} in teacher 1's inbox)` +
      (d.seed_ms ? `, seeded in ${r1(d.seed_ms / 1000)} s` : ''),
  );
  lines.push(
    `   ${r.machine.cpus} CPUs, load ${r.machine.load_before.join(' ')} → ${r.machine.load_after?.join(' ') ?? '?'}; ${r.options.connections} connections, ` +
      `${r.options.durationSec} s per call; server start ${r.server_start_ms} ms, RSS idle ${r.rss_idle_mb} MB, max ${r.rss_max_mb} MB; ` +
      `bare Fastify ${r.bare_fastify?.rps ?? '?'} req/s`,
  );
  const head = [pad('call', 32), lpad('req/s', 7), lpad('p50', 6), lpad('p99', 6), lpad('1c p50', 7), lpad('1c p99', 7), lpad('bytes', 8), lpad('cold r/s', 9), lpad('cold99', 7), lpad('SQL req/s', 10), lpad('SQL p99', 8), lpad('ratio', 6), lpad('RSS MB', 7), '  note'];
  lines.push(head.join(' '));
  lines.push('-'.repeat(head.join(' ').length + 10));
  const v = (x: number | undefined) => (x === undefined ? '–' : String(x));
  for (const c of r.calls) {
    lines.push(
      [
        pad(c.label, 32),
        lpad(v(c.rps), 7),
        lpad(v(c.p50), 6),
        lpad(v(c.p99), 6),
        lpad(v(c.seq_p50), 7),
        lpad(v(c.seq_p99), 7),
        lpad(v(c.bytes), 8),
        lpad(v(c.cold?.rps), 9),
        lpad(v(c.cold?.p99), 7),
        lpad(v(c.baseline?.rps), 10),
        lpad(v(c.baseline?.p99), 8),
        lpad(c.ratio === undefined ? '–' : `×${c.ratio}`, 6),
        lpad(v(c.rss_max_mb), 7),
        `  ${c.status === 'skipped' ? 'SKIPPED ' : ''}${c.note ?? ''}${c.non2xx || c.errors ? ` non2xx ${c.non2xx} err ${c.errors}` : ''}`,
      ].join(' '),
    );
  }
  if (r.sign_in) {
    lines.push(
      `sign-in (argon2id, apart): one at a time p50 ${r.sign_in.seq_p50} ms p99 ${r.sign_in.seq_p99} ms (n ${r.sign_in.n}); 4 connections ${r.sign_in.rps} req/s p50 ${r.sign_in.p50} p99 ${r.sign_in.p99} ms`,
    );
  }
  if (r.beside) {
    lines.push(`beside ${r.beside.heavy} (${r.beside.heavy_rps} req/s, p99 ${r.beside.heavy_p99} ms), one connection each:`);
    for (const p of r.beside.probes) {
      lines.push(`  ${pad(p.name, 30)} alone p50 ${p.alone_p50} p99 ${p.alone_p99} ms → beside p50 ${p.p50} p99 ${p.p99} ms (${p.n} requests${p.non2xx ? `, ${p.non2xx} failed` : ''})`);
    }
  }
  if (r.startup) {
    lines.push(
      `start to first answer (PGlite): fresh ${r.startup.fresh_ms.join(', ')} ms; demo first start (seeding) ${r.startup.demo_first_ms} ms; demo restart ${r.startup.demo_restart_ms.join(', ')} ms` +
        (r.startup.bench_data_ms ? `; bench data ${r.startup.bench_data_ms.join(', ')} ms` : ''),
    );
  }
  lines.push('budgets:');
  for (const b of r.budgets) lines.push(`  ${b.ok === null ? 'info' : b.ok ? ' ok ' : 'MISS'}  ${pad(b.what, 52)} ${lpad(b.value, 16)}  (${b.limit})`);
  return lines.join('\n');
}

export function formatBundle(b: BundleResult): string {
  const lines = [`\n== web bundle (${b.dir}), gzip: /login JS ${r1(b.login_js_gzip / 1000)} kB (${b.login_files.length} files), CSS ${r1(b.css_gzip / 1000)} kB`];
  for (const [k, v] of Object.entries(b.screens).sort()) lines.push(`   ${pad(k, 28)} ${lpad(String(r1(v / 1000)), 7)} kB (entry + chunk)`);
  if (b.tools_js_gzip !== undefined) lines.push(`   ${pad('tools, every tool loaded', 28)} ${lpad(String(r1(b.tools_js_gzip / 1000)), 7)} kB (beside /login ${r1(b.login_js_gzip / 1000)} kB)`);
  if (b.precache) lines.push(`   ${pad('service worker precache', 28)} ${lpad(String(b.precache.entries), 7)} files, ${r1(b.precache.bytes / 1000)} kB (${r1(b.precache.gzip / 1000)} kB gzip, downloaded once at install)`);
  lines.push(`  ${b.login_js_gzip <= 170_000 ? ' ok ' : 'MISS'}  /login JavaScript ≤ 170 kB gzip`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// CLI

async function cli() {
  const args = process.argv.slice(2);
  const val = (flag: string) => {
    const i = args.indexOf(flag);
    const v = i >= 0 ? args[i + 1] : undefined;
    return v && !v.startsWith('--') ? v : undefined;
  };
  const which = val('--db') ?? 'both';
  const dbs: Array<'postgres' | 'pglite'> = which === 'both' ? ['postgres', 'pglite'] : which === 'pglite' ? ['pglite'] : ['postgres'];
  const num = (flag: string) => (val(flag) !== undefined ? Number(val(flag)) : undefined);
  const t0 = Date.now();
  const log = (m: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${m}`);
  const uptime = spawnSync('uptime', { encoding: 'utf8' }).stdout?.trim();
  log(`uptime: ${uptime}`);
  // docs/decisions/0013-many-processes.md: N processes behind haproxy beside one, on PostgreSQL (bench/processes.ts); nothing else.
  if (num('--processes') !== undefined) {
    const { runProcessesBench, formatProcesses } = await import('./processes');
    const r = await runProcessesBench({ processes: Math.max(2, num('--processes')!), pgUrl: val('--pg-url'), duration: num('--duration'), connections: num('--connections'), log });
    log(formatProcesses(r));
    writeFileSync(join(ROOT, 'bench', 'results', `processes-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(r, null, 2));
    return;
  }
  // The listening analysis: no server, no database (bench/listening.ts).
  const listening = async (): Promise<string> => {
    const { runListeningBench, formatListening } = await import('./listening');
    const r = await runListeningBench({ cliTracks: num('--listening-tracks'), log });
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', `listening-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(r, null, 2));
    return formatListening(r);
  };
  if (args.includes('--listening')) {
    log(await listening());
    return;
  }
  // docs/decisions/reminders.md: the reminder job at school scale, started by three processes at once.
  if (args.includes('--reminders')) {
    const { runRemindersBench, formatReminders } = await import('./reminders');
    const r = await runRemindersBench({ students: num('--reminder-students'), pgUrl: val('--pg-url'), log });
    log(formatReminders(r));
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', `reminders-${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(r, null, 2));
    return;
  }
  const out: string[] = [];
  let bundle: BundleResult | undefined;
  if (!args.includes('--no-bundle')) {
    try {
      bundle = measureBundle(ensureWebBuild(log, val('--web-dir') ? resolve(val('--web-dir')!) : undefined));
      out.push(formatBundle(bundle));
      log(out[out.length - 1]!);
    } catch (e) {
      out.push(`\n== web bundle: not measured (${(e as Error).message})`);
    }
  }
  for (const db of dbs) {
    const report = await runBench({
      db,
      pgUrl: val('--pg-url'),
      preset: (db === 'postgres' ? val('--preset') : val('--pglite-preset')) as PresetName | undefined,
      reseed: args.includes('--seed'),
      durationSec: num('--duration'),
      warmupSec: num('--warmup'),
      connections: num('--connections'),
      seqRequests: num('--seq'),
      assignRepeats: num('--assign-repeats'),
      startup: !args.includes('--no-startup'),
      only: val('--only')?.split(','),
      explain: args.includes('--explain'),
      server: val('--server') === 'tsx' ? 'tsx' : 'bundle',
      log,
    });
    if (bundle) {
      report.budgets = evaluate(report, bundle);
      writeFileSync(join(ROOT, 'bench', 'results', `${report.db}-${report.server}-${report.started_at.replace(/[:.]/g, '-')}.json`), JSON.stringify({ ...report, bundle }, null, 2));
    }
    out.push(formatReport(report));
    log(out[out.length - 1]!);
  }
  // docs/decisions/offline-practice.md: the student's task list loaded again from the service worker and the device's cache (bench/offline-load.ts).
  if (!args.includes('--no-offline')) {
    try {
      const { runOfflineLoad, formatOfflineLoad } = await import('./offline-load');
      const r = await runOfflineLoad({ webDir: val('--web-dir') ? resolve(val('--web-dir')!) : undefined, runs: num('--offline-runs'), log });
      out.push(formatOfflineLoad(r));
      log(out[out.length - 1]!);
    } catch (e) {
      out.push(`\n== offline load: not measured (${(e as Error).message})`);
    }
  }
  if (!args.includes('--no-listening')) {
    try {
      out.push(await listening());
      log(out[out.length - 1]!);
    } catch (e) {
      out.push(`\n== listening: not measured (${(e as Error).message})`);
    }
  }
  // Lighthouse, mobile, on the six pages of DESIGN.md (bench/lighthouse.ts; alone: npm run bench:lighthouse).
  if (args.includes('--lighthouse')) {
    try {
      const { runLighthouse } = await import('./lighthouse');
      const lh = await runLighthouse({ webDir: val('--web-dir') ? resolve(val('--web-dir')!) : undefined, runs: num('--lighthouse-runs'), log });
      out.push(lh.table);
      log(lh.table);
    } catch (e) {
      out.push(`\n== Lighthouse: not measured (${(e as Error).message})`);
    }
  }
  log(`\n\n########## summary (uptime at end: ${spawnSync('uptime', { encoding: 'utf8' }).stdout?.trim()})`);
  log(out.join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  cli().then(
    () => process.exit(0),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
}
