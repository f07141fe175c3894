import fc from 'fast-check';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORED_MEDIA_PATH } from '@contract/media';
import { UPLOAD_MAX_BYTES } from '@contract/constants';
import { makePdf, staffPng } from '../modules/media/sample-files';
import { dbDigest, holdScheduledJobs, multipart } from './authz-world';
import { hostileString } from './hostile-fuzz';
import { setupTestApp, type TestApp, type TestUser } from './test-app';

/**
 * Hostile uploads: wrong magic bytes, double extensions, empty files, names with ../, control
 * characters or 300 characters, HTML and SVG posing as pictures, oversized files, bodies cut off
 * mid-stream, and a client that drops the connection mid-body. A refused upload leaves no row and
 * no file (not even in the temporary folder); an accepted one is stored under a safe random name
 * with the type read from its bytes.
 */
let t: TestApp;
let teacher: TestUser;
let tried = 0;
beforeAll(async () => {
  t = await setupTestApp();
  await holdScheduledJobs(t);
  teacher = await t.teacher();
});
afterAll(async () => {
  console.log(`hostile uploads tried: ${tried}`);
  await t.close();
});

const png = staffPng(40, 20);
const pdf = makePdf('Blatt');
type Part = [string, string] | [string, Uint8Array, string, string?];

function filesOnDisk(): string[] {
  const root = t.deps.mediaDir;
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else out.push(relative(root, join(d, e.name)));
    }
  };
  walk(root);
  return out.sort();
}

async function upload(parts: Part[], url = '/api/exercises') {
  tried++;
  const body = await multipart(parts);
  return t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...teacher.headers, ...body.headers } });
}

/** The upload is refused (4xx), and neither the database nor the media folder changed. */
async function expectRefusedCleanly(parts: Part[], label: string, url?: string) {
  const before = await dbDigest(t);
  const filesBefore = filesOnDisk();
  const res = await upload(parts, url);
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, label).toBeLessThan(500);
  expect(await dbDigest(t), `${label}: database changed`).toBe(before);
  expect(filesOnDisk(), `${label}: files left behind`).toEqual(filesBefore);
  return res;
}

type Media = { id: number; path: string; filename: string; size: number; mime_type: string; type: string };

/** The upload is accepted; every stored file sits under a safe random name with a sniffed type. */
async function expectStoredSafely(parts: Part[], label: string) {
  const res = await upload(parts);
  expect(res.statusCode, `${label}: ${res.body.slice(0, 200)}`).toBe(201);
  const media = res.json().media_files as Media[];
  for (const m of media) {
    expect(m.path, label).toMatch(STORED_MEDIA_PATH);
    expect(await t.stored(m.path), label).toBe(true);
    // eslint-disable-next-line no-control-regex
    expect(m.filename, label).not.toMatch(/[\u0000-\u001f\u007f\u202a-\u202e/\\]/);
    expect([...m.filename].length, label).toBeLessThanOrEqual(200);
    expect(m.filename.startsWith('.'), label).toBe(false);
  }
  return media;
}

