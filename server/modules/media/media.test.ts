import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { mediaFiles } from '../../db/schema/index';
import { makePdf, staffPng } from './sample-files';
import { signMediaUrl } from './media.service';

let t: TestApp;
let teacher: TestUser;
let exercise: { id: number; title: string };
const png = staffPng(100, 40);
const pdf = makePdf('Blatt', ['Zeile']);
let pngPath: string;
let pdfPath: string;

beforeAll(async () => {
  t = await setupTestApp();
  teacher = await t.teacher();
  exercise = await t.exercise(teacher);
  const storage = t.app.deps.storage;
  pngPath = `exercises/${exercise.id}/media/${'a'.repeat(32)}.png`;
  pdfPath = `exercises/${exercise.id}/media/${'b'.repeat(32)}.pdf`;
  await storage.putBytes(pngPath, png);
  await storage.putBytes(pdfPath, pdf);
  await t.db.insert(mediaFiles).values([
    { exerciseId: exercise.id, type: 'image', path: pngPath, filename: 'Notenblatt.png', size: png.length, mimeType: 'image/png' },
    { exerciseId: exercise.id, type: 'pdf', path: pdfPath, filename: 'Übung „Rast“ (1).pdf', size: pdf.length, mimeType: 'application/pdf' },
  ]);
  // a file outside the media folder that traversal attempts would aim at
  writeFileSync(join(t.deps.mediaDir, '..', 'secret.txt'), 'geheim');
});
afterAll(async () => {
  await t.close();
});

async function linkFor(user: TestUser | null, path: string, raw = false) {
  return t.app.inject({ method: 'GET', url: `/api/media/${raw ? path : encodeURIComponent(path)}`, headers: user?.headers ?? {} });
}

describe('GET /api/media/{path}', () => {
  it('gives the owning teacher a signed link that serves the bytes with the stored type, nosniff and inline', async () => {
    const res = await linkFor(teacher, pngPath);
    expect(res.statusCode).toBe(200);
    const { url } = res.json();
    expect(url).toMatch(new RegExp(`^/api/media-file/${pngPath}\\?exp=\\d+&sig=[A-Za-z0-9_-]{43}$`));
    const file = await t.app.inject({ method: 'GET', url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['accept-ranges']).toBe('bytes');
    expect(file.headers['content-disposition']).toMatch(/^inline; filename="Notenblatt.png"/);
    expect(file.rawPayload.equals(png)).toBe(true);
  });

  it('serves a download with the original name RFC 5987 encoded', async () => {
    const { url } = (await linkFor(teacher, pdfPath)).json();
    const file = await t.app.inject({ method: 'GET', url: `${url}&download=1` });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    const cd = String(file.headers['content-disposition']);
    expect(cd.startsWith('attachment; filename="')).toBe(true);
    expect(cd).toContain("filename*=UTF-8''%C3%9Cbung%20%E2%80%9ERast%E2%80%9C%20%281%29.pdf");
    expect(file.rawPayload.equals(pdf)).toBe(true);
  });

  it('accepts the path unencoded as well', async () => {
    expect((await linkFor(teacher, pngPath, true)).statusCode).toBe(200);
  });

  it("another teacher's media: 404; guest: 401", async () => {
    const other = await t.teacher();
    expect((await linkFor(other, pngPath)).statusCode).toBe(404);
    expect((await linkFor(null, pngPath)).statusCode).toBe(401);
  });

  it('a student with a task of the exercise gets a link; another student (even of the same teacher) 404', async () => {
    const withTask = await t.student(teacher);
    await t.submission(withTask, teacher, exercise);
    const without = await t.student(teacher);
    const ok = await linkFor(withTask, pngPath);
    expect(ok.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: ok.json().url })).statusCode).toBe(200);
    expect((await linkFor(without, pngPath)).statusCode).toBe(404);
  });

  it('an unknown path: 404', async () => {
    expect((await linkFor(teacher, `exercises/${exercise.id}/media/${'c'.repeat(32)}.png`)).statusCode).toBe(404);
  });

  it('refuses traversal and odd paths in any encoding', async () => {
    const attempts = [
      '../secret.txt',
      `exercises/${exercise.id}/media/../../../../secret.txt`,
      '/etc/passwd',
      '%2Fetc%2Fpasswd',
      '..%2Fsecret.txt',
      '%2e%2e%2fsecret.txt',
      '%252e%252e%252fsecret.txt',
      '..%5Csecret.txt',
      `exercises%5C${exercise.id}%5Cmedia%5C${'a'.repeat(32)}.png`,
      `exercises/${exercise.id}/media/${'a'.repeat(32)}.png%00.txt`,
      `exercises/${exercise.id}/media/${'a'.repeat(32)}.png%00`,
      'C:%5Cwindows%5Cwin.ini',
    ];
    for (const a of attempts) {
      const res = await t.app.inject({ method: 'GET', url: `/api/media/${a}`, headers: teacher.headers });
      expect([400, 404, 422], a).toContain(res.statusCode);
      expect(res.body).not.toContain('geheim');
    }
  });
});

