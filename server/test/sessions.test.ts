import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokens } from '../db/schema/index';
import { forgetAllTokens, forgetUser, hashToken, TOKEN_CACHE_MS, userForToken } from '../lib/auth';
import { setupTestApp, TEST_PASSWORD, type TestApp } from './test-app';

/**
 * Sessions end when they should: idle expiry, logout, password change, deletion; and sign-in
 * guessing is limited per e-mail and per address.
 */
let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp();
});
afterAll(async () => {
  await t.close();
});

const DAY = 86_400_000;
const me = (headers: { authorization: string }) => t.app.inject({ method: 'GET', url: '/api/user', headers });
const login = (email: string, password: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/login', remoteAddress, payload: { email, password } });
const tokenRow = async (token: string) => (await t.db.select().from(tokens).where(eq(tokens.tokenHash, hashToken(token))))[0];

describe('idle expiry', () => {
  it('a token unused for 30 days stops working and is deleted; one used within 30 days is renewed', async () => {
    const idle = await t.student(await t.teacher());
    await t.db.update(tokens).set({ lastUsedAt: new Date(Date.now() - 30 * DAY - 60_000) }).where(eq(tokens.tokenHash, hashToken(idle.token)));
    expect((await me(idle.headers)).statusCode).toBe(401);
    expect(await tokenRow(idle.token)).toBeUndefined();

    const active = await t.teacher();
    await t.db.update(tokens).set({ lastUsedAt: new Date(Date.now() - 29 * DAY) }).where(eq(tokens.tokenHash, hashToken(active.token)));
    expect((await me(active.headers)).statusCode).toBe(200);
    // the use renewed it: it now has another 30 days
    const renewed = await tokenRow(active.token);
    expect(Date.now() - renewed!.lastUsedAt.getTime()).toBeLessThan(60_000);
  });

  it('renews last_used_at at most once a minute (a read does not cost a write)', async () => {
    const u = await t.teacher();
    const stamp = new Date(Date.now() - 30_000);
    await t.db.update(tokens).set({ lastUsedAt: stamp }).where(eq(tokens.tokenHash, hashToken(u.token)));
    expect((await me(u.headers)).statusCode).toBe(200);
    expect((await tokenRow(u.token))!.lastUsedAt.getTime()).toBe(stamp.getTime());
  });
});

describe('revocation', () => {
  it('logout revokes the token on every route, and a second logout with it is 401', async () => {
    const teacher = await t.teacher();
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: teacher.headers })).statusCode).toBe(204);
    expect((await me(teacher.headers)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: teacher.headers })).statusCode).toBe(401);
    expect(await tokenRow(teacher.token)).toBeUndefined();
  });

  it("a new password set by the teacher signs the student out on every device, and only that student", async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    const other = await t.student(teacher);
    const phone = await login(student.email, TEST_PASSWORD);
    expect(phone.statusCode).toBe(200);
    const phoneHeaders = { authorization: `Bearer ${phone.json().token as string}` };

    // a blank password changes nothing and keeps the sessions
    const blank = await t.app.inject({ method: 'PUT', url: `/api/students/${student.id}`, headers: teacher.headers, payload: { name: student.name, email: student.email, password: '' } });
    expect(blank.statusCode).toBe(200);
    expect((await me(student.headers)).statusCode).toBe(200);
    expect((await me(phoneHeaders)).statusCode).toBe(200);

    const put = await t.app.inject({ method: 'PUT', url: `/api/students/${student.id}`, headers: teacher.headers, payload: { name: student.name, email: student.email, password: 'ganz-neu-123' } });
    expect(put.statusCode).toBe(200);
    expect((await me(student.headers)).statusCode).toBe(401);
    expect((await me(phoneHeaders)).statusCode).toBe(401);
    expect((await me(other.headers)).statusCode).toBe(200);
    expect((await me(teacher.headers)).statusCode).toBe(200);
    expect((await login(student.email, TEST_PASSWORD, '10.20.0.1')).statusCode).toBe(401);
    expect((await login(student.email, 'ganz-neu-123', '10.20.0.1')).statusCode).toBe(200);
  });

  it("another teacher cannot change a student's password (404) and the student's sessions stay", async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    const intruder = await t.teacher();
    const put = await t.app.inject({ method: 'PUT', url: `/api/students/${student.id}`, headers: intruder.headers, payload: { name: 'x', email: student.email, password: 'hijacked-123' } });
    expect(put.statusCode).toBe(404);
    expect((await me(student.headers)).statusCode).toBe(200);
    expect((await login(student.email, 'hijacked-123', '10.20.0.2')).statusCode).toBe(401);
  });

  it('deleting a student ends its sessions', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/students/${student.id}`, headers: teacher.headers })).statusCode).toBe(204);
    expect((await me(student.headers)).statusCode).toBe(401);
    expect(await tokenRow(student.token)).toBeUndefined();
  });

  it('odd Authorization headers are 401, never 500', async () => {
    const u = await t.teacher();
    for (const authorization of [
      '',
      'Bearer',
      'Bearer ',
      `Basic ${u.token}`,
      `Bearer ${u.token} extra`,
      `Bearer ${u.token.slice(0, -1)}`,
      `Bearer ${'a'.repeat(5000)}`,
      'Bearer ../../etc/passwd',
      `Bearer ${u.token}\u0000`,
      `Bearer ' or 1=1 --`,
    ]) {
      const r = await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization } });
      expect(r.statusCode, authorization.slice(0, 40)).toBe(401);
    }
  });
});

