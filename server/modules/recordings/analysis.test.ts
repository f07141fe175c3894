import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeTrack } from '@contract/listening/analyze';
import { encodeTrack, toBase64 } from '@contract/listening/encoding';
import type { StoredTrack } from '@contract/listening/schema';
import { planTake, rng, synthTrack } from '@contract/listening/testing/synth';
import { HOP_MS, MAX_SECONDS, type PitchTrack } from '@contract/listening/track';
import { ANALYSIS_LIMITS, type RecordingAnalysis } from '@contract/recording-analysis';
import { rows } from '../../db/client';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { analysisMessages } from './analysis.service';
import { analysisWorkerStats, setAnalysisWorkerLimits } from './analysis-pool';

/**
 * A take's analysis (docs/decisions/listening.md, "Where it runs"): a browser PUTs the track, the
 * server computes the report from it and the exercise's settings; who may read and send it; what it
 * refuses; it goes with the take.
 */

let t: TestApp;
let teacher: TestUser;
let student: TestUser;
let sibling: TestUser;
let parent: TestUser;
let otherParent: TestUser;
let otherTeacher: TestUser;

beforeAll(async () => {
  t = await setupTestApp();
  teacher = await t.teacher();
  otherTeacher = await t.teacher();
  student = await t.student(teacher);
  sibling = await t.student(teacher);
  parent = await t.guardian([student]);
  otherParent = await t.guardian([sibling]);
});
afterAll(async () => {
  await t.close();
});

/** A Hicaz take as a pitch track (seyir, vibrato, glides, jitter), with its notes' starts as onsets. */
function hicazTrack(seed = 7): { track: PitchTrack; tonicHz: number } {
  const take = planTake({ seed, makam: 'hicaz', notes: 30 });
  const track = synthTrack(take, seed);
  return { track: { ...track, onsetsMs: take.notes.map((n) => Math.round(n.startMs)) }, tonicHz: take.tonicHz };
}

/** A recording of the student (row only: the analysis never reads the file) on a task whose exercise has these settings. */
async function recording(o: { makam?: string | null; durationMs?: number; tempo?: number | null; of?: TestUser } = {}) {
  const e = await t.exercise(teacher, { makam: o.makam === undefined ? 'hicaz' : o.makam, tempoBpm: o.tempo ?? null, tempoUnit: o.tempo ? 'quarter' : null });
  const s = await t.submission(o.of ?? student, teacher, e);
  const [r] = await rows<{ id: number }>(
    t.db,
    sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms)
        values (${s.id}, ${(o.of ?? student).id}, ${teacher.id}, 'audio', 'audio/wav', ${`recordings/${s.id}/${randomBytes(16).toString('hex')}.wav`}, 'take.wav', 1000, ${o.durationMs ?? 120_000}) returning id`,
  );
  t.forgetReads();
  return { id: r!.id, exerciseId: e.id };
}

const call = (method: 'GET' | 'PUT' | 'DELETE', url: string, who: TestUser | null, payload?: unknown) =>
  t.app.inject({ method, url, headers: who ? who.headers : {}, ...(payload !== undefined ? { payload: payload as object } : {}) });
const put = (id: number, who: TestUser | null, track: StoredTrack | Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  call('PUT', `/api/recordings/${id}/analysis`, who, { track, ...extra });

async function analysisRows(id: number): Promise<number> {
  const [r] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recording_analyses where recording_id = ${id}`);
  return Number(r?.n ?? 0);
}