describe('hostile uploads', () => {
  it('refuses wrong magic bytes, HTML and SVG posing as pictures, executables and empty files, leaving nothing', async () => {
    const cases: Array<[string, Part[]]> = [
      ['text named .png', [['title', 'x'], ['media_files[0]', Buffer.from('just some text, not a picture'), 'bild.png', 'image/png']]],
      ['html named .png', [['title', 'x'], ['media_files[0]', Buffer.from('<html><script>alert(1)</script></html>'), 'bild.png', 'image/png']]],
      ['html named .pdf', [['title', 'x'], ['media_files[0]', Buffer.from('<!doctype html><img src=x onerror=alert(1)>'), 'doc.pdf', 'application/pdf']]],
      ['svg', [['title', 'x'], ['media_files[0]', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'), 'bild.svg', 'image/svg+xml']]],
      ['svg named .png', [['title', 'x'], ['media_files[0]', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'), 'b.png', 'image/png']]],
      ['elf executable', [['title', 'x'], ['media_files[0]', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...new Array(60).fill(0)]), 'video.mp4', 'video/mp4']]],
      ['zip', [['title', 'x'], ['media_files[0]', Buffer.from([0x50, 0x4b, 0x03, 0x04, ...new Array(40).fill(0)]), 'a.pdf', 'application/pdf']]],
      ['png header only', [['title', 'x'], ['media_files[0]', png.subarray(0, 4), 'kurz.png', 'image/png']]],
      ['empty file', [['title', 'x'], ['media_files[0]', Buffer.alloc(0), 'leer.png', 'image/png']]],
      ['good and bad together', [['title', 'x'], ['media_files[0]', png, 'gut.png', 'image/png'], ['media_files[1]', Buffer.from('nope'), 'schlecht.png', 'image/png']]],
      ['file in a text field', [['title', 'x'], ['description', png, 'x.png', 'image/png']]],
      ['no title', [['media_files[0]', png, 'gut.png', 'image/png']]],
      ['NUL in title', [['title', 'a\u0000b'], ['media_files[0]', png, 'gut.png', 'image/png']]],
    ];
    for (const [label, parts] of cases) await expectRefusedCleanly(parts, label);
  });

  it('stores double extensions, traversal, control characters and 300-character names under safe names', async () => {
    const cases: Array<[string, Uint8Array, string]> = [
      ['png as .php.png', png, 'shell.php.png'],
      ['png as .png.exe', png, 'bild.png.exe'],
      ['pdf as .jpg', pdf, 'scan.jpg'],
      ['traversal', png, '../../../../etc/passwd'],
      ['windows traversal', png, '..\\..\\boot.ini'],
      ['absolute', png, '/etc/shadow.png'],
      ['control characters', png, 'a\u0001b\u0007c\r\nd\u007f.png'],
      ['bidi override', png, 'gnp\u202e.exe'],
      ['300 characters', png, `${'ä'.repeat(296)}.png`],
      ['only dots', png, '....'],
      ['html in name', png, '<img src=x onerror=alert(1)>.png'],
    ];
    for (const [label, bytes, name] of cases) {
      const media = await expectStoredSafely([['title', `Upload ${label}`], ['media_files[0]', bytes, name, 'application/octet-stream']], label);
      expect(media).toHaveLength(1);
      expect(media[0]!.path.endsWith(bytes === pdf ? '.pdf' : '.png'), label).toBe(true);
      expect(media[0]!.mime_type, label).toBe(bytes === pdf ? 'application/pdf' : 'image/png');
    }
  });

  it('refuses a file over 20 MiB while streaming, leaving nothing', async () => {
    const big = Buffer.alloc(UPLOAD_MAX_BYTES + 1);
    png.copy(big);
    const res = await expectRefusedCleanly([['title', 'gross'], ['media_files[0]', big, 'riesig.png', 'image/png']], 'oversized');
    expect([413, 422]).toContain(res.statusCode);
  });

  it('refuses a body cut off mid-file, leaving nothing', async () => {
    const body = await multipart([['title', 'abgeschnitten'], ['media_files[0]', Buffer.concat([png, Buffer.alloc(200_000, 7)]), 'bild.png', 'image/png']]);
    for (const cut of [0.3, 0.6, 0.95]) {
      const before = await dbDigest(t);
      const filesBefore = filesOnDisk();
      const payload = body.payload.subarray(0, Math.floor(body.payload.length * cut));
      tried++;
      const res = await t.app.inject({ method: 'POST', url: '/api/exercises', payload, headers: { ...teacher.headers, ...body.headers } });
      expect(res.statusCode, `cut at ${cut}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `cut at ${cut}`).toBeLessThan(500);
      expect(await dbDigest(t)).toBe(before);
      expect(filesOnDisk()).toEqual(filesBefore);
    }
  });

  it('a client that drops the connection mid-upload leaves no row and no file', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const before = await dbDigest(t);
    const filesBefore = filesOnDisk();
    const body = await multipart([['title', 'abgebrochen'], ['media_files[0]', Buffer.concat([png, Buffer.alloc(3_000_000, 1)]), 'bild.png', 'image/png']]);
    for (const fraction of [0.1, 0.5, 0.99]) {
      tried++;
      await new Promise<void>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            `POST /api/exercises HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${teacher.headers.authorization}\r\n` +
              `Content-Type: ${body.headers['content-type']}\r\nContent-Length: ${body.payload.length}\r\n\r\n`,
          );
          socket.write(body.payload.subarray(0, Math.floor(body.payload.length * fraction)), () => {
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 150);
          });
        });
        socket.on('error', reject);
      });
    }
    // the server notices the aborted requests and cleans up
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && filesOnDisk().join() !== filesBefore.join()) await new Promise((r) => setTimeout(r, 100));
    expect(filesOnDisk()).toEqual(filesBefore);
    expect(await dbDigest(t)).toBe(before);
    const health = await fetch(`${address}/api/health`);
    expect(health.status).toBe(200);
  });

  it('property: any file name, declared type and content is either stored safely or refused cleanly', { timeout: 120_000 }, async () => {
    const content = fc.oneof(
      fc.constant(png),
      fc.constant(pdf),
      fc.uint8Array({ maxLength: 300 }),
      fc.uint8Array({ maxLength: 64 }).map((tail) => Buffer.concat([png.subarray(0, 8), tail])),
    );
    const declared = fc.oneof(fc.constantFrom('image/png', 'application/pdf', 'video/mp4', 'text/html', 'image/svg+xml', 'application/octet-stream', ''), hostileString);
    const name = fc.oneof(hostileString, fc.constantFrom('a.png', 'a.pdf', '.htaccess', 'con.png', 'nul', 'a'.repeat(300)));
    await fc.assert(
      fc.asyncProperty(name, declared, content, hostileString, async (filename, type, bytes, title) => {
        const safeType = /^[\x20-\x7e]*$/.test(type) && !/[;"\\]/.test(type) ? type : 'application/octet-stream';
        const parts: Part[] = [['title', title || 'Titel'], ['media_files[0]', bytes, filename || 'x', safeType]];
        const before = await dbDigest(t);
        const filesBefore = filesOnDisk();
        const res = await upload(parts);
        expect(res.statusCode, res.body.slice(0, 200)).toBeLessThan(500);
        if (res.statusCode === 201) {
          for (const m of res.json().media_files as Media[]) {
            expect(m.path).toMatch(STORED_MEDIA_PATH);
            expect(['image/png', 'application/pdf']).toContain(m.mime_type);
            // eslint-disable-next-line no-control-regex
            expect(m.filename).not.toMatch(/[\u0000-\u001f\u007f/\\]/);
          }
        } else {
          expect(await dbDigest(t)).toBe(before);
          expect(filesOnDisk()).toEqual(filesBefore);
        }
      }),
      { numRuns: Number(process.env.HOSTILE_RUNS ?? 8) * 5 },
    );
  });

  it('update with hostile remove_media and course ids is refused or harmless', async () => {
    const created = await upload([['title', 'Basis'], ['media_files[0]', png, 'a.png', 'image/png']]);
    const ex = created.json() as { id: number; media_files: Media[] };
    for (const v of ['-1', '0', 'abc', '1e3', '99999999999', '', '\u0000', String(ex.media_files[0]!.id) + ' ']) {
      const res = await upload([['title', 'Basis'], ['remove_media[0]', v], ['course_ids[0]', v]], `/api/exercises/${ex.id}`);
      expect(res.statusCode, v).toBeLessThan(500);
    }
  });
});
