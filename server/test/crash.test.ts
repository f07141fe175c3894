import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite, openPostgres, rows } from '../db/client';
import { hashToken } from '../lib/auth';
import { staffPng } from '../modules/media/sample-files';
import { client, freshPgDatabase, listFiles, REPO_ROOT, startServer, stopServer, type Server } from './crash-helpers';

/**
 * kill -9 of the real server (own process, real port on loopback) in the middle of a burst of
 * writes – sign-ins (tokens), courses, task series, practice start/stop, uploads – on the database
 * this run uses (PGlite, or PostgreSQL with TEST_DATABASE_URL). After a restart every acknowledged
 * write is there, and nothing is half-written: every task series complete, every media row with its
 * file and every file with its row, no temporary upload left, time spent equal to the sessions.
 */

const KIND = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
let dataDir: string;
let pgDb: Awaited<ReturnType<typeof freshPgDatabase>>;
let env: Record<string, string>;
let server: Server | null = null;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'uk-crash-'));
  pgDb = await freshPgDatabase();
  env = { DATA_DIR: dataDir, DEMO_SEED: 'true', ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) };
});
afterAll(async () => {
  if (server) await stopServer(server, 'SIGKILL');
  await pgDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

type Ledger = {
  tokens: string[];
  courses: number[];
  series: number[][];
  sessions: Array<{ id: number; submissionId: number }>;
  uploads: Array<{ exerciseId: number; path: string; size: number }>;
};

const today = () => new Date().toISOString().slice(0, 10);
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const SERIES_LENGTH = 5; // daily, 5 dates
const SERIES_STUDENTS = 2;

async function signIn(base: string, email: string) {
  const r = await client(base).json<{ token: string }>('POST', '/api/login', { email, password: 'demo1234' });
  if (r.status !== 200) throw new Error(`login ${email}: ${r.status}`);
  return r.body.token;
}

/** Runs writers against the server until it dies; records only what the server acknowledged. */
async function burst(s: Server, ledger: Ledger, round: number) {
  const base = s.url;
  const teacher = client(base, await signIn(base, 'lehrer@example.com'));
  const ayseToken = await signIn(base, 'ayse@example.com');
  const ayse = client(base, ayseToken);
  const students = (await teacher.json<{ data: Array<{ id: number; email: string }> }>('GET', '/api/students')).body.data;
  const assignees = students.slice(0, SERIES_STUDENTS).map((x) => x.id);
  const exercises = (await teacher.json<{ exercises: Array<{ id: number }> }>('GET', '/api/exercises')).body.exercises;
  const openTasks = (await ayse.json<Array<{ id: number; status: string }>>('GET', '/api/submissions')).body.filter((x) => x.status === 'open' || x.status === 'overdue').map((x) => x.id);
  expect(openTasks.length).toBeGreaterThan(0);

  let dead = false;
  void s.exited.then(() => (dead = true));
  const counts = { logins: 0, courses: 0, tasks: 0, practice: 0, uploads: 0 };
  const loop = async (name: keyof typeof counts, step: (i: number) => Promise<void>) => {
    for (let i = 0; !dead; i++) {
      try {
        await step(i);
        counts[name]++;
      } catch {
        if (dead) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const png = staffPng(120, 60);
  const workers = [
    loop('logins', async (i) => {
      const r = await client(base).json<{ token: string }>('POST', '/api/login', { email: i % 2 ? 'lukas@example.com' : 'elif@example.com', password: 'demo1234' });
      if (r.status === 200) ledger.tokens.push(r.body.token);
    }),
    loop('courses', async (i) => {
      const r = await teacher.json<{ id: number }>('POST', '/api/courses', { name: `Crash ${round}-${i}` });
      if (r.status === 201) ledger.courses.push(r.body.id);
    }),
    ...[0, 1].map((w) =>
      loop('tasks', async (i) => {
        const due = addDays(today(), 40 + round * 200 + w * 100 + i);
        const r = await teacher.json<{ submissions: Array<{ id: number }> }>('POST', '/api/submissions', {
          exercise_id: exercises[(i + w) % exercises.length]!.id,
          due_date: due,
          recurrence_type: 'daily',
          recurrence_end_date: addDays(due, SERIES_LENGTH - 1),
          assignees: { users: assignees },
          expiration_days: 2,
          teacher_note: 'crash-burst',
        });
        if (r.status === 201) ledger.series.push(r.body.submissions.map((x) => x.id));
      }),
    ),
    loop('practice', async (i) => {
      const sid = openTasks[i % openTasks.length]!;
      const start = await ayse.json<{ id: number; session?: { id: number } }>('POST', `/api/submissions/${sid}/practice-sessions/start`);
      const sessionId = start.status === 201 ? start.body.id : start.body.session?.id;
      if (!sessionId) return;
      const stop = await ayse.json<{ id: number; ended_at: string | null }>('POST', `/api/practice-sessions/${sessionId}/stop`);
      if (stop.status === 200 && stop.body.ended_at) ledger.sessions.push({ id: sessionId, submissionId: sid });
    }),
    ...[0, 1].map((w) =>
      loop('uploads', async (i) => {
        const fd = new FormData();
        fd.append('title', `Crash-Upload ${round}-${w}-${i}`);
        const bytes = Buffer.concat([png, Buffer.alloc(50_000 + i * 1000, i % 251)]);
        fd.append('media_files[0]', new Blob([bytes], { type: 'image/png' }), `crash-${i}.png`);
        const r = await teacher.form<{ id: number; media_files: Array<{ path: string; size: number }> }>('/api/exercises', fd);
        if (r.status === 201) ledger.uploads.push({ exerciseId: r.body.id, path: r.body.media_files[0]!.path, size: r.body.media_files[0]!.size });
      }),
    ),
  ];
  // Let the writers run, then kill the server while they are mid-flight.
  const started = Date.now();
  while (Date.now() - started < 20_000 && (Date.now() - started < 1500 || Object.values(counts).some((c) => c < 1))) await new Promise((r) => setTimeout(r, 50));
  process.kill(s.pid, 'SIGKILL');
  await s.exited;
  dead = true;
  await Promise.all(workers);
  return counts;
}

/** Sends the head and part of an upload, then drops the connection. */
async function abortedUpload(base: string, token: string, fraction: number) {
  const fd = new FormData();
  fd.append('title', 'abgebrochen');
  fd.append('media_files[0]', new Blob([Buffer.concat([staffPng(50, 20), Buffer.alloc(2_000_000, 3)])], { type: 'image/png' }), 'gross.png');
  const res = new Response(fd);
  const payload = Buffer.from(await res.arrayBuffer());
  const { port } = new URL(base);
  await new Promise<void>((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => {
      socket.write(
        `POST /api/exercises HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${res.headers.get('content-type')}\r\nContent-Length: ${payload.length}\r\n\r\n`,
      );
      socket.write(payload.subarray(0, Math.floor(payload.length * fraction)), () =>
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 200),
      );
    });
    socket.on('error', reject);
  });
}

describe(`crash safety on ${KIND}`, () => {
  it('every acknowledged write survives kill -9 during a burst of writes, and nothing is half-written', { timeout: 240_000 }, async () => {
    const ledger: Ledger = { tokens: [], courses: [], series: [], sessions: [], uploads: [] };
    const mediaDir = join(dataDir, 'media');

    server = await startServer(env);
    // an upload the client abandons mid-body leaves nothing behind on a live server
    const teacherToken = await signIn(server.url, 'lehrer@example.com');
    const filesBefore = listFiles(mediaDir);
    for (const f of [0.2, 0.7]) await abortedUpload(server.url, teacherToken, f);
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && [...listFiles(mediaDir).keys()].join() !== [...filesBefore.keys()].join()) await new Promise((r) => setTimeout(r, 100));
    expect([...listFiles(mediaDir).keys()]).toEqual([...filesBefore.keys()]);

    const rounds: Array<Record<string, number>> = [];
    for (let round = 0; round < 2; round++) {
      if (round > 0) server = await startServer(env);
      rounds.push(await burst(server, ledger, round));
    }
    console.log(`crash rounds on ${KIND}: ${JSON.stringify(rounds)}; acknowledged: tokens ${ledger.tokens.length}, courses ${ledger.courses.length}, task series ${ledger.series.length}, stopped sessions ${ledger.sessions.length}, uploads ${ledger.uploads.length}`);
    expect(ledger.series.length).toBeGreaterThan(0);
    expect(ledger.uploads.length).toBeGreaterThan(0);

    // Restart: every acknowledged write answers through the API.
    server = await startServer(env);
    const base = server.url;
    for (const token of ledger.tokens) expect((await client(base, token).json('GET', '/api/user')).status).toBe(200);
    const teacher = client(base, await signIn(base, 'lehrer@example.com'));
    for (const u of ledger.uploads) {
      const ex = await teacher.json<{ media_files: Array<{ path: string; size: number }> }>('GET', `/api/exercises/${u.exerciseId}`);
      expect(ex.status).toBe(200);
      expect(ex.body.media_files.map((m) => m.path)).toContain(u.path);
      const link = await teacher.json<{ url: string }>('GET', `/api/media/${encodeURIComponent(u.path)}`);
      expect(link.status).toBe(200);
      const file = await fetch(`${base}${link.body.url}`);
      expect(file.status).toBe(200);
      expect((await file.arrayBuffer()).byteLength).toBe(u.size);
    }
    // a few acknowledged tasks through the API as well (all of them are checked in SQL below)
    for (const id of ledger.series.map((x) => x[0]!).slice(0, 10)) expect((await teacher.json('GET', `/api/submissions/${id}`)).status, `task ${id}`).toBe(200);
    await stopServer(server);
    server = null;

    // Directly in the database and the media folder: nothing half-written.
    const handle = pgDb ? await openPostgres(pgDb.url, 2) : await openPglite(join(dataDir, 'pgdata'));
    try {
      const db = handle.db;
      const hashes = new Set((await rows<{ token_hash: string }>(db, sql`select token_hash from tokens`)).map((r) => r.token_hash));
      expect(ledger.tokens.filter((tk) => !hashes.has(hashToken(tk)))).toEqual([]);
      const ids = (list: number[]) => sql.raw(list.length ? list.map((n) => String(Math.trunc(n))).join(',') : '0');
      const [courseCount] = await rows<{ n: number }>(db, sql`select count(*)::int as n from courses where id in (${ids(ledger.courses)})`);
      expect(courseCount!.n, 'acknowledged courses').toBe(ledger.courses.length);
      const taskIds = ledger.series.flat();
      const [taskCount] = await rows<{ n: number }>(db, sql`select count(*)::int as n from submissions where id in (${ids(taskIds)})`);
      expect(taskCount!.n, 'acknowledged tasks').toBe(taskIds.length);
      const sessionIds = ledger.sessions.map((x) => x.id);
      const [stopped] = await rows<{ n: number }>(db, sql`select count(*)::int as n from practice_sessions where id in (${ids(sessionIds)}) and ended_at is not null and duration_minutes is not null`);
      expect(stopped!.n, 'acknowledged stopped sessions').toBe(sessionIds.length);
      const partial = await rows<{ series_id: string; n: number }>(
        db,
        sql`select series_id, count(*)::int as n from submissions where teacher_note = 'crash-burst' group by series_id having count(*) <> ${SERIES_LENGTH * SERIES_STUDENTS}`,
      );
      expect(partial, 'task series written only in part').toEqual([]);
      const drift = await rows<{ id: number }>(
        db,
        sql`select s.id from submissions s where abs(s.time_spent_minutes - coalesce((select round(sum(p.duration_minutes)::numeric, 2) from practice_sessions p where p.submission_id = s.id and p.ended_at is not null), 0)) > 0.005`,
      );
      expect(drift, 'time spent differs from the finished sessions').toEqual([]);
      const media = await rows<{ path: string; size: number }>(db, sql`select path, size from media_files`);
      const onDisk = listFiles(mediaDir);
      const rowWithoutFile = media.filter((m) => onDisk.get(m.path) !== Number(m.size)).map((m) => m.path);
      expect(rowWithoutFile, 'media rows without their file').toEqual([]);
      const known = new Set(media.map((m) => m.path));
      const leftovers = [...onDisk.keys()].filter((p) => !known.has(p));
      expect(leftovers, 'files without a media row (orphans or temporary upload files)').toEqual([]);
    } finally {
      await handle.close();
    }
  });

  it(
    KIND === 'pglite' ? 'the CLI refuses the embedded database while the server runs' : 'the CLI backs up PostgreSQL online while the server runs',
    { timeout: 120_000 },
    async () => {
      server = await startServer(env);
      const archive = join(dataDir, 'online-backup.tar.gz');
      const cli = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli.ts', 'backup', archive], {
        cwd: REPO_ROOT,
        env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
        timeout: 90_000,
      });
      if (KIND === 'pglite') {
        expect(cli.status).toBe(1);
        expect(cli.stderr).toMatch(/in use by another process/);
        expect(existsSync(archive)).toBe(false);
      } else {
        expect(cli.status, cli.stderr).toBe(0);
        expect(existsSync(archive)).toBe(true);
      }
      expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
      await stopServer(server);
      server = null;
    },
  );
});