describe('PUT and GET /api/recordings/{id}/analysis', () => {
  it("stores the student's track and answers the report the server computed: Hicaz on Dügâh, the tonic found, every perde, the tempo", async () => {
    const r = await recording({ tempo: 90 });
    const missing = await call('GET', `/api/recordings/${r.id}/analysis`, teacher);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'analysis_missing', message: 'Diese Aufnahme ist noch nicht ausgewertet.' });

    const { track, tonicHz } = hicazTrack();
    const res = await put(r.id, student, storeTrack(track));
    expect(res.statusCode, res.body).toBe(201);
    const a = res.json() as RecordingAnalysis;
    expect(a).toMatchObject({ recording_id: r.id, computed_by: 'student', analysis_version: 1, settings: { makam: 'hicaz', durak: null, tempo_bpm: 90, tempo_unit: 'quarter' } });
    const m = a.report.makam!;
    expect(m.makam).toBe('hicaz');
    expect(m.durak).toBe('Dügâh');
    // tonic within 10 cents, octave ignored
    const cents = (1200 * Math.log2(m.tonic_hz / tonicHz)) % 1200;
    expect(Math.min(Math.abs(cents), 1200 - Math.abs(cents))).toBeLessThan(10);
    expect(m.degrees.map((d) => d.perde).slice(0, 4)).toEqual(['Dügâh', 'Dik Kürdî', 'Nim Hicaz', 'Nevâ']);
    expect(m.degrees.filter((d) => d.played_cents !== null).length).toBeGreaterThanOrEqual(6);
    expect(a.report.western).toBeNull();
    expect(a.report.tempo?.target_bpm).toBe(90);

    // the same for the teacher and the parent; stored once
    for (const who of [student, teacher, parent]) {
      const g = await call('GET', `/api/recordings/${r.id}/analysis`, who);
      expect(g.statusCode, g.body).toBe(200);
      expect((g.json() as RecordingAnalysis).report).toEqual(a.report);
    }
    expect(await analysisRows(r.id)).toBe(1);
  });

  it('keeps the first track: a second PUT (the teacher\'s browser) answers 200 with the stored analysis', async () => {
    const r = await recording();
    expect((await put(r.id, student, storeTrack(hicazTrack(3).track))).statusCode).toBe(201);
    const again = await put(r.id, teacher, storeTrack(hicazTrack(4).track));
    expect(again.statusCode).toBe(200);
    expect((again.json() as RecordingAnalysis).computed_by).toBe('student');
  });

  it("a take without analysis gets one from the teacher's browser", async () => {
    const r = await recording();
    const res = await put(r.id, teacher, storeTrack(hicazTrack(5).track));
    expect(res.statusCode).toBe(201);
    expect((res.json() as RecordingAnalysis).computed_by).toBe('teacher');
  });

  it("computes the report again when the exercise's settings change (Hicaz → none: the 12-TET report)", async () => {
    const r = await recording();
    await put(r.id, student, storeTrack(hicazTrack(6).track));
    await t.db.execute(sql`update exercises set makam = null, tempo_bpm = 120, tempo_unit = 'eighth' where id = ${r.exerciseId}`);
    const g = (await call('GET', `/api/recordings/${r.id}/analysis`, teacher)).json() as RecordingAnalysis;
    expect(g.settings).toEqual({ makam: null, durak: null, tempo_bpm: 120, tempo_unit: 'eighth' });
    expect(g.report.makam).toBeNull();
    expect(g.report.western?.notes).toHaveLength(12);
    expect(g.report.tempo?.unit).toBe('eighth');
    const [row] = await rows<{ settings_key: string }>(t.db, sql`select settings_key from recording_analyses where recording_id = ${r.id}`);
    expect(row!.settings_key).toContain('eighth');
  });

  it('never takes a report from the client: a body with one is refused', async () => {
    const r = await recording();
    const res = await put(r.id, student, storeTrack(hicazTrack().track), { report: { version: 1, makam: null, western: null, tempo: null, duration_ms: 0 } });
    expect(res.statusCode).toBe(422);
    expect(await analysisRows(r.id)).toBe(0);
  });
});

