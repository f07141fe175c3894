import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { setupTestApp, type TestApp } from './test/test-app';

const BIG_JS = Array.from({ length: 2000 }, (_, i) => `export const wert${i} = 'Übung ${i}';`).join('\n');
const PRE_JS = Array.from({ length: 2000 }, (_, i) => `export const vorab${i} = 'Etüde ${i}';`).join('\n');
let t: TestApp;
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'uk-static-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Übungskontrolle</title>');
  writeFileSync(join(dir, 'assets', 'app-1234.js'), 'console.log(1)');
  writeFileSync(join(dir, 'assets', 'big-5678.js'), BIG_JS);
  // As the build leaves a script: compressed beside it (vite.config.ts, precompress).
  writeFileSync(join(dir, 'assets', 'pre-9012.js'), PRE_JS);
  writeFileSync(join(dir, 'assets', 'pre-9012.js.br'), brotliCompressSync(PRE_JS));
  writeFileSync(join(dir, 'assets', 'pre-9012.js.gz'), gzipSync(PRE_JS));
  writeFileSync(join(dir, 'sw.js'), 'self.addEventListener("fetch", () => {});');
  writeFileSync(join(dir, 'manifest.webmanifest'), '{"name":"Übungskontrolle"}');
  t = await setupTestApp({ STATIC_DIR: dir });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it('answers index.html for / and for client routes', async () => {
    for (const url of ['/', '/students', '/submissions/12', '/login?x=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('<title>Übungskontrolle</title>');
    }
  });

  it('serves assets with a long cache and never falls back for /api or missing assets', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    const missingAsset = await t.app.inject({ method: 'GET', url: '/assets/missing.js' });
    expect(missingAsset.statusCode).toBe(404);
    expect(missingAsset.headers['content-type']).toContain('application/json');
    const api = await t.app.inject({ method: 'GET', url: '/api/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Nicht gefunden.' });
  });
});

describe('the installable app (docs/decisions/offline-practice.md)', () => {
  it('serves the service worker revalidated every time, for the whole site, and the manifest with its type', async () => {
    const sw = await t.app.inject({ method: 'GET', url: '/sw.js' });
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['service-worker-allowed']).toBe('/');
    expect(sw.headers['content-type']).toContain('javascript');
    const manifest = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(manifest.statusCode).toBe(200);
    expect(manifest.headers['content-type']).toContain('application/manifest+json');
    expect(manifest.headers['cache-control']).toBe('no-cache');
  });
});

describe('compression', () => {
  it("sends the build's own .br or .gz of a script by what the client takes, marked to vary by it", async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/pre-9012.js', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toContain('javascript');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.equals(brotliCompressSync(PRE_JS))).toBe(true);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(PRE_JS);
    const gz = await t.app.inject({ method: 'GET', url: '/assets/pre-9012.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(PRE_JS);
    const plain = await t.app.inject({ method: 'GET', url: '/assets/pre-9012.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(PRE_JS);
    // the compressed files are not pages of their own
    const direct = await t.app.inject({ method: 'GET', url: '/assets/missing.js', headers: { 'accept-encoding': 'br' } });
    expect(direct.statusCode).toBe(404);
  });

  it('sends scripts and large answers compressed to clients that ask for it, small ones as they are', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/assets/big-5678.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_JS);
    expect(br.rawPayload.length).toBeLessThan(BIG_JS.length / 4);

    const teacher = await t.teacher();
    for (let i = 0; i < 40; i++) await t.course(teacher, { name: `Kurs ${i} – Makam Rast und Hicaz`, description: 'Lange Töne, Atem, Intonation' });
    const gz = await t.app.inject({ method: 'GET', url: '/api/courses', headers: { ...teacher.headers, 'accept-encoding': 'gzip' } });
    expect(gz.statusCode).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    const list = JSON.parse(gunzipSync(gz.rawPayload).toString()) as unknown[];
    expect(list).toHaveLength(40);

    const plain = await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(list);
    const small = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
  });
});
