import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configSchema, ConfigError, loadConfig } from '../config';
import { jsonTooDeep, LOGIN_BODY_LIMIT, trustedPeer } from '../lib/limits';
import { cleanFilename } from '../modules/exercises/exercises.upload';
import { signMediaUrl } from '../modules/media/media.service';
import { makePdf, staffPng } from '../modules/media/sample-files';
import { dbDigest, holdScheduledJobs, multipart } from './authz-world';
import { setupTestApp, TEST_PASSWORD, type TestApp, type TestUser } from './test-app';

/**
 * Findings of the outside security test ("Hardening from outside testing") that an in-process
 * app can show: methods (405 + Allow), TRUST_PROXY, body limits and JSON depth, the exercise
 * form's field names and text budget, canonical media signatures, download names. The ones that
 * need a real listening server (memory, slow bodies, connection cap) are in hardening-server.test.ts.
 */
let t: TestApp;
let proxied: TestApp;
let teacher: TestUser;
beforeAll(async () => {
  t = await setupTestApp();
  await holdScheduledJobs(t);
  proxied = await setupTestApp({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
  teacher = await t.teacher();
});
afterAll(async () => {
  await t?.close();
  await proxied?.close();
});

describe('methods (L7)', () => {
  const cases: Array<[string, string, string]> = [
    ['TRACE', '/api/login', 'POST'],
    ['PUT', '/api/login', 'POST'],
    ['QUERY', '/api/login', 'POST'],
    ['GET', '/api/login', 'POST'],
    ['OPTIONS', '/api/user', 'GET, HEAD'],
    ['DELETE', '/api/user', 'GET, HEAD'],
    ['PATCH', '/api/students/123', 'GET, PUT, DELETE'],
    ['POST', '/api/students/123', 'GET, PUT, DELETE'],
    ['PUT', '/api/exercises', 'GET, POST'],
    ['PUT', '/api/exercises/5/', 'GET, POST, DELETE'],
    ['DELETE', '/api/media-file/exercises/1/media/x.png?exp=1&sig=x', 'GET, HEAD'],
    ['PUT', '/api/submissions/counts', 'GET, HEAD'],
  ];
  it('answer 405 with the Allow header of the path, with and without a token, and reveal nothing else', async () => {
    for (const [method, url, allow] of cases) {
      for (const headers of [{}, teacher.headers]) {
        const r = await t.app.inject({ method: method as 'GET', url, headers });
        const label = `${method} ${url} ${'authorization' in headers ? 'with' : 'without'} token`;
        expect(r.statusCode, label).toBe(405);
        const got = String(r.headers.allow).split(', ');
        for (const m of allow.split(', ')) expect(got, label).toContain(m);
        expect(got, label).not.toContain(method);
        expect(r.json(), label).toEqual({ message: 'Diese Methode ist hier nicht erlaubt.' });
      }
    }
    const tr = await t.app.inject({ method: 'PUT', url: '/api/login', headers: { 'accept-language': 'tr' } });
    expect(tr.json()).toEqual({ message: 'Bu yöntem burada kullanılamaz.' });
  });

  it('an unknown path stays 404 for every method, and existing methods answer as before', async () => {
    for (const method of ['GET', 'PUT', 'TRACE', 'DELETE']) {
      const r = await t.app.inject({ method: method as 'GET', url: '/api/nothing-here' });
      expect(r.statusCode, method).toBe(404);
      expect(r.headers.allow).toBeUndefined();
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'HEAD', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('statuses keep their meaning (L7)', () => {
  it('415 and 413 pass through the error handler with a German/Turkish message', async () => {
    const xml = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/xml' }, payload: '<a/>' });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual({ message: 'Dieses Format wird nicht unterstützt.' });
    const big = await t.app.inject({
      method: 'POST',
      url: '/api/login?language=tr',
      payload: { email: 'a@example.test', password: 'x'.repeat(LOGIN_BODY_LIMIT) },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ message: 'İstek çok büyük.' });
  });
});

describe('JSON bodies (H1)', () => {
  it('are refused when nested deeply, before parsing (422)', async () => {
    const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`; // within the 64 KiB limit
    // Before parsing: JSON.parse never sees the body (a time limit said the same less surely, and
    // failed on a busy machine); a body of ordinary depth does reach it, so the spy does look.
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const r = await t.app.inject({ method: 'POST', url: '/api/courses', headers: { ...teacher.headers, 'content-type': 'application/json' }, payload: deep });
      expect(r.statusCode).toBe(422);
      expect(r.json().errors.body).toEqual(['Die Daten sind zu tief verschachtelt.']);
      const shallow = '{"name":[[1]]}';
      const bad = await t.app.inject({ method: 'POST', url: '/api/courses', headers: { ...teacher.headers, 'content-type': 'application/json' }, payload: shallow });
      expect(bad.statusCode).toBe(422);
      const parsed = parse.mock.calls.map(([text]) => text);
      expect(parsed).toContain(shallow);
      expect(parsed).not.toContain(deep);
    } finally {
      parse.mockRestore();
    }
    const inString = JSON.stringify({ name: '['.repeat(1000), description: null });
    expect(jsonTooDeep(inString)).toBe(false);
    expect(jsonTooDeep('{"a":[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]}')).toBe(true);
    expect(jsonTooDeep('{"a":"\\"[[[[[[[[[[[[[[[[[[[["}')).toBe(false);
  });

  it('are limited to 64 KiB (413), the sign-in to 4 KiB', async () => {
    const big = JSON.stringify({ name: 'x', description: 'y'.repeat(70 * 1024) });
    const r = await t.app.inject({ method: 'POST', url: '/api/courses', headers: { ...teacher.headers, 'content-type': 'application/json' }, payload: big });
    expect(r.statusCode).toBe(413);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: teacher.email, password: TEST_PASSWORD, pad: 'x'.repeat(5000) } });
    expect(login.statusCode).toBe(413);
    expect((await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: teacher.email, password: TEST_PASSWORD } })).statusCode).toBe(200);
  });
});

describe('the exercise form (H1)', () => {
  const png = staffPng(20, 10);
  const send = async (parts: Array<[string, string] | [string, Uint8Array, string, string?]>) => {
    const body = await multipart(parts);
    return t.app.inject({ method: 'POST', url: '/api/exercises', payload: body.payload, headers: { ...teacher.headers, ...body.headers } });
  };

  it('refuses an unknown field name with 422 naming it, and changes nothing', async () => {
    const before = await dbDigest(t);
    for (const name of ['teacher_id', 'junk', 'tags[0]x', 'media_files[0]']) {
      const r = await send([['title', 'Titel'], [name, 'x']]);
      expect(r.statusCode, name).toBe(422);
      expect(Object.keys(r.json().errors), name).toEqual([name]);
    }
    expect(await dbDigest(t)).toBe(before);
  });

  it('gives all text fields together a small budget (413), while the fullest real form passes', async () => {
    const fields: Array<[string, string]> = [['title', 'T'], ...Array.from({ length: 10 }, (_, i): [string, string] => [`tags[${i}]`, 'x'.repeat(5000)])];
    const r = await send(fields);
    expect(r.statusCode).toBe(413);
    expect(r.json().message).toBe('Die Textfelder sind zusammen zu lang.');
    const full = await send([
      ['title', 'ü'.repeat(200)],
      ['description', '€'.repeat(5000)],
      ['target', 'ğ'.repeat(500)],
      ['estimated_minutes', '30'],
      ['priority', '3'],
      ['language', 'de'],
      ['category', 'tonbildung'],
      ['difficulty', 'mittel'],
      ...Array.from({ length: 20 }, (_, i): [string, string] => [`tags[${i}]`, `${i}${'ş'.repeat(48)}`]),
      ['media_files[0]', png, 'a.png', 'image/png'],
    ]);
    expect(full.statusCode, full.body.slice(0, 300)).toBe(201);
    expect(full.json().tags).toHaveLength(20);
  });
});

describe('TRUST_PROXY (M1)', () => {
  const attempt = (app: TestApp, email: string, password: string, xff?: string) =>
    app.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '127.0.0.1', headers: xff ? { 'x-forwarded-for': xff } : {}, payload: { email, password } });

  it('with TRUST_PROXY, X-Forwarded-For tells clients behind the proxy apart', async () => {
    const u = await proxied.teacher();
    for (let i = 0; i < 10; i++) expect((await attempt(proxied, u.email, `wrong-${i}`, '203.0.113.7')).statusCode).toBe(401);
    expect((await attempt(proxied, u.email, TEST_PASSWORD, '203.0.113.7')).statusCode).toBe(429);
    // another client behind the same proxy is not affected
    expect((await attempt(proxied, u.email, TEST_PASSWORD, '203.0.113.8')).statusCode).toBe(200);
    // a chain: the client is the first address the trusted proxies did not add
    expect((await attempt(proxied, u.email, TEST_PASSWORD, '203.0.113.7, 10.1.2.3')).statusCode).toBe(429);
    expect((await attempt(proxied, u.email, TEST_PASSWORD, '203.0.113.9, 10.1.2.3')).statusCode).toBe(200);
  });

  it('without it, X-Forwarded-For is ignored', async () => {
    const u = await t.teacher();
    for (let i = 0; i < 10; i++) expect((await attempt(t, u.email, `wrong-${i}`, `203.0.113.${i}`)).statusCode).toBe(401);
    expect((await attempt(t, u.email, TEST_PASSWORD, '203.0.113.200')).statusCode).toBe(429);
  });

  it('is validated at start with a clear message, and maps onto Fastify', () => {
    expect(configSchema.parse({}).TRUST_PROXY).toBe(false);
    expect(configSchema.parse({ TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(configSchema.parse({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(configSchema.parse({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      'fd00::/8',
      'loopback',
    ]);
    for (const bad of ['maybe', '10.0.0.0/33', '300.1.1.1', '0', '10.0.0.1,,nope', 'fe80::/129']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
      try {
        loadConfig({ TRUST_PROXY: bad });
      } catch (e) {
        expect((e as ConfigError).problems[0], bad).toMatch(/^TRUST_PROXY \(got ".*"\): must be|^TRUST_PROXY \(got ".*"\): a hop count/);
      }
    }
    const trusted = trustedPeer(['10.0.0.0/8', '::1', 'uniquelocal']);
    expect(trusted('10.9.9.9')).toBe(true);
    expect(trusted('::ffff:10.9.9.9')).toBe(true);
    expect(trusted('192.168.1.1')).toBe(true);
    expect(trusted('::1')).toBe(true);
    expect(trusted('203.0.113.1')).toBe(false);
    expect(trustedPeer(false)('10.0.0.1')).toBe(false);
    expect(trustedPeer(1)('203.0.113.1')).toBe(true);
  });
});

describe('media links and names (smaller findings, L3)', () => {
  it('refuse a signature in any other spelling than the canonical one (403)', async () => {
    const png = staffPng(30, 10);
    const body = await multipart([['title', 'Sig'], ['media_files[0]', png, 'bild.png', 'image/png']]);
    const up = await t.app.inject({ method: 'POST', url: '/api/exercises', payload: body.payload, headers: { ...teacher.headers, ...body.headers } });
    expect(up.statusCode).toBe(201);
    const path = up.json().media_files[0].path as string;
    const url = signMediaUrl(t.deps.secret, path);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const [, exp = '', sig = ''] = /exp=(\d+)&sig=(.+)$/.exec(url) ?? [];
    const last = sig.slice(-1);
    // the same 32 bytes with a non-zero unused bit in the last character
    const sibling = 'AEIMQUYcgkosw048'.includes(last) ? String.fromCharCode(last.charCodeAt(0) + 1) : last;
    const variants = [
      `${sig}=`,
      `${sig}==`,
      `${sig.slice(0, -1)}${sibling}`,
      ` ${sig}`,
      sig.replace(/-/g, '+').replace(/_/g, '/'),
      `${sig}%00`,
    ].filter((v) => v !== sig);
    for (const v of variants) {
      const r = await t.app.inject({ method: 'GET', url: `/api/media-file/${path}?exp=${exp}&sig=${encodeURIComponent(v)}` });
      expect(r.statusCode, v).toBe(403);
    }
    for (const e of [`${exp}.0`, `0${exp}`, `+${exp}`, `${Number(exp).toExponential()}`]) {
      const r = await t.app.inject({ method: 'GET', url: `/api/media-file/${path}?exp=${encodeURIComponent(e)}&sig=${sig}` });
      expect(r.statusCode, e).toBe(403);
    }
  });

  it('store and serve names with the extension of the detected type, filename and filename* both', async () => {
    const png = staffPng(30, 10);
    const pdf = makePdf('Blatt');
    const body = await multipart([
      ['title', 'Namen'],
      ['media_files[0]', png, 'x.html', 'text/html'],
      ['media_files[1]', png, 'report.pdf.html', 'image/png'],
      ['media_files[2]', pdf, 'scan.jpg', 'image/jpeg'],
      ['media_files[3]', png, '../../etc/<b>böse</b>.png', 'image/png'],
      ['media_files[4]', png, 'Foto.PNG', 'image/png'],
    ]);
    const up = await t.app.inject({ method: 'POST', url: '/api/exercises', payload: body.payload, headers: { ...teacher.headers, ...body.headers } });
    expect(up.statusCode, up.body.slice(0, 300)).toBe(201);
    const media = up.json().media_files as Array<{ path: string; filename: string }>;
    expect(media.map((m) => m.filename)).toEqual(['x.png', 'report.pdf.png', 'scan.pdf', 'böse.png', 'Foto.PNG']);
    const served = await t.app.inject({ method: 'GET', url: `${signMediaUrl(t.deps.secret, media[3]!.path)}&download=1` });
    expect(served.headers['content-disposition']).toBe(`attachment; filename="bose.png"; filename*=UTF-8''b%C3%B6se.png`);
  });

  it('serve an older row stored with a wrong extension under the right one', async () => {
    const png = staffPng(30, 10);
    const body = await multipart([['title', 'Alt'], ['media_files[0]', png, 'bild.png', 'image/png']]);
    const up = await t.app.inject({ method: 'POST', url: '/api/exercises', payload: body.payload, headers: { ...teacher.headers, ...body.headers } });
    const m = up.json().media_files[0] as { id: number; path: string };
    const { mediaFiles } = await import('../db/schema/index');
    const { eq } = await import('drizzle-orm');
    await t.db.update(mediaFiles).set({ filename: 'Übung.pdf.html' }).where(eq(mediaFiles.id, m.id));
    const served = await t.app.inject({ method: 'GET', url: signMediaUrl(t.deps.secret, m.path) });
    expect(served.headers['content-disposition']).toBe(`inline; filename="Ubung.pdf.png"; filename*=UTF-8''%C3%9Cbung.pdf.png`);
  });

  it('cleanFilename keeps the readable part of a name with markup and folders', () => {
    expect(cleanFilename('../../etc/<b>böse</b>.png', 'png', 'image/png')).toBe('böse.png');
    expect(cleanFilename('<img src=x onerror=alert(1)>.png', 'png', 'image/png')).toBe('datei.png');
    expect(cleanFilename('a<b.png', 'png', 'image/png')).toBe('ab.png');
    expect(cleanFilename('..\\..\\<i>Noten</i>', 'pdf', 'application/pdf')).toBe('Noten.pdf');
    expect(cleanFilename('foto.jpeg', 'jpg', 'image/jpeg')).toBe('foto.jpeg');
    expect(cleanFilename(`${'ü'.repeat(300)}.html`, 'png', 'image/png')).toMatch(/^ü{196}\.png$/);
  });
});