describe('who', () => {
  it('reads: the student, their teacher, their parents; everyone else the 404 of a missing take; an administrator 403; a guest 401', async () => {
    const r = await recording();
    await put(r.id, student, storeTrack(hicazTrack().track));
    const ghost = await call('GET', '/api/recordings/2147483000/analysis', sibling);
    expect(ghost.statusCode).toBe(404);
    for (const who of [sibling, otherTeacher, otherParent]) {
      const res = await call('GET', `/api/recordings/${r.id}/analysis`, who);
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(ghost.body);
    }
    expect((await call('GET', `/api/recordings/${r.id}/analysis`, await t.admin())).statusCode).toBe(403);
    expect((await call('GET', `/api/recordings/${r.id}/analysis`, null)).statusCode).toBe(401);
  });

  it('sends: only the student who owns the take or their teacher; a parent 403; others 404; nothing stored', async () => {
    const r = await recording();
    const body = storeTrack(hicazTrack().track);
    expect((await put(r.id, parent, body)).statusCode).toBe(403);
    expect((await put(r.id, sibling, body)).statusCode).toBe(404);
    expect((await put(r.id, otherTeacher, body)).statusCode).toBe(404);
    expect((await put(r.id, null, body)).statusCode).toBe(401);
    expect(await analysisRows(r.id)).toBe(0);
  });
});

describe('what PUT refuses', () => {
  it('bytes that are not a track, counts that do not match, a hop out of range, a track longer than the take: 422 on track', async () => {
    const r = await recording({ durationMs: 10_000 });
    const good = storeTrack({ hopMs: 20, f0: new Float32Array(400).fill(220), onsetsMs: [100, 600] });
    const cases: Array<[string, Record<string, unknown>]> = [
      ['not base64', { ...good, data: 'not base64!' }],
      ['garbage', { ...good, data: toBase64(randomBytes(3000)) }],
      ['bad magic', { ...good, data: toBase64(new Uint8Array(40)) }],
      ['counts', { ...good, frames: good.frames + 1 }],
      ['onsets', { ...good, onsets: 5 }],
      ['hop', storeTrack({ hopMs: 2, f0: new Float32Array(400).fill(220), onsetsMs: [] })],
      ['a hop finer than the browser\'s', storeTrack({ hopMs: 10, f0: new Float32Array(400).fill(220), onsetsMs: [] })],
      ['longer than the take', storeTrack({ hopMs: 20, f0: new Float32Array(800).fill(220), onsetsMs: [] })],
      ['version', { ...good, version: 2 }],
      ['missing data', { version: 1, hop_ms: 20, frames: 1, onsets: 0 }],
    ];
    for (const [what, track] of cases) {
      const res = await put(r.id, student, track);
      expect(res.statusCode, `${what}: ${res.body}`).toBe(422);
    }
    expect((await put(r.id, student, storeTrack(hicazTrack().track))).statusCode).toBe(422); // a 2-minute track on a 10-s take
    expect(await analysisRows(r.id)).toBe(0);
    expect((await put(r.id, student, good)).statusCode).toBe(201);
  });

  it('a track of more than 512 KiB: 413; a body past the limit: 413 before it is read', async () => {
    const r = await recording({ durationMs: 20 * 60_000 });
    // a varint of 3 bytes a frame: 180,000 frames of jumps are ~540 KB
    const f0 = new Float32Array(180_000);
    for (let i = 0; i < f0.length; i++) f0[i] = i % 2 ? 100 : 1500;
    const big = storeTrack({ hopMs: 5, f0, onsetsMs: [] });
    expect(encodeTrack({ hopMs: 5, f0, onsetsMs: [] }).length).toBeGreaterThan(ANALYSIS_LIMITS.maxTrackBytes);
    expect(big.data.length).toBeLessThan(ANALYSIS_LIMITS.bodyBytes);
    expect((await put(r.id, student, big)).statusCode).toBe(413);
    const huge = { ...big, data: 'A'.repeat(ANALYSIS_LIMITS.bodyBytes) };
    const res = await put(r.id, student, huge);
    expect(res.statusCode).toBe(413);
    expect(await analysisRows(r.id)).toBe(0);
  });

  it('200 corrupted tracks: a 422 or a stored analysis, never a server error', async () => {
    const rand = rng(42);
    const base = encodeTrack(hicazTrack(9).track);
    // ten students, twenty tracks each: a track costs at most its 2-minute take, so no bucket runs dry
    const students = await Promise.all(Array.from({ length: 10 }, () => t.student(teacher)));
    for (let i = 0; i < 200; i++) {
      const r = await recording({ of: students[i % 10] });
      const bytes = base.slice(0, 14 + Math.floor(rand() * (base.length - 14)) + (i % 3 === 0 ? base.length : 0));
      for (let k = 0; k < 1 + Math.floor(rand() * 8); k++) bytes[Math.floor(rand() * bytes.length)] = Math.floor(rand() * 256);
      // the counts as the (corrupted) header states them, so that the decoder itself is exercised
      const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const header = { hop_ms: Math.max(1, v.getUint16(4, true) / 10), frames: Math.min(v.getUint32(6, true), 180_000), onsets: Math.min(v.getUint32(10, true), 500_000) };
      const res = await put(r.id, students[i % 10]!, { version: 1, ...header, data: toBase64(bytes) });
      expect([201, 422], res.body).toContain(res.statusCode);
    }
  }, 60_000);
});

