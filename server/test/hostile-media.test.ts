import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../db/client';
import { MEDIA_GUARD_TEXT } from '../lib/media-guard';
import { makeWav, makeWebm } from '../modules/recordings/sample-recordings';
import { makePdf } from '../modules/media/sample-files';
import { multipart } from './authz-world';
import { manyBoxesMp4, manyElementsWebm, nestedClustersWebm, nestedMoovMp4 } from './hostile-media';
import { setupTestApp, type TestApp, type TestUser } from './test-app';

/**
 * Crafted containers sent through the real upload routes (docs/decisions/media-parser-guard.md):
 * ~260,000 nested WebM Clusters (2 MiB) and ~131,000 nested MP4 moov boxes (1 MiB) each took
 * the process down (heap exhausted); a million elements must not keep it busy either. Each is a
 * 422 within seconds with the guard's message, leaves no row and no file, and the server answers
 * and takes a normal recording afterwards.
 */
let t: TestApp;
let teacher: TestUser;
let student: TestUser;
beforeAll(async () => {
  t = await setupTestApp();
  teacher = await t.teacher();
  student = await t.student(teacher);
});
afterAll(async () => {
  await t.close();
});

async function task() {
  const e = await t.exercise(teacher);
  return t.submission(student, teacher, e, { dueDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) });
}

async function sendRecording(submissionId: number, file: Buffer, o: { lang?: 'de' | 'tr'; name?: string; type?: string } = {}) {
  const body = await multipart([
    ['duration_ms', '3000'],
    ['file', file, o.name ?? 'aufnahme.webm', o.type ?? 'audio/webm'],
  ]);
  return t.app.inject({
    method: 'POST',
    url: `/api/submissions/${submissionId}/recordings`,
    payload: body.payload,
    headers: { ...student.headers, ...body.headers, 'accept-language': o.lang ?? 'de' },
  });
}

async function tmpFiles(): Promise<string[]> {
  return (await readdir(join(t.deps.mediaDir, 'tmp')).catch(() => [] as string[])).sort();
}

async function recordingCount(submissionId: number): Promise<number> {
  const [r] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from recordings where submission_id = ${submissionId}`);
  return Number(r?.n ?? 0);
}

describe('the media guard on the upload routes', () => {
  const cases: Array<[string, () => Buffer, string]> = [
    ['a WebM of 260,000 nested Clusters (2 MiB)', () => nestedClustersWebm(260_000), 'video/webm'],
    ['an MP4 of 131,072 nested moov boxes (1 MiB)', () => nestedMoovMp4(131_072), 'video/mp4'],
    ['a WebM of a million Void elements (2 MiB)', () => manyElementsWebm(1_000_000), 'audio/webm'],
    ['an MP4 of 500,000 top-level boxes (4 MB)', () => manyBoxesMp4(500_000), 'video/mp4'],
  ];
  for (const [label, make, type] of cases) {
    it(`refuses ${label} with 422 within seconds, and the server goes on`, async () => {
      const s = await task();
      const file = make();
      const before = await tmpFiles();
      const started = Date.now();
      const res = await sendRecording(s.id, file, { type });
      const took = Date.now() - started;
      expect(res.statusCode, res.body.slice(0, 300)).toBe(422);
      expect(res.json()).toEqual({ message: MEDIA_GUARD_TEXT.de, errors: { file: [MEDIA_GUARD_TEXT.de] } });
      expect(took, `${label}: ${took} ms`).toBeLessThan(5_000);
      expect(await recordingCount(s.id)).toBe(0);
      expect(await tmpFiles()).toEqual(before);
      expect(await t.storedFiles('recordings')).not.toContainEqual(expect.stringContaining(`recordings/${s.id}/`));

      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.statusCode).toBe(200);
      const ok = await sendRecording(s.id, makeWav(1500), { name: 'take.wav', type: 'audio/wav' });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json()).toMatchObject({ mime_type: 'audio/wav', duration_ms: 1500 });
    });
  }

  it('says so in Turkish to a Turkish client', async () => {
    const s = await task();
    const res = await sendRecording(s.id, nestedClustersWebm(10_000), { lang: 'tr' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(MEDIA_GUARD_TEXT.tr);
    expect(res.json().errors.file).toEqual([MEDIA_GUARD_TEXT.tr]);
  });

  it('answers other requests while crafted files are probed, and takes normal files after', async () => {
    const s = await task();
    const hostile = Promise.all([sendRecording(s.id, nestedClustersWebm()), sendRecording(s.id, nestedMoovMp4()), sendRecording(s.id, manyElementsWebm())]);
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    for (const r of await hostile) expect(r.statusCode).toBe(422);
    const webm = await sendRecording(s.id, makeWebm({ lengthMs: 2000, padding: 200 }));
    expect(webm.statusCode, webm.body).toBe(201);
    expect(webm.json()).toMatchObject({ mime_type: 'audio/webm', duration_ms: 2000 });
  });

  it('reads exercise media through the same guard: a PDF and a WebM video are stored with their detected type', async () => {
    const body = await multipart([
      ['title', 'Guard'],
      ['media_files[0]', makePdf('Blatt'), 'blatt.pdf', 'application/pdf'],
      ['media_files[1]', makeWebm({ video: true, lengthMs: 500 }), 'clip.webm', 'video/webm'],
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/exercises', payload: body.payload, headers: { ...teacher.headers, ...body.headers } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().media_files.map((m: { mime_type: string }) => m.mime_type)).toEqual(['application/pdf', 'video/webm']);
  });
});