describe('GET /api/media-file/{path} (signed link)', () => {
  it('a tampered signature, path, expiry or a missing signature: 403', async () => {
    const { url } = (await linkFor(teacher, pngPath)).json();
    const u = new URL(url, 'http://x');
    const sig = u.searchParams.get('sig') ?? '';
    const exp = Number(u.searchParams.get('exp'));
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
    expect((await t.app.inject({ method: 'GET', url: `/api/media-file/${pngPath}?exp=${exp}&sig=${flipped}` })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/media-file/${pngPath}?exp=${exp + 3600}&sig=${sig}` })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/media-file/${pdfPath}?exp=${exp}&sig=${sig}` })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/media-file/${pngPath}?exp=${exp}` })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/media-file/${pngPath}?exp=abc&sig=${sig}` })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/api/media-file/${pngPath}?exp=${exp}&sig=${sig}` })).statusCode).toBe(200);
  });

  it('an expired link: 403 with a message', async () => {
    const url = signMediaUrl(t.deps.secret, pngPath, Date.now() - 2 * 3600 * 1000);
    const res = await t.app.inject({ method: 'GET', url });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Der Link ist abgelaufen. Bitte die Datei erneut öffnen.');
  });

  it('a path outside the media folder is refused even with a valid signature', async () => {
    for (const p of ['../secret.txt', 'exercises/1/media/../../../secret.txt', 'secret.txt']) {
      const url = signMediaUrl(t.deps.secret, p);
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, p).toBe(404);
      expect(res.body).not.toContain('geheim');
    }
    const enc = signMediaUrl(t.deps.secret, '..%2Fsecret.txt');
    expect((await t.app.inject({ method: 'GET', url: enc })).body).not.toContain('geheim');
  });

  it('answers range requests with 206 and the right bytes, 416 when unsatisfiable', async () => {
    const { url } = (await linkFor(teacher, pngPath)).json();
    const first = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=0-7' } });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-7/${png.length}`);
    expect(first.headers['content-length']).toBe('8');
    expect(first.rawPayload.equals(png.subarray(0, 8))).toBe(true);
    const mid = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=100-' } });
    expect(mid.statusCode).toBe(206);
    expect(mid.rawPayload.equals(png.subarray(100))).toBe(true);
    const suffix = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=-10' } });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe(`bytes ${png.length - 10}-${png.length - 1}/${png.length}`);
    expect(suffix.rawPayload.equals(png.subarray(png.length - 10))).toBe(true);
    const beyond = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${png.length}-` } });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${png.length}`);
    const clipped = await t.app.inject({ method: 'GET', url, headers: { range: `bytes=10-${png.length + 1000}` } });
    expect(clipped.statusCode).toBe(206);
    expect(clipped.rawPayload.equals(png.subarray(10))).toBe(true);
  });
});

describe('demo school media', () => {
  it('seedDemo, then seedDemoMedia with the media store, gives three exercises real, correctly typed attachments', async () => {
    const { seedDemo } = await import('../../db/seed');
    const { seedDemoMedia } = await import('./demo-media');
    const { fileTypeFromBuffer } = await import('file-type');
    await seedDemo(t.db, 'Europe/Berlin', new Date());
    await seedDemoMedia(t.db, t.app.deps.storage);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'lehrer@example.com', password: 'demo1234' } });
    const headers = { authorization: `Bearer ${login.json().token}` };
    const list = (await t.app.inject({ method: 'GET', url: '/api/exercises', headers })).json();
    const withMedia = list.exercises.filter((e: { media_files: unknown[] }) => e.media_files.length > 0);
    expect(withMedia).toHaveLength(3);
    for (const e of withMedia) {
      for (const m of e.media_files) {
        const chunks: Buffer[] = [];
        for await (const c of await t.app.deps.storage.open(m.path)) chunks.push(c as Buffer);
        const ft = await fileTypeFromBuffer(Buffer.concat(chunks));
        expect(ft?.mime).toBe(m.mime_type);
        const { url } = (await t.app.inject({ method: 'GET', url: `/api/media/${encodeURIComponent(m.path)}`, headers })).json();
        const file = await t.app.inject({ method: 'GET', url });
        expect(file.statusCode).toBe(200);
        expect(file.rawPayload.length).toBe(m.size);
      }
    }
  });
});

describe('HEAD on a signed link', () => {
  it('answers the headers without the body', async () => {
    const { url } = (await linkFor(teacher, pngPath)).json();
    const res = await t.app.inject({ method: 'HEAD', url });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-length']).toBe(String(png.length));
    expect(res.rawPayload.length).toBe(0);
  });
});