describe('sign-in rate limit', () => {
  it('holds per address across many e-mails: 50 failures from one address block every e-mail there, not elsewhere', async () => {
    const teacher = await t.teacher();
    const addr = '10.66.0.1';
    for (let i = 0; i < 50; i++) {
      const r = await login(`guess-${i}@example.test`, 'wrong-password', addr);
      expect(r.statusCode, `attempt ${i + 1}`).toBe(401);
    }
    // even the right password of an untouched account is refused from this address now
    const blocked = await login(teacher.email, TEST_PASSWORD, addr);
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(blocked.json().message).toBeTruthy();
    const tr = await t.app.inject({ method: 'POST', url: '/api/login?language=tr', remoteAddress: addr, payload: { email: teacher.email, password: TEST_PASSWORD } });
    expect(tr.statusCode).toBe(429);
    expect(tr.json().message).not.toBe(blocked.json().message);
    // no token was issued while blocked
    const before = (await t.db.select().from(tokens).where(eq(tokens.userId, teacher.id))).length;
    expect(before).toBe(1);
    // another address is not affected
    expect((await login(teacher.email, TEST_PASSWORD, '10.66.0.2')).statusCode).toBe(200);
  });

  it('a forged X-Forwarded-For does not give a fresh budget (the socket address counts)', async () => {
    const addr = '10.68.0.1';
    for (let i = 0; i < 50; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: addr,
        headers: { 'x-forwarded-for': `203.0.113.${i}`, 'x-real-ip': `198.51.100.${i}` },
        payload: { email: `xff-${i}@example.test`, password: 'wrong-password' },
      });
      expect(r.statusCode).toBe(401);
    }
    const u = await t.teacher();
    const blocked = await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: addr, headers: { 'x-forwarded-for': '192.0.2.99' }, payload: { email: u.email, password: TEST_PASSWORD } });
    expect(blocked.statusCode).toBe(429);
  });

  it('per e-mail: 10 failures for one e-mail from one address block that e-mail there, whatever the letter case', async () => {
    const s = await t.student(await t.teacher());
    const addr = '10.67.0.1';
    for (let i = 0; i < 10; i++) expect((await login(i % 2 ? s.email.toUpperCase() : s.email, `wrong-${i}`, addr)).statusCode).toBe(401);
    expect((await login(s.email, TEST_PASSWORD, addr)).statusCode).toBe(429);
    // other e-mails from that address still work
    const other = await t.teacher();
    expect((await login(other.email, TEST_PASSWORD, addr)).statusCode).toBe(200);
  });
});

describe('the token cache (a token checked once is trusted for a few seconds)', () => {
  it('logout, a new password, a rename and a deletion take effect at once, also for a token just used', async () => {
    const teacher = await t.teacher();
    const a = await t.student(teacher);
    const b = await t.student(teacher);
    const c = await t.student(teacher);
    for (const u of [teacher, a, b, c]) expect((await me(u.headers)).statusCode).toBe(200); // now cached

    // rename: the student's own /api/user shows the new name on the next call
    const put = (id: number, payload: object) => t.app.inject({ method: 'PUT', url: `/api/students/${id}`, headers: teacher.headers, payload });
    expect((await put(a.id, { name: 'Neuer Name', email: a.email })).statusCode).toBe(200);
    expect((await me(a.headers)).json().name).toBe('Neuer Name');

    // a new password ends the student's sessions
    expect((await put(b.id, { name: b.name, email: b.email, password: 'ein-neues-passwort' })).statusCode).toBe(200);
    expect((await me(b.headers)).statusCode).toBe(401);

    // deletion
    expect((await t.app.inject({ method: 'DELETE', url: `/api/students/${c.id}`, headers: teacher.headers })).statusCode).toBe(204);
    expect((await me(c.headers)).statusCode).toBe(401);

    // logout
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: teacher.headers })).statusCode).toBe(204);
    expect((await me(teacher.headers)).statusCode).toBe(401);
  });

  it('a token removed by another process is refused once the cache time has passed', async () => {
    const u = await t.teacher();
    expect(await userForToken(t.db, u.token)).not.toBeNull(); // cached
    await t.db.delete(tokens).where(eq(tokens.tokenHash, hashToken(u.token)));
    // within TOKEN_CACHE_MS this process does not ask the database again …
    expect(await userForToken(t.db, u.token, new Date(Date.now() + 1000))).not.toBeNull();
    // … after it, it does
    expect(await userForToken(t.db, u.token, new Date(Date.now() + TOKEN_CACHE_MS + 1000))).toBeNull();
    forgetAllTokens();
    expect((await me(u.headers)).statusCode).toBe(401);
  });

  it('a lookup that was running while the user was evicted does not store what it read', async () => {
    const u = await t.teacher();
    const pending = userForToken(t.db, u.token); // reads the row, stores it after the await
    forgetUser(u.id); // e.g. the teacher changed this user while the lookup ran
    expect(await pending).not.toBeNull();
    await t.db.delete(tokens).where(eq(tokens.tokenHash, hashToken(u.token)));
    expect(await userForToken(t.db, u.token)).toBeNull();
  });
});
