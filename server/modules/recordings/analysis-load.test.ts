import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { storeTrack } from '@contract/listening/analyze';
import { encodeTrack } from '@contract/listening/encoding';
import type { StoredTrack } from '@contract/listening/schema';
import { planTake, synthTrack } from '@contract/listening/testing/synth';
import { HOP_MS, MAX_SECONDS, type PitchTrack } from '@contract/listening/track';
import { ANALYSIS_LIMITS } from '@contract/recording-analysis';
import { rows } from '../../db/client';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';

/**
 * What one take's analysis may cost the server (docs/decisions/listening.md, "What a report may
 * cost"): the longest take the browser sends — 60 minutes at its 20-ms hop, the most frames
 * ANALYSIS_LIMITS allows — is decoded and analysed in a worker thread, so the event loop that
 * answers everyone else is never held by it for more than 50 ms.
 *
 * Two measurements. The strict one: the CPU time this (the main) thread spends on each request —
 * a PUT that stores the take (201), the same PUT again (200, stored), a GET after the exercise
 * changed (computed again) — must stay under 50 ms; no event-loop turn of a request can be longer
 * than all of them together, and unlike a clock it does not count the time another process on a
 * busy machine had the core. The one a user sees: three students send such a take at once, send
 * it again, the teacher reads it after a change, while /api/health is asked one request after the
 * other; perf_hooks.monitorEventLoopDelay and the slowest /api/health answer show the stalls
 * (the machine's own hiccups included, hence a looser bound there).
 *
 * The same test against the code that computed the report on the main thread: 370–440 ms of this
 * thread's CPU per PUT (stored or not) and GET, a max event-loop delay of 2.7–4.4 s, 17–21
 * /api/health answers in 8–13 s (docs/decisions/listening.md has the figures).
 */

let t: TestApp;
let teacher: TestUser;

withTestApp(async (app) => {
  t = app;
  teacher = await app.teacher();
});

/** A 60-minute Hicaz take at the browser's hop: seyir walks, vibrato, glides, jitter; its notes' starts as onsets. */
function longTake(seed: number): PitchTrack {
  const take = planTake({ seed, makam: 'hicaz', notes: 8200 });
  const track = synthTrack(take, seed, HOP_MS);
  const frames = Math.min(track.f0.length, (MAX_SECONDS * 1000) / HOP_MS);
  const endMs = frames * HOP_MS;
  return { hopMs: HOP_MS, f0: track.f0.slice(0, frames), onsetsMs: take.notes.map((n) => Math.round(n.startMs)).filter((ms) => ms < endMs) };
}

/**
 * CPU time of this thread so far (ms), or null where it cannot be read: Linux's per-thread
 * counters (clock ticks of 10 ms) for the process's main thread, where vitest's forks run a file.
 */
function mainThreadCpuMs(): number | null {
  if (!isMainThread || process.platform !== 'linux') return null;
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime + stime, USER_HZ = 100
  } catch {
    return null;
  }
}

