/**
 * Load test: many simulated teachers and students against the real server on loopback, for a
 * bounded time. Every acknowledged write is recorded and checked in the database afterwards.
 *
 *   npm run load -- --seconds 60 [--users 200] [--think-ms 500] [--postgres [postgres://…/postgres]]
 *                   [--processes 3 [--kill-one]] [--s3]
 *
 * The server runs in its own process on 127.0.0.1 with a fresh data folder (PGlite), or a fresh
 * database on the PostgreSQL server of --postgres / DATABASE_URL (dropped afterwards). The school:
 * one teacher per 20 users, the rest students, 30 days of history (bench/seed-scale.ts).
 * Exit code 1 when any call failed or any acknowledged write is missing.
 *
 * `--processes N` (PostgreSQL only) runs N server processes on the one database behind Debian's
 * haproxy (/usr/sbin/haproxy, the configuration of docs/deploy.md) and drives the load through it.
 * `--kill-one` kills one of them with -9 halfway and starts it again: the calls that were in flight
 * on it may fail (reported, not counted as errors); no acknowledged write may be lost.
 * `--s3` keeps media in an S3-compatible store (s3rver, started here; MEDIA_STORE=s3 for every
 * process) and lets teachers upload a score now and then: every acknowledged upload must be
 * readable, byte for byte, through its signed link afterwards.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { migrateDb, openPglite, openPostgres, rows, type DbHandle } from '../server/db/client';
import { startServer, stopServer, type Server } from '../server/test/crash-helpers';
import { staffPng } from '../server/modules/media/sample-files';
import { startS3Server, type TestS3 } from '../server/test/s3-server';
import { startHaproxy } from './haproxy';
import { BENCH_PASSWORD, seedScale, studentEmail, teacherEmail, type ScalePreset } from './seed-scale';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    users: { type: 'string', default: '200' },
    'think-ms': { type: 'string', default: '500' },
    postgres: { type: 'string' },
    pg: { type: 'boolean', default: false },
    processes: { type: 'string', default: '1' },
    'kill-one': { type: 'boolean', default: false },
    s3: { type: 'boolean', default: false },
  },
  strict: true,
  allowPositionals: false,
});

const SECONDS = Math.min(600, Math.max(1, Number(values.seconds)));
const USERS = Math.min(1000, Math.max(2, Number(values.users)));
const THINK_MS = Math.min(10_000, Math.max(0, Number(values['think-ms'])));
const PG_URL = values.postgres || (values.pg ? process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres' : undefined);
if (![SECONDS, USERS, THINK_MS].every(Number.isFinite)) throw new Error('--seconds, --users and --think-ms take numbers');
const PROCESSES = Math.min(16, Math.max(1, Math.trunc(Number(values.processes))));
const KILL_ONE = values['kill-one'];
if (!Number.isFinite(PROCESSES)) throw new Error('--processes takes a number');
if (PROCESSES > 1 && !PG_URL) throw new Error('--processes needs --postgres (several processes share one PostgreSQL database)');
if (KILL_ONE && PROCESSES < 2) throw new Error('--kill-one needs --processes 2 or more');
/** Calls that failed because their process was killed under them (502/503 from the balancer, a dropped connection). */
const interrupted: string[] = [];
let killWindow = false;

const TEACHERS = Math.max(1, Math.ceil(USERS / 20));
const STUDENTS = USERS - TEACHERS;
const preset: ScalePreset = {
  teachers: TEACHERS,
  students: STUDENTS,
  bigTeacherStudents: Math.ceil(STUDENTS / TEACHERS),
  pastDays: 30,
  futureDays: 14,
  taskRate: 0.6,
  exercisesPerTeacher: 10,
  coursesPerTeacher: 2,
};

type Sample = { action: string; ms: number; status: number };
const samples: Sample[] = [];
const errors: string[] = [];
const ack = {
  tasks: [] as number[],
  courses: [] as number[],
  starts: [] as number[],
  stops: [] as number[],
  completions: [] as number[],
  reviews: new Map<number, number>(),
  /** Exercises made with a score (--s3): who may read it, its stored path and the bytes' hash. */
  uploads: [] as Array<{ token: string; exerciseId: number; path: string; sha: string }>,
};
const WITH_S3 = values.s3;

