import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { rows } from '../../db/client';
import { withTestApp, TEST_PASSWORD, type TestApp } from '../../test/test-app';
import { tokens } from '../../db/schema/index';
import { hashToken } from '../../lib/auth';

let t: TestApp;
withTestApp((app) => {
  t = app;
});

describe('POST /api/login', () => {
  it('signs in with the right password, case-insensitive e-mail, and returns token and user', async () => {
    const teacher = await t.teacher({ email: 'Anna.Lehrer@example.test', name: 'Anna Lehrer' });
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'anna.lehrer@EXAMPLE.test', password: TEST_PASSWORD } });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toEqual({ id: teacher.id, name: 'Anna Lehrer', email: 'Anna.Lehrer@example.test', role: { name: 'teacher' } });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // only the hash is stored
    const stored = await t.db.select().from(tokens).where(eq(tokens.tokenHash, hashToken(body.token)));
    expect(stored).toHaveLength(1);
    const raw = await t.db.select().from(tokens).where(eq(tokens.tokenHash, body.token));
    expect(raw).toHaveLength(0);
  });

  it('answers one 401 message for a wrong password and an unknown e-mail', async () => {
    const s = await t.teacher();
    const wrong = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: s.email, password: 'nope-nope' } });
    const unknown = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'nobody@example.test', password: 'nope-nope' } });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json().message).toBe(unknown.json().message);
    expect(wrong.json().message).toBe('E-Mail oder Passwort ist falsch.');
  });

  it('answers in Turkish when asked', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'accept-language': 'tr-TR' }, payload: { email: 'nobody@example.test', password: 'x' } });
    expect(res.json().message).toBe('E-posta veya şifre yanlış.');
  });

  it('validates input with 422 and errors per field, never 500', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'not-an-email', password: '' } });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['email', 'password']);
    const broken = await t.app.inject({ method: 'POST', url: '/api/login', headers: { 'content-type': 'application/json' }, payload: '{"email":' });
    expect(broken.statusCode).toBe(422);
  });

  it('rate-limits after 10 failures for one e-mail from one address, with Retry-After', async () => {
    const s = await t.student(await t.teacher());
    for (let i = 0; i < 10; i++) {
      const r = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: s.email, password: `wrong-${i}` } });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: s.email, password: TEST_PASSWORD } });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not affected
    const other = await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.9.8.7', payload: { email: s.email, password: TEST_PASSWORD } });
    expect(other.statusCode).toBe(200);
  });
});

describe('GET /api/user and POST /api/logout', () => {
  it('returns the current user for a valid token and 401 without one', async () => {
    const s = await t.student(await t.teacher(), { name: 'Ayşe Test' });
    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: s.headers });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: s.id, name: 'Ayşe Test', role: { name: 'student' } });
    expect(JSON.stringify(me.json())).not.toMatch(/password/i);
    expect((await t.app.inject({ method: 'GET', url: '/api/user' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: 'Bearer invalidinvalidinvalidinvalid' } })).statusCode).toBe(401);
  });

  it('logout revokes exactly the token used', async () => {
    const teacher = await t.teacher();
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: teacher.email, password: TEST_PASSWORD } });
    const second = { authorization: `Bearer ${login.json().token}` };
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: teacher.headers });
    expect(out.statusCode).toBe(204);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: teacher.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: second })).statusCode).toBe(200);
  });

  it('a token unused for more than 30 days stops working', async () => {
    const s = await t.teacher();
    await t.db.update(tokens).set({ lastUsedAt: new Date(Date.now() - 31 * 86400000) }).where(eq(tokens.tokenHash, hashToken(s.token)));
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: s.headers })).statusCode).toBe(401);
    const fresh = await t.teacher();
    await t.db.update(tokens).set({ lastUsedAt: new Date(Date.now() - 29 * 86400000) }).where(eq(tokens.tokenHash, hashToken(fresh.token)));
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: fresh.headers })).statusCode).toBe(200);
  });
});

describe('the app', () => {
  it('answers health, docs, security headers, and JSON 404 for unknown API paths', async () => {
    const h = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(h.json()).toEqual({ status: 'ok' });
    expect(h.headers['content-security-policy']).toContain("script-src 'self'");
    expect(h.headers['x-content-type-options']).toBe('nosniff');
    const docs = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect(docs.statusCode).toBe(200);
    expect(docs.json().paths['/api/login']).toBeDefined();
    const missing = await t.app.inject({ method: 'GET', url: '/api/nothing-here' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Nicht gefunden.');
  });
});

describe('the OpenAPI document', () => {
  it('lists the 429 of sign-in and the reset request, with their Retry-After header', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    for (const path of ['/api/login', '/api/password-reset']) {
      const answer = doc.paths[path].post.responses['429'];
      expect(answer, path).toBeDefined();
      expect(answer.content['application/json'], path).toBeDefined();
      expect(answer.headers['retry-after'].schema, path).toMatchObject({ type: 'integer', minimum: 1 });
    }
  });
});

describe('validation messages', () => {
  it('names a missing required field as required, in German and Turkish', async () => {
    const de = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: 'a@example.test' } });
    expect(de.statusCode).toBe(422);
    expect(de.json().errors.password).toEqual(['Dieses Feld ist erforderlich.']);
    const tr = await t.app.inject({ method: 'POST', url: '/api/login?language=tr', payload: { email: 'a@example.test' } });
    expect(tr.json().errors.password).toEqual(['Bu alan zorunludur.']);
  });
});

describe('the sign-in limit holds for attempts at the same moment (docs/decisions/0013-many-processes.md)', () => {
  it('30 wrong passwords at once for one e-mail from one address: at most 10 are checked, the others answered 429', async () => {
    const s = await t.student(await t.teacher());
    const addr = '10.71.0.1';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: addr, payload: { email: s.email, password: `wrong-${i}` } })),
    );
    const codes = answers.map((r) => r.statusCode);
    // a 401 is a checked password: exactly the ten the limit allows, every other one refused before the check
    expect(codes.filter((c) => c === 401)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(20);
    for (const r of answers.filter((a) => a.statusCode === 429)) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    // the right password is refused too now, without being checked
    expect((await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: addr, payload: { email: s.email, password: TEST_PASSWORD } })).statusCode).toBe(429);
  });

  it('a sign-in that succeeds takes back what it reserved: no failure is left for the e-mail or the address', async () => {
    const teacher = await t.teacher();
    const addr = '10.71.0.2';
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: addr, payload: { email: teacher.email, password: TEST_PASSWORD } })),
    );
    // an attempt counts while its password is checked (so ten at once is the most that sign in together), then no more
    expect(answers.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const [left] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from sign_in_failures where key like ${`%|${addr}%`}`);
    expect(left!.n).toBe(0);
  });
});
