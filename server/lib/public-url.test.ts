import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { parseIcs } from '../test/ics-check';
import { setupTestApp, type TestApp, type TestUser } from '../test/test-app';

/**
 * Links the server hands out take their origin from PUBLIC_URL, never from a forged Host
 * (server/lib/public-url.ts, docs/decisions/public-url.md).
 */
let withUrl: TestApp;
let without: TestApp;
beforeAll(async () => {
  withUrl = await setupTestApp({ PUBLIC_URL: 'https://uebung.musikschule.example/' }, { balanced: false });
  without = await setupTestApp({ PORT: '3456' }, { balanced: false });
});
afterAll(async () => {
  await withUrl.close();
  await without.close();
});

const mail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.test`;

async function links(t: TestApp, host: string, extra: Record<string, string> = {}) {
  const s = await t.school();
  const admin = await t.admin({ schoolId: s.id });
  const teacher: TestUser = await t.teacher({ schoolId: s.id });
  const student = await t.student(teacher);
  const headers = { host, ...extra };
  const teacherInvite = await t.app.inject({ method: 'POST', url: '/api/school/invites', headers: { ...admin.headers, ...headers }, payload: { name: 'Nora Neu', email: mail('nora') } });
  const guardianInvite = await t.app.inject({ method: 'POST', url: `/api/students/${student.id}/guardians`, headers: { ...teacher.headers, ...headers }, payload: { name: 'Frau Kind', email: mail('eltern') } });
  const calendar = await t.app.inject({ method: 'GET', url: '/api/calendar-subscription', headers: { ...student.headers, ...headers } });
  const renewed = await t.app.inject({ method: 'POST', url: '/api/calendar-subscription/renew', headers: { ...student.headers, ...headers } });
  for (const r of [teacherInvite, guardianInvite, calendar, renewed]) expect(r.statusCode, r.body).toBeLessThan(300);
  const ics = await t.app.inject({ method: 'GET', url: new URL(renewed.json<{ url: string }>().url).pathname, headers });
  await t.submission(student, teacher, await t.exercise(teacher));
  const file = await t.app.inject({ method: 'GET', url: new URL(renewed.json<{ url: string }>().url).pathname, headers });
  expect(ics.statusCode).toBe(200);
  return {
    teacherInvite: teacherInvite.json<{ url: string }>().url,
    guardianInvite: guardianInvite.json<{ invite: { url: string } }>().invite.url,
    calendar: calendar.json<{ url: string; webcal_url: string }>(),
    renewed: renewed.json<{ url: string; webcal_url: string }>(),
    /** The task link inside the calendar file. */
    taskUrl: parseIcs(file.body).events[0]?.props.get('URL')?.value,
  };
}

describe('PUBLIC_URL set', () => {
  it('builds every link from it, whatever Host or X-Forwarded-Host the request names', async () => {
    for (const host of ['angreifer.example', 'localhost:5173', 'uebung.musikschule.example.angreifer.example']) {
      const l = await links(withUrl, host, { 'x-forwarded-host': 'weiterer-angreifer.example', 'x-forwarded-proto': 'http' });
      expect(l.teacherInvite, host).toMatch(/^https:\/\/uebung\.musikschule\.example\/einladung\/[A-Za-z0-9_-]{43}$/);
      expect(l.guardianInvite, host).toMatch(/^https:\/\/uebung\.musikschule\.example\/einladung\/[A-Za-z0-9_-]{43}$/);
      for (const c of [l.calendar, l.renewed]) {
        expect(c.url, host).toMatch(/^https:\/\/uebung\.musikschule\.example\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
        expect(c.webcal_url, host).toBe(c.url.replace(/^https:/, 'webcal:'));
      }
      expect(l.taskUrl, host).toMatch(/^https:\/\/uebung\.musikschule\.example\/submissions\/\d+$/);
    }
  });
});

describe('PUBLIC_URL not set', () => {
  it("uses the request's own origin only when it names this machine", async () => {
    const local = await links(without, 'localhost:5173');
    expect(local.teacherInvite).toMatch(/^http:\/\/localhost:5173\/einladung\//);
    expect(local.calendar.url).toMatch(/^http:\/\/localhost:5173\/calendar\//);
    expect(local.calendar.webcal_url).toMatch(/^webcal:\/\/localhost:5173\/calendar\//);
    expect((await links(without, '127.0.0.1:3456')).guardianInvite).toMatch(/^http:\/\/127\.0\.0\.1:3456\/einladung\//);
    expect((await links(without, '[::1]:8080')).teacherInvite).toMatch(/^http:\/\/\[::1\]:8080\/einladung\//);
  });

  it('never puts a forged Host into a link: then http://localhost:PORT', async () => {
    for (const host of ['angreifer.example', 'localhost:1@angreifer.example', 'localhost.angreifer.example', '127.0.0.1.angreifer.example']) {
      const l = await links(without, host);
      for (const url of [l.teacherInvite, l.guardianInvite, l.calendar.url, l.taskUrl]) {
        expect(url, host).toMatch(/^http:\/\/localhost:3456\//);
        expect(url, host).not.toContain('angreifer');
      }
    }
  });
});

describe('the PUBLIC_URL setting', () => {
  it('takes an http(s) origin (a trailing slash is dropped) and refuses anything else with a message', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://uebung.example:8443/' }).PUBLIC_URL).toBe('https://uebung.example:8443');
    expect(loadConfig({ PUBLIC_URL: '' }).PUBLIC_URL).toBeUndefined();
    for (const bad of ['uebung.example', 'ftp://uebung.example', 'https://uebung.example/app', 'https://uebung.example/?x=1', 'https://user:pw@uebung.example']) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(ConfigError);
      try {
        loadConfig({ PUBLIC_URL: bad });
      } catch (e) {
        expect((e as ConfigError).problems[0], bad).toMatch(/^PUBLIC_URL .*must be the http:\/\/ or https:\/\/ address users open/);
      }
    }
  });
});