/** A 60-minute take at the browser's hop (the most ANALYSIS_LIMITS allows but the slack), as stored. */
function hourLong(seed = 21): StoredTrack {
  const take = planTake({ seed, makam: 'hicaz', notes: 8200 });
  const frames = (MAX_SECONDS * 1000) / HOP_MS;
  const f0 = synthTrack(take, seed, HOP_MS).f0.slice(0, frames);
  return storeTrack({ hopMs: HOP_MS, f0, onsetsMs: take.notes.map((n) => Math.round(n.startMs)).filter((ms) => ms < frames * HOP_MS) });
}

describe('what a report may cost (docs/decisions/listening.md, "What a report may cost")', () => {
  const hour = hourLong();

  it('a PUT for a take that has an analysis answers it (200) without decoding or computing anything', async () => {
    const r = await recording();
    expect((await put(r.id, student, storeTrack(hicazTrack(12).track))).statusCode).toBe(201);
    const before = analysisWorkerStats().jobs;
    const again = await put(r.id, teacher, storeTrack(hicazTrack(13).track));
    expect(again.statusCode).toBe(200);
    expect((again.json() as RecordingAnalysis).computed_by).toBe('student');
    // bytes that are no track at all: not read either
    expect((await put(r.id, teacher, { version: 1, hop_ms: 20, frames: 10, onsets: 0, data: toBase64(randomBytes(3000)) })).statusCode).toBe(200);
    expect((await call('GET', `/api/recordings/${r.id}/analysis`, parent)).statusCode).toBe(200);
    expect(analysisWorkerStats().jobs).toBe(before);
  });

  it('a read after the settings changed computes once, however many read at the same moment', async () => {
    const r = await recording();
    expect((await put(r.id, student, storeTrack(hicazTrack(14).track))).statusCode).toBe(201);
    await t.db.execute(sql`update exercises set makam = 'rast' where id = ${r.exerciseId}`);
    t.forgetReads();
    const before = analysisWorkerStats().jobs;
    const reads = await Promise.all([student, teacher, parent, teacher].map((who) => call('GET', `/api/recordings/${r.id}/analysis`, who)));
    for (const g of reads) expect((g.json() as RecordingAnalysis).settings.makam).toBe('rast');
    // once per process: reads at the same moment in one process share the computation; each
    // process computes it at most once (the test's app instances stand for processes)
    const computed = analysisWorkerStats().jobs - before;
    expect(computed).toBeGreaterThanOrEqual(1);
    expect(computed).toBeLessThanOrEqual(t.instances);
    expect((await call('GET', `/api/recordings/${r.id}/analysis`, teacher)).statusCode).toBe(200);
    expect(analysisWorkerStats().jobs).toBe(before + computed); // kept
  });

  it(`more than ${ANALYSIS_LIMITS.maxFrames} frames or a hop under ${ANALYSIS_LIMITS.minHopMs} ms: 422 on track in German and Turkish, before anything is decoded`, async () => {
    const r = await recording({ durationMs: 4 * 60 * 60_000 });
    const before = analysisWorkerStats().jobs;
    const tooMany = storeTrack({ hopMs: HOP_MS, f0: new Float32Array(ANALYSIS_LIMITS.maxFrames + 1).fill(220), onsetsMs: [] });
    const fine = storeTrack({ hopMs: 10, f0: new Float32Array(1000).fill(220), onsetsMs: [] });
    for (const [track, msg] of [
      [tooMany, analysisMessages.tooManyFrames],
      [fine, analysisMessages.hop],
    ] as const) {
      const de = await put(r.id, student, track);
      expect(de.statusCode, de.body).toBe(422);
      expect(de.json()).toEqual({ message: 'Bitte überprüfen Sie Ihre Eingaben', errors: { track: [msg.de] } });
      const tr = await call('PUT', `/api/recordings/${r.id}/analysis?language=tr`, student, { track });
      expect(tr.statusCode).toBe(422);
      expect((tr.json() as { errors: { track: string[] } }).errors.track).toEqual([msg.tr]);
    }
    expect(analysisMessages.tooManyFrames.de).toContain('180.250');
    expect(analysisMessages.hop.de).toContain('20–100 ms');
    expect(analysisWorkerStats().jobs).toBe(before);
    expect(await analysisRows(r.id)).toBe(0);
  });

  it('a 60-minute take at the browser\'s hop fits: stored with its report', { timeout: 60_000 }, async () => {
    expect(hour.frames).toBeLessThanOrEqual(ANALYSIS_LIMITS.maxFrames);
    const who = await t.student(teacher);
    const r = await recording({ durationMs: MAX_SECONDS * 1000, of: who });
    const res = await put(r.id, who, hour);
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as RecordingAnalysis).report.duration_ms).toBe(MAX_SECONDS * 1000);
  });

  it('each user has two hours of take analysed at once, then 429 with Retry-After: counted in one step, also for PUTs at the same moment', { timeout: 120_000 }, async () => {
    const who = await t.student(teacher);
    const takes = await Promise.all([0, 1, 2, 3].map(() => recording({ durationMs: MAX_SECONDS * 1000, of: who })));
    const before = analysisWorkerStats().jobs;
    const sent = await Promise.all(takes.map((r) => put(r.id, who, hour)));
    expect(sent.map((r) => r.statusCode).sort()).toEqual([201, 201, 429, 429]);
    expect(analysisWorkerStats().jobs).toBe(before + 2); // the refused ones computed nothing
    const refused = sent.find((r) => r.statusCode === 429)!;
    expect(refused.json()).toEqual({ message: analysisMessages.rateLimited.de });
    // an hour of take comes back in two minutes
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(60);
    expect(wait).toBeLessThanOrEqual(120);
    const left = takes.filter((_, i) => sent[i]!.statusCode === 429);
    const tr = await call('PUT', `/api/recordings/${left[0]!.id}/analysis?language=tr`, who, { track: hour });
    expect(tr.statusCode).toBe(429);
    expect(tr.json()).toEqual({ message: analysisMessages.rateLimited.tr });
    // what is stored still answers, and others are not limited by this student's bucket
    const stored = takes.find((_, i) => sent[i]!.statusCode === 201)!;
    expect((await put(stored.id, who, hour)).statusCode).toBe(200);
    const other = await recording();
    expect((await put(other.id, student, storeTrack(hicazTrack(16).track))).statusCode).toBe(201);
    for (const r of left) expect(await analysisRows(r.id)).toBe(0);
  });

  it('a report past the worker\'s time limit: 503 with its text and Retry-After; the worker is replaced and the next take is analysed', { timeout: 60_000 }, async () => {
    const who = await t.student(teacher);
    const r = await recording({ durationMs: MAX_SECONDS * 1000, of: who });
    const started = analysisWorkerStats().started;
    const restore = setAnalysisWorkerLimits({ timeMs: 5 });
    try {
      const res = await put(r.id, who, hour);
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({ message: analysisMessages.workerLimits.de, code: 'analysis_limits' });
      expect(res.headers['retry-after']).toBe('60');
    } finally {
      await restore();
    }
    expect(await analysisRows(r.id)).toBe(0);
    const again = await put(r.id, who, storeTrack(hicazTrack(17).track));
    expect(again.statusCode, again.body).toBe(201);
    expect(analysisWorkerStats().started).toBeGreaterThan(started);
  });

  it('a full queue: 503 analysis_busy at once, nothing stored', { timeout: 60_000 }, async () => {
    const [a, b] = await Promise.all([t.student(teacher), t.student(teacher)]);
    const ra = await recording({ durationMs: MAX_SECONDS * 1000, of: a });
    const rb = await recording({ durationMs: MAX_SECONDS * 1000, of: b });
    const restore = setAnalysisWorkerLimits({ workers: 1, queueJobs: 0 });
    try {
      const [first, second] = await Promise.all([put(ra.id, a, hour), put(rb.id, b, hour)]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([201, 503]);
      const busy = first.statusCode === 503 ? first : second;
      expect(busy.json()).toEqual({ message: analysisMessages.busy.de, code: 'analysis_busy' });
      expect(busy.headers['retry-after']).toBe('60');
    } finally {
      await restore();
    }
  });
});