async function recordingOf(student: TestUser, durationMs: number) {
  const e = await t.exercise(teacher, { makam: 'hicaz', tempoBpm: 90, tempoUnit: 'quarter' });
  const s = await t.submission(student, teacher, e);
  const [r] = await rows<{ id: number }>(
    t.db,
    sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms)
        values (${s.id}, ${student.id}, ${teacher.id}, 'audio', 'audio/webm', ${`recordings/${s.id}/${randomBytes(16).toString('hex')}.webm`}, 'take.webm', 1000, ${durationMs}) returning id`,
  );
  t.forgetReads();
  return { id: r!.id, exerciseId: e.id };
}

/** The body as JSON text made before the request: the test's own JSON.stringify is not the server's work. */
const bodyOf = (track: StoredTrack) => JSON.stringify({ track });
const put = (id: number, who: TestUser, body: string) =>
  t.app.inject({ method: 'PUT', url: `/api/recordings/${id}/analysis`, headers: { ...who.headers, 'content-type': 'application/json' }, payload: body });
const get = (id: number) => t.app.inject({ method: 'GET', url: `/api/recordings/${id}/analysis`, headers: teacher.headers });

async function changeExercise(exerciseId: number) {
  await t.db.execute(sql`update exercises set makam = 'rast' where id = ${exerciseId}`);
  t.forgetReads();
}

/** One take through the three requests, each measured alone: its status, this thread's CPU, its wall time. */
async function oneByOne(stored: string) {
  const student = await t.student(teacher);
  const r = await recordingOf(student, MAX_SECONDS * 1000);
  const out: Array<{ what: string; status: number; cpuMs: number | null; wallMs: number }> = [];
  const measure = async (what: string, call: () => Promise<{ statusCode: number }>) => {
    const cpu = mainThreadCpuMs();
    const wall = performance.now();
    const res = await call();
    const after = mainThreadCpuMs();
    out.push({ what, status: res.statusCode, cpuMs: cpu === null || after === null ? null : after - cpu, wallMs: Math.round(performance.now() - wall) });
  };
  await measure('PUT (stored: 201)', () => put(r.id, student, stored));
  await measure('PUT again (200)', () => put(r.id, student, stored));
  await changeExercise(r.exerciseId);
  await measure('GET after a change (computed again)', () => get(r.id));
  return out;
}

type Round = { maxDelayMs: number; p99DelayMs: number; health: number; slowestHealthMs: number; statuses: number[]; ms: number };

/**
 * Three students PUT the long take at once (201), again (200, stored), the teacher changes the
 * exercises and reads the analyses (computed again); /api/health is asked all the while, one
 * request after the other.
 */
async function round(stored: string): Promise<Round> {
  const students = await Promise.all([0, 1, 2].map(() => t.student(teacher)));
  const recs = await Promise.all(students.map((s) => recordingOf(s, MAX_SECONDS * 1000)));
  const h = monitorEventLoopDelay({ resolution: 5 });
  let running = true;
  let health = 0;
  let slowestHealthMs = 0;
  const started = performance.now();
  h.enable();
  const healthLoop = (async () => {
    while (running) {
      const s = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - s);
      health++;
    }
  })();
  const statuses: number[] = [];
  try {
    for (let k = 0; k < 2; k++) {
      const sent = await Promise.all(recs.map((r, i) => put(r.id, students[i]!, stored)));
      for (const r of sent) if (r.statusCode >= 300) console.error(r.statusCode, r.body);
      statuses.push(...sent.map((r) => r.statusCode));
    }
    for (const r of recs) await changeExercise(r.exerciseId);
    const read = await Promise.all(recs.map((r) => get(r.id)));
    for (const r of read) if (r.statusCode >= 300) console.error(r.statusCode, r.body);
    statuses.push(...read.map((r) => r.statusCode));
    for (const r of read) expect((r.json() as { settings: { makam: string } }).settings.makam).toBe('rast');
  } finally {
    running = false;
    await healthLoop;
    h.disable();
  }
  return { maxDelayMs: h.max / 1e6, p99DelayMs: h.percentile(99) / 1e6, health, slowestHealthMs, statuses, ms: performance.now() - started };
}

describe('the longest take the browser sends does not hold the event loop', () => {
  const track = storeTrack(longTake(11));
  const stored = bodyOf(track);

  beforeAll(async () => {
    expect(track.frames).toBe((MAX_SECONDS * 1000) / HOP_MS);
    expect(track.frames).toBeLessThanOrEqual(ANALYSIS_LIMITS.maxFrames);
    expect(encodeTrack(longTake(11)).length).toBeLessThan(ANALYSIS_LIMITS.maxTrackBytes);
    // warm: the worker started and every path of the three requests run once
    await oneByOne(stored);
  }, 120_000);

  it('each request of a 60-minute take costs this thread under 50 ms of CPU', { timeout: 180_000 }, async () => {
    // three takes; per request the median of three is held to the bound (a GC of the test's own
    // large heap can land in any one of them), every figure is shown
    const byWhat = new Map<string, number[]>();
    for (let i = 0; i < 3; i++) {
      for (const m of await oneByOne(stored)) {
        console.info(`analysis load, one by one: ${m.what} ${m.status}, main thread ${m.cpuMs ?? '?'} ms of CPU, ${m.wallMs} ms in all`);
        expect(m.status).toBe(m.what.startsWith('PUT (') ? 201 : 200);
        if (m.cpuMs !== null) byWhat.set(m.what, [...(byWhat.get(m.what) ?? []), m.cpuMs]);
      }
    }
    if (mainThreadCpuMs() === null) return; // no per-thread counters here: the round below still measures
    expect(byWhat.size).toBe(3);
    for (const [what, ms] of byWhat) expect([...ms].sort((a, b) => a - b)[1], `${what}: ${ms.join(', ')} ms`).toBeLessThan(50);
  });

  it('three at once, sent again, read after a change: /api/health keeps answering', { timeout: 240_000 }, async () => {
    // A stall the requests cause shows in every round; the machine's own hiccups (another
    // process, a GC) do not: the best of three rounds is held to the bounds, every round is shown.
    const rounds: Round[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await round(stored);
      rounds.push(r);
      console.info(
        `analysis load, three at once, round ${i + 1}: max event-loop delay ${r.maxDelayMs.toFixed(1)} ms (p99 ${r.p99DelayMs.toFixed(1)}), ` +
          `${r.health} /api/health answers in ${(r.ms / 1000).toFixed(1)} s, slowest ${r.slowestHealthMs.toFixed(1)} ms`,
      );
      expect(r.statuses).toEqual([201, 201, 201, 200, 200, 200, 200, 200, 200]);
      if (r.maxDelayMs < 50) break;
    }
    const best = rounds.reduce((a, b) => (b.maxDelayMs < a.maxDelayMs ? b : a));
    // The main-thread code stalled 2.7–4.4 s in every round on this machine. The clock also counts
    // the time other processes had the cores (64–570 ms seen with a load average of 12 on two):
    // the bound here is loose, the CPU per request above is the strict one.
    // The slowest single /api/health is shown, not bounded: it waits on the database too, which
    // on PostgreSQL under the suite's other files took over 1 s with no stall of the event loop.
    expect(best.maxDelayMs, JSON.stringify(rounds)).toBeLessThan(1000);
    // and answered: hundreds of /api/health a second (the main-thread code: two)
    expect(best.health / (best.ms / 1000), JSON.stringify(rounds)).toBeGreaterThan(50);
  });
});