/** POST /api/exercises with one PNG (multipart), as the exercise form sends it. */
async function uploadScore(base: string, token: string) {
  const png = staffPng(200 + Math.floor(Math.random() * 400), 120);
  const form = new FormData();
  for (const [k, v] of Object.entries({ title: `Last-Noten ${randomBytes(3).toString('hex')}`, category: 'tonbildung', difficulty: 'leicht', estimated_minutes: '5', priority: '2', language: 'de' })) form.append(k, v);
  form.append('media_files[0]', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'Noten.png');
  const t0 = performance.now();
  let status = 0;
  try {
    const r = await fetch(`${base}/api/exercises`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    status = r.status;
    const json = (await r.json()) as { id?: number; media_files?: Array<{ path: string }> };
    if (status === 201 && json.id && json.media_files?.[0]) ack.uploads.push({ token, exerciseId: json.id, path: json.media_files[0].path, sha: createHash('sha256').update(png).digest('hex') });
  } catch (e) {
    (killWindow ? interrupted : errors).push(`teacher:upload: ${(e as Error).message}`);
  }
  samples.push({ action: 'teacher:upload', ms: performance.now() - t0, status });
  if (killWindow && (status === 502 || status === 503 || status === 504)) interrupted.push(`teacher:upload: ${status}`);
  else if (status && status !== 201) errors.push(`teacher:upload: ${status}`);
}

/** Every acknowledged upload, read back through the balancer: signed link, then the bytes. */
async function unreadableUploads(base: string): Promise<string[]> {
  const bad: string[] = [];
  for (const u of ack.uploads) {
    try {
      const link = await fetch(`${base}/api/media/${encodeURIComponent(u.path)}`, { headers: { authorization: `Bearer ${u.token}` } });
      const { url } = (await link.json()) as { url: string };
      const file = await fetch(`${base}${url}`);
      const sha = createHash('sha256').update(Buffer.from(await file.arrayBuffer())).digest('hex');
      if (file.status !== 200 || sha !== u.sha) bad.push(`${u.path}: ${file.status}${sha === u.sha ? '' : ', other bytes'}`);
    } catch (e) {
      bad.push(`${u.path}: ${(e as Error).message}`);
    }
  }
  return bad;
}

async function call(action: string, base: string, token: string | null, method: string, path: string, body?: unknown, expected: number[] = [200]) {
  const t0 = performance.now();
  let status = 0;
  let json: unknown = null;
  try {
    const r = await fetch(`${base}${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    status = r.status;
    const text = await r.text();
    json = text ? JSON.parse(text) : null;
  } catch (e) {
    (killWindow ? interrupted : errors).push(`${action}: ${(e as Error).message}`);
  }
  const ms = performance.now() - t0;
  samples.push({ action, ms, status });
  if (killWindow && (status === 502 || status === 503 || status === 504)) interrupted.push(`${action} ${method} ${path}: ${status}`);
  else if (status && !expected.includes(status)) errors.push(`${action} ${method} ${path}: ${status} ${JSON.stringify(json).slice(0, 200)}`);
  return { status, json };
}


const pick = <T>(list: T[]): T | undefined => list[Math.floor(Math.random() * list.length)];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const think = () => sleep(THINK_MS * (0.5 + Math.random()));
const isoDate = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

type Task = { id: number; status: string };

/** What a student's screen loaded first: their tasks. Then the student works until `until`. */
async function prepareStudent(base: string, token: string) {
  const list = await call('setup', base, token, 'GET', '/api/submissions');
  const open = ((list.json as Task[]) ?? []).filter((x) => x.status === 'open' || x.status === 'overdue').map((x) => x.id);
  const all = ((list.json as Task[]) ?? []).map((x) => x.id);
  return (until: number) => student(base, token, until, open, all);
}

async function student(base: string, token: string, until: number, openAtStart: number[], all: number[]) {
  let open = openAtStart;
  let running: { id: number; task: number } | null = null;
  while (Date.now() < until) {
    await think();
    if (Date.now() >= until) break;
    const r = Math.random();
    if (r < 0.3) await call('student:tasks', base, token, 'GET', '/api/submissions');
    else if (r < 0.45 && all.length) await call('student:task', base, token, 'GET', `/api/submissions/${pick(all)!}`);
    else if (r < 0.55) await call('student:metrics', base, token, 'GET', '/api/my-metrics');
    else if (r < 0.65) await call('student:calendar', base, token, 'GET', `/api/calendar-events?start=${isoDate(-35)}&end=${isoDate(35)}`);
    else if (r < 0.7) await call('student:courses', base, token, 'GET', '/api/courses');
    else if (r < 0.9) {
      if (running) {
        const res = await call('student:practice-stop', base, token, 'POST', `/api/practice-sessions/${running.id}/stop`);
        if (res.status === 200) ack.stops.push(running.id);
        running = null;
      } else if (open.length) {
        const task = pick(open)!;
        const res = await call('student:practice-start', base, token, 'POST', `/api/submissions/${task}/practice-sessions/start`, undefined, [201]);
        if (res.status === 201) {
          const id = (res.json as { id: number }).id;
          ack.starts.push(id);
          running = { id, task };
        }
      }
    } else if (open.length > 1) {
      const task = pick(open.filter((x) => x !== running?.task))!;
      const res = await call('student:complete', base, token, 'PATCH', `/api/submissions/${task}/complete`);
      if (res.status === 200) {
        ack.completions.push(task);
        open = open.filter((x) => x !== task);
      }
    }
  }
  if (running) {
    const res = await call('student:practice-stop', base, token, 'POST', `/api/practice-sessions/${running.id}/stop`);
    if (res.status === 200) ack.stops.push(running.id);
  }
}

/** What a teacher's screens loaded first: students, exercises, recent tasks. Then the teacher works. */
async function prepareTeacher(base: string, token: string) {
  const studentsRes = await call('setup', base, token, 'GET', '/api/students');
  const studentIds = ((studentsRes.json as { data: Array<{ id: number }> })?.data ?? []).map((s) => s.id);
  const exRes = await call('setup', base, token, 'GET', '/api/exercises');
  const exerciseIds = ((exRes.json as { exercises: Array<{ id: number }> })?.exercises ?? []).map((e) => e.id);
  const subs = await call('setup', base, token, 'GET', `/api/submissions?from=${isoDate(-30)}&to=${isoDate(0)}`);
  const reviewable = ((subs.json as Task[]) ?? []).map((s) => s.id);
  return (until: number) => teacher(base, token, until, studentIds, exerciseIds, reviewable);
}

async function teacher(base: string, token: string, until: number, studentIds: number[], exerciseIds: number[], reviewable: number[]) {
  let n = 0;
  while (Date.now() < until) {
    await think();
    if (Date.now() >= until) break;
    // --s3: one teacher action in five uploads a score (enough uploads to cross the kill)
    if (WITH_S3 && Math.random() < 0.2) {
      await uploadScore(base, token);
      continue;
    }
    const r = Math.random();
    if (r < 0.15) await call('teacher:students', base, token, 'GET', '/api/students');
    else if (r < 0.25) await call('teacher:exercises', base, token, 'GET', '/api/exercises');
    else if (r < 0.35) await call('teacher:tasks', base, token, 'GET', `/api/submissions?from=${isoDate(-7)}&to=${isoDate(7)}`);
    else if (r < 0.45) await call('teacher:calendar', base, token, 'GET', `/api/calendar-events?start=${isoDate(-35)}&end=${isoDate(35)}`);
    else if (r < 0.55) await call('teacher:dashboard', base, token, 'GET', '/api/dashboard');
    else if (r < 0.65 && studentIds.length) await call('teacher:overview', base, token, 'GET', `/api/students/${pick(studentIds)!}/overview`);
    else if (r < 0.75 && studentIds.length) await call('teacher:student-metrics', base, token, 'GET', `/api/students/${pick(studentIds)!}/metrics`);
    else if (r < 0.85 && studentIds.length && exerciseIds.length) {
      const users = [...new Set([pick(studentIds)!, pick(studentIds)!])];
      const res = await call(
        'teacher:assign',
        base,
        token,
        'POST',
        '/api/submissions',
        { exercise_id: pick(exerciseIds)!, due_date: isoDate(1 + (n++ % 20)), assignees: { users }, expiration_days: 3, teacher_note: 'Lasttest' },
        [201],
      );
      if (res.status === 201) ack.tasks.push(...(res.json as { submissions: Array<{ id: number }> }).submissions.map((s) => s.id));
    } else if (r < 0.95 && reviewable.length) {
      const id = pick(reviewable)!;
      const score = Math.floor(Math.random() * 101);
      const res = await call('teacher:review', base, token, 'PATCH', `/api/submissions/${id}/review`, { accuracy_score: score, competency_level: 'intermediate', teacher_feedback: 'Gut gemacht' });
      if (res.status === 200) ack.reviews.set(id, score);
    } else {
      const res = await call('teacher:course', base, token, 'POST', '/api/courses', { name: `Lastkurs ${randomBytes(3).toString('hex')}` }, [201]);
      if (res.status === 201) ack.courses.push((res.json as { id: number }).id);
    }
  }
}

function pct(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

function stats(list: Sample[]) {
  const ms = list.map((s) => s.ms).sort((a, b) => a - b);
  const r = (v: number) => Math.round(v * 10) / 10;
  return { count: ms.length, p50: r(pct(ms, 50)), p95: r(pct(ms, 95)), p99: r(pct(ms, 99)), max: r(ms[ms.length - 1] ?? 0) };
}

/** CPU seconds (user + system) the process has used so far. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : 0;
  } catch {
    return 0;
  }
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'uk-load-'));
  let dbName: string | null = null;
  let dbUrl: string | undefined;
  if (PG_URL) {
    dbName = `uk_load_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const u = new URL(PG_URL);
    u.pathname = `/${dbName}`;
    dbUrl = u.toString();
  }
  const openDb = async (): Promise<DbHandle> => (dbUrl ? openPostgres(dbUrl, 2) : openPglite(join(dataDir, 'pgdata')));
  let server: Server | null = null;
  const others: Server[] = [];
  let balancer: { url: string; stop: () => Promise<void> } | null = null;
  let s3: TestS3 | null = null;
  try {
    if (WITH_S3) {
      s3 = await startS3Server();
      console.log(`media on S3 (s3rver at ${s3.env.S3_ENDPOINT}, bucket ${s3.bucket})`);
    }
    console.log(`load: ${USERS} users (${TEACHERS} teachers, ${STUDENTS} students) for ${SECONDS} s on ${dbUrl ? 'PostgreSQL' : 'PGlite'}, think time ~${THINK_MS} ms`);
    const seedHandle = await openDb();
    await migrateDb(seedHandle);
    await seedScale(seedHandle.db, preset);
    await seedHandle.close();

    const serverEnv = {
      DATA_DIR: dataDir,
      DEMO_SEED: 'false',
      ...(dbUrl ? { DATABASE_URL: dbUrl } : {}),
      ...(s3 ? s3.env : {}),
      APP_SECRET: randomBytes(32).toString('base64url'),
    };
    server = await startServer(serverEnv);
    let base = server.url;
    if (PROCESSES > 1) {
      for (let i = 1; i < PROCESSES; i++) others.push(await startServer(serverEnv));
      balancer = await startHaproxy([server, ...others].map((s) => s.url));
      base = balancer.url;
      console.log(`${PROCESSES} server processes behind haproxy on ${base}`);
    }

    // Everyone signs in (argon2: a few at a time, like a school arriving in the morning).
    const t0 = Date.now();
    const accounts = [
      ...Array.from({ length: TEACHERS }, (_, i) => ({ role: 'teacher' as const, email: teacherEmail(i + 1) })),
      ...Array.from({ length: STUDENTS }, (_, i) => ({ role: 'student' as const, email: studentEmail(i + 1) })),
    ];
    const tokens: Array<{ role: 'teacher' | 'student'; token: string }> = [];
    for (let i = 0; i < accounts.length; i += 8) {
      const batch = await Promise.all(
        accounts.slice(i, i + 8).map(async (a) => {
          const r = await call('login', base, null, 'POST', '/api/login', { email: a.email, password: BENCH_PASSWORD });
          return r.status === 200 ? { role: a.role, token: (r.json as { token: string }).token } : null;
        }),
      );
      for (const b of batch) if (b) tokens.push(b);
    }
    console.log(`signed in ${tokens.length}/${accounts.length} users in ${Date.now() - t0} ms`);

    const loginSamples = samples.length;
    // Each user's first screen (their lists), 20 at a time, before the clock starts.
    const workers: Array<(until: number) => Promise<void>> = [];
    for (let i = 0; i < tokens.length; i += 20)
      workers.push(...(await Promise.all(tokens.slice(i, i + 20).map((u) => (u.role === 'teacher' ? prepareTeacher(base, u.token) : prepareStudent(base, u.token))))));
    const setupSamples = samples.length;
    let peakRss = rssMb(server.pid);
    // Once a second: the server's memory, its CPU use and how long /api/health (one `select 1`) takes.
    const timeline: Array<{ s: number; cpu_pct: number; health_ms: number }> = [];
    let lastCpu = cpuSeconds(server.pid);
    let probing = false;
    const rssTimer = setInterval(() => {
      peakRss = Math.max(peakRss, rssMb(server!.pid));
      const cpu = cpuSeconds(server!.pid);
      const cpuPct = Math.round((cpu - lastCpu) * 100);
      lastCpu = cpu;
      if (probing) return;
      probing = true;
      const t = performance.now();
      const at = Math.round((Date.now() - started) / 1000);
      void fetch(`${base}/api/health`)
        .then((r) => r.text())
        .catch(() => '')
        .finally(() => {
          timeline.push({ s: at, cpu_pct: cpuPct, health_ms: Math.round(performance.now() - t) });
          probing = false;
        });
    }, 1000);
    const started = Date.now();
    const until = started + SECONDS * 1000;
    let killed: Promise<void> = Promise.resolve();
    if (KILL_ONE) {
      // Halfway: one process (not the one measured for memory) dies without warning and comes back.
      killed = sleep((SECONDS * 1000) / 2).then(async () => {
        const victim = others[0]!;
        const port = new URL(victim.url).port;
        killWindow = true;
        const t = Date.now();
        await stopServer(victim, 'SIGKILL');
        others[0] = await startServer({ ...serverEnv, PORT: port });
        console.log(`killed one process with -9 and started it again in ${Date.now() - t} ms`);
        // the balancer's checks (1 s) bring it back; calls already failing on it are done by then
        await sleep(2500);
        killWindow = false;
      });
    }
    await Promise.all(workers.map((run) => run(until)));
    await killed;
    const elapsed = (Date.now() - started) / 1000;
    clearInterval(rssTimer);
    // every acknowledged upload readable afterwards, through the balancer (any process)
    const unreadable = WITH_S3 ? await unreadableUploads(base) : [];
    if (balancer) await balancer.stop();
    balancer = null;
    for (const o of others) await stopServer(o);
    others.length = 0;
    await stopServer(server);
    server = null;

    // Every acknowledged write, in the database.
    const handle = await openDb();
    const lost: string[] = [];
    try {
      const db = handle.db;
      const list = (ids: number[]) => sql.raw(ids.length ? ids.map((n) => String(Math.trunc(n))).join(',') : '0');
      const count = async (q: ReturnType<typeof sql>) => (await rows<{ n: number }>(db, q))[0]?.n ?? 0;
      const check = async (what: string, expected: number, found: number) => {
        if (expected !== found) lost.push(`${what}: acknowledged ${expected}, found ${found}`);
      };
      await check('tasks created', ack.tasks.length, await count(sql`select count(*)::int as n from submissions where id in (${list(ack.tasks)})`));
      await check('courses created', ack.courses.length, await count(sql`select count(*)::int as n from courses where id in (${list(ack.courses)})`));
      await check('practice started', ack.starts.length, await count(sql`select count(*)::int as n from practice_sessions where id in (${list(ack.starts)})`));
      await check('practice stopped', ack.stops.length, await count(sql`select count(*)::int as n from practice_sessions where id in (${list(ack.stops)}) and ended_at is not null`));
      await check('tasks completed', ack.completions.length, await count(sql`select count(*)::int as n from submissions where id in (${list(ack.completions)}) and completed_at is not null`));
      let reviewsFound = 0;
      for (const [id, score] of ack.reviews) reviewsFound += await count(sql`select count(*)::int as n from submissions where id = ${id} and accuracy_score = ${score}`);
      await check('reviews', ack.reviews.size, reviewsFound);
      const drift = await count(
        sql`select count(*)::int as n from submissions s where abs(s.time_spent_minutes - coalesce((select round(sum(p.duration_minutes)::numeric, 2) from practice_sessions p where p.submission_id = s.id and p.ended_at is not null), 0)) > 0.005`,
      );
      if (drift) lost.push(`time spent differs from the finished sessions on ${drift} tasks`);
      await check('scores uploaded', ack.uploads.length, await count(sql`select count(*)::int as n from exercises where id in (${list(ack.uploads.map((u) => u.exerciseId))})`));
      for (const u of unreadable) lost.push(`upload not readable: ${u}`);
    } finally {
      await handle.close();
    }

    const run = samples.slice(setupSamples);
    const byAction = new Map<string, Sample[]>();
    for (const s of run) byAction.set(s.action, [...(byAction.get(s.action) ?? []), s]);
    const writes = ack.tasks.length + ack.courses.length + ack.starts.length + ack.stops.length + ack.completions.length + ack.reviews.size + ack.uploads.length;
    const report = {
      users: USERS,
      seconds: Math.round(elapsed * 10) / 10,
      database: dbUrl ? 'postgres' : 'pglite',
      processes: PROCESSES,
      killed_one: KILL_ONE,
      interrupted_by_the_kill: interrupted.length,
      interrupted_samples: interrupted.slice(0, 5),
      requests: run.length,
      requests_per_second: Math.round(run.length / elapsed),
      errors: errors.length,
      acknowledged_writes: writes,
      lost_writes: lost,
      latency_ms: stats(run),
      login_ms: stats(samples.slice(0, loginSamples)),
      first_screen_ms: stats(samples.slice(loginSamples, setupSamples)),
      server_peak_rss_mb: peakRss,
      server_cpu_pct_avg: timeline.length ? Math.round(timeline.reduce((a, x) => a + x.cpu_pct, 0) / timeline.length) : 0,
      health_probe_ms: stats(timeline.map((x) => ({ action: 'health', ms: x.health_ms, status: 200 }))),
      stalls_over_2s: timeline.filter((x) => x.health_ms > 2000),
      by_action: Object.fromEntries([...byAction.entries()].sort().map(([k, v]) => [k, stats(v)])),
      media_store: WITH_S3 ? 's3' : 'local',
      acknowledged: { tasks: ack.tasks.length, courses: ack.courses.length, practice_starts: ack.starts.length, practice_stops: ack.stops.length, completions: ack.completions.length, reviews: ack.reviews.size, uploads: ack.uploads.length },
      error_samples: errors.slice(0, 10),
    };
    console.log(JSON.stringify(report, null, 2));
    console.log(
      `\n${run.length} requests in ${report.seconds} s (${report.requests_per_second}/s), ${errors.length} errors, ${writes} acknowledged writes, ${lost.length ? `LOST: ${lost.join('; ')}` : 'none lost'}; ` +
        `p50 ${report.latency_ms.p50} ms, p95 ${report.latency_ms.p95} ms, p99 ${report.latency_ms.p99} ms; server peak RSS ${peakRss} MB`,
    );
    return errors.length === 0 && lost.length === 0 && tokens.length === accounts.length ? 0 : 1;
  } finally {
    if (balancer) await balancer.stop();
    for (const o of others) await stopServer(o, 'SIGKILL');
    if (server) await stopServer(server, 'SIGKILL');
    if (s3) await s3.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (dbName && PG_URL) {
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      await admin.end();
    }
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
