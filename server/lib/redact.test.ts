import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupTestApp, type TestApp } from '../test/test-app';
import { signMediaUrl } from '../modules/media/media.service';
import { REDACTED, redactUrl } from './redact';

/**
 * The request log holds no bearer secret (server/lib/redact.ts): real requests through the app
 * with its real logger, the lines captured.
 */
let t: TestApp;
let dir: string;
const lines: string[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'uk-redact-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Übungskontrolle</title>');
  t = await setupTestApp({ LOG_LEVEL: 'info', STATIC_DIR: dir }, { balanced: false, logStream: { write: (line: string) => void lines.push(line) } });
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The logged URLs of the requests so far. */
const loggedUrls = () =>
  lines
    .map((l) => JSON.parse(l) as { req?: { url?: string } })
    .map((l) => l.req?.url)
    .filter((u): u is string => typeof u === 'string');

describe('the request log', () => {
  it('never holds a calendar secret, an invitation token or a media signature', async () => {
    const teacher = await t.teacher();
    const admin = await t.admin();
    // the private calendar address, followed as a calendar app would
    const sub = (await t.app.inject({ method: 'GET', url: '/api/calendar-subscription', headers: teacher.headers })).json<{ url: string }>();
    const calendarPath = new URL(sub.url).pathname;
    const calendarSecret = calendarPath.slice('/calendar/'.length, -'.ics'.length);
    expect((await t.app.inject({ method: 'GET', url: `${calendarPath}?language=tr` })).statusCode).toBe(200);
    // an invitation: its page, its public look-up (also spelt with an escape) and its acceptance
    const invite = (await t.app.inject({ method: 'POST', url: '/api/school/invites', headers: admin.headers, payload: { name: 'Nora Neu', email: `nora-${Date.now()}@example.test` } })).json<{ url: string }>();
    const token = invite.url.split('/einladung/')[1]!;
    expect((await t.app.inject({ method: 'GET', url: `/einladung/${token}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/invites/${token}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/%69nvites/${token}` })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: `/api/invites/${token}/accept`, payload: { password: 'ein-langes-passwort' } })).statusCode).toBe(200);
    // a signed media link (the file need not exist: the request is logged either way)
    const media = signMediaUrl(t.deps.secret, 'exercises/1/abc.png');
    const sig = new URL(media, 'http://x').searchParams.get('sig')!;
    await t.app.inject({ method: 'GET', url: media });

    const log = lines.join('\n');
    expect(calendarSecret.length).toBeGreaterThan(10);
    for (const secret of [calendarSecret, token, sig]) expect(log).not.toContain(secret);
    // the requests were logged, readable but for the secret
    const urls = loggedUrls();
    expect(urls).toEqual(
      expect.arrayContaining([
        `/calendar/${REDACTED}?language=tr`,
        `/einladung/${REDACTED}`,
        `/api/invites/${REDACTED}`,
        `/api/invites/${REDACTED}/accept`,
        expect.stringMatching(/^\/api\/media-file\/exercises\/1\/abc\.png\?exp=\[redacted\]&sig=\[redacted\]$/),
      ]),
    );
  });

  it('covers every public route that takes a path parameter (a new one must be added to redactUrl)', () => {
    const doc = t.app.swagger() as { paths: Record<string, Record<string, { security?: unknown[] }>> };
    // The media file's path names a file; its permission is the signature in the query.
    const notSecret = new Set(['/api/media-file/{*}']);
    const publicWithParams = Object.entries(doc.paths)
      .filter(([path, ops]) => path.includes('{') && Object.values(ops).some((op) => Array.isArray(op.security) && op.security.length === 0))
      .map(([path]) => path);
    expect(publicWithParams.length).toBeGreaterThanOrEqual(3);
    for (const path of publicWithParams.filter((p) => !notSecret.has(p))) {
      const url = path.replace(/\{[^}]+\}/g, 'GEHEIM0123456789');
      expect(redactUrl(url), path).not.toContain('GEHEIM0123456789');
    }
  });

  it('hides secrets in the query and keeps everything else', () => {
    expect(redactUrl('/api/media-file/a/b.png?exp=1&sig=XYZ')).toBe(`/api/media-file/a/b.png?exp=${REDACTED}&sig=${REDACTED}`);
    expect(redactUrl('/api/media-file/a?%73ig=XYZ&exp=1')).toBe(`/api/media-file/a?${REDACTED}`);
    expect(redactUrl('//api//invites//TOK/accept')).toBe(`//api//invites//${REDACTED}/accept`);
    expect(redactUrl('/api/school/invites/12')).toBe('/api/school/invites/12');
    expect(redactUrl('/api/calendar-subscription?language=tr')).toBe('/api/calendar-subscription?language=tr');
    expect(redactUrl('/api/students?q=Ay%C5%9Fe')).toBe('/api/students?q=Ay%C5%9Fe');
  });
});