describe('privacy', () => {
  it('goes with the take: deleting the recording deletes its analysis', async () => {
    const r = await recording();
    await put(r.id, student, storeTrack(hicazTrack().track));
    expect(await analysisRows(r.id)).toBe(1);
    expect((await call('DELETE', `/api/recordings/${r.id}`, student)).statusCode).toBe(204);
    expect(await analysisRows(r.id)).toBe(0);
  });

  it("is part of the student's export: the track and the report beside the take", async () => {
    const admin = await t.admin({ schoolId: student.schoolId });
    const r = await recording();
    const stored = storeTrack(hicazTrack().track);
    await put(r.id, student, stored);
    const res = await call('GET', `/api/school/students/${student.id}/export`, admin);
    expect(res.statusCode).toBe(200);
    const zip = res.rawPayload;
    // student.json is the first entry, deflated; find it through the central directory
    const doc = JSON.parse(studentJson(zip)) as { recordings: Array<{ id: number; analysis: { track: string; computed_by: string; report: { makam: { makam: string } } } | null }> };
    const mine = doc.recordings.find((x) => x.id === r.id)!;
    expect(mine.analysis).toMatchObject({ computed_by: 'student', track: stored.data, report: { makam: { makam: 'hicaz' } } });
    expect(doc.recordings.some((x) => x.analysis === null)).toBe(true); // takes without one say so
  });
});

/** student.json out of an export zip (its central directory; deflated or stored). */
function studentJson(buf: Buffer): string {
  let eocd = buf.length - 22;
  while (eocd >= 0 && buf.readUInt32LE(eocd) !== 0x06054b50) eocd--;
  let p = buf.readUInt32LE(eocd + 16);
  for (let i = 0; i < buf.readUInt16LE(eocd + 10); i++) {
    const method = buf.readUInt16LE(p + 10);
    const compressed = buf.readUInt32LE(p + 20);
    const nameLen = buf.readUInt16LE(p + 28);
    const local = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    if (name === 'student.json') {
      const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
      const raw = buf.subarray(start, start + compressed);
      return (method === 8 ? inflateRawSync(raw) : raw).toString('utf8');
    }
    p += 46 + nameLen + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  throw new Error('no student.json');
}
