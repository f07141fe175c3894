import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { tokens } from '../db/schema/index';
import { forgetAllTokens, forgetUser, hashToken, TOKEN_CACHE_MS, TOKENS_PER_USER_MAX, userForToken } from '../lib/auth';
import { ADDRESS_FREE_FAILURES, ADDRESS_MAX_DELAY_MS, addressDelayMs } from '../modules/auth/auth.service';
import { withTestApp, TEST_PASSWORD, type TestApp } from './test-app';

/**
 * Sessions end when they should: idle expiry, 90 days after sign-in, logout, password change, deletion; and sign-in
 * guessing is limited per e-mail and address (refused) and per address (slowed).
 */
let t: TestApp;
withTestApp((app) => {
  t = app;
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

  it('a token ends 90 days after its sign-in, however often it is used', async () => {
    const old = await t.teacher();
    await t.db.update(tokens).set({ createdAt: new Date(Date.now() - 90 * DAY - 60_000) }).where(eq(tokens.tokenHash, hashToken(old.token)));
    forgetAllTokens(t.db);
    expect((await me(old.headers)).statusCode).toBe(401);
    expect(await tokenRow(old.token)).toBeUndefined();
    const young = await t.teacher();
    await t.db.update(tokens).set({ createdAt: new Date(Date.now() - 89 * DAY) }).where(eq(tokens.tokenHash, hashToken(young.token)));
    forgetAllTokens(t.db);
    expect((await me(young.headers)).statusCode).toBe(200);
    // also when the token is held in the cache: the check runs on every use
    expect((await me(young.headers)).statusCode).toBe(200);
    await t.db.update(tokens).set({ createdAt: new Date(Date.now() - 91 * DAY) }).where(eq(tokens.tokenHash, hashToken(young.token)));
    forgetAllTokens(t.db);
    expect((await me(young.headers)).statusCode).toBe(401);
  });

  it('a sign-in deletes the ended tokens and keeps at most the newest TOKENS_PER_USER_MAX of a user', async () => {
    const u = await t.teacher();
    const other = await t.teacher();
    const rows = (id: number) => t.db.select().from(tokens).where(eq(tokens.userId, id));
    // ended rows of u (idle, too old) and of another user
    await t.db.insert(tokens).values([
      { userId: u.id, tokenHash: `idle-${u.id}`, lastUsedAt: new Date(Date.now() - 31 * DAY) },
      { userId: u.id, tokenHash: `old-${u.id}`, createdAt: new Date(Date.now() - 91 * DAY) },
      { userId: other.id, tokenHash: `idle-${other.id}`, lastUsedAt: new Date(Date.now() - 31 * DAY) },
    ]);
    expect((await login(u.email, TEST_PASSWORD, '10.69.0.1')).statusCode).toBe(200);
    const mine = (await rows(u.id)).map((r) => r.tokenHash);
    expect(mine).not.toContain(`idle-${u.id}`);
    expect(mine).not.toContain(`old-${u.id}`);
    expect(mine).toContain(hashToken(u.token)); // a live token stays
    expect(mine).toHaveLength(2);
    // many live tokens: a sign-in drops the least recently used beyond the cap
    await t.db.insert(tokens).values(
      Array.from({ length: TOKENS_PER_USER_MAX + 5 }, (_, i) => ({ userId: u.id, tokenHash: `live-${u.id}-${i}`, lastUsedAt: new Date(Date.now() - (i + 10) * 60_000) })),
    );
    const fresh = await login(u.email, TEST_PASSWORD, '10.69.0.1');
    expect(fresh.statusCode).toBe(200);
    const after = (await rows(u.id)).map((r) => r.tokenHash);
    expect(after).toHaveLength(TOKENS_PER_USER_MAX);
    expect(after).toContain(hashToken(fresh.json().token));
    expect(after).toContain(hashToken(u.token));
    expect(after).not.toContain(`live-${u.id}-${TOKENS_PER_USER_MAX + 4}`);
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

  it('the Bearer scheme is case-insensitive (RFC 9110)', async () => {
    const u = await t.teacher();
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect((await me({ authorization: `${scheme} ${u.token}` })).statusCode, scheme).toBe(200);
    }
    expect((await me({ authorization: `Bearer\t${u.token}` })).statusCode).toBe(200);
  });
});

describe('sign-in rate limit', () => {
  it('50+ failures from one address slow it down but never lock out a correct password of an account not under attack', async () => {
    const teacher = await t.teacher();
    const addr = '10.66.0.1';
    // at once, as an attacker would: each attempt waits for the attempts of that address recorded
    // before it (every sign-in is recorded while its password is checked: server/lib/rate-limit.ts)
    const guesses = await Promise.all(Array.from({ length: 60 }, (_, i) => login(`guess-${i}@example.test`, 'wrong-password', addr)));
    expect(guesses.map((r) => r.statusCode)).toEqual(Array(60).fill(401));
    // the right password of an untouched account signs in from that address, after the wait
    const started = Date.now();
    const ok = await login(teacher.email, TEST_PASSWORD, addr);
    const waited = Date.now() - started;
    expect(ok.statusCode).toBe(200);
    expect(waited).toBeGreaterThanOrEqual(ADDRESS_MAX_DELAY_MS - 100);
    // another address is not slowed
    const elsewhere = Date.now();
    expect((await login(teacher.email, TEST_PASSWORD, '10.66.0.2')).statusCode).toBe(200);
    expect(Date.now() - elsewhere).toBeLessThan(ADDRESS_MAX_DELAY_MS - 1000);
  });

  it('the wait grows with the failures of an address: none for a few, at most 5 s', () => {
    expect(addressDelayMs(0)).toBe(0);
    expect(addressDelayMs(ADDRESS_FREE_FAILURES - 1)).toBe(0);
    expect(addressDelayMs(ADDRESS_FREE_FAILURES)).toBeGreaterThan(0);
    expect(addressDelayMs(ADDRESS_FREE_FAILURES + 10)).toBeGreaterThan(addressDelayMs(ADDRESS_FREE_FAILURES + 5));
    expect(addressDelayMs(50)).toBe(ADDRESS_MAX_DELAY_MS);
    expect(addressDelayMs(100_000)).toBe(ADDRESS_MAX_DELAY_MS);
  });

  it('without TRUST_PROXY a forged X-Forwarded-For does not give a fresh budget (the socket address counts)', async () => {
    const addr = '10.68.0.1';
    const u = await t.teacher();
    for (let i = 0; i < 10; i++) {
      const r = await t.app.inject({
        method: 'POST',
        url: '/api/login',
        remoteAddress: addr,
        headers: { 'x-forwarded-for': `203.0.113.${i}`, 'x-real-ip': `198.51.100.${i}` },
        payload: { email: u.email, password: `wrong-${i}` },
      });
      expect(r.statusCode).toBe(401);
    }
    const blocked = await t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: addr, headers: { 'x-forwarded-for': '192.0.2.99' }, payload: { email: u.email, password: TEST_PASSWORD } });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
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
    forgetAllTokens(t.db);
    expect((await me(u.headers)).statusCode).toBe(401);
  });

  it('a lookup that was running while the user was evicted does not store what it read', async () => {
    const u = await t.teacher();
    const pending = userForToken(t.db, u.token); // reads the row, stores it after the await
    void forgetUser(t.db, u.id); // e.g. the teacher changed this user while the lookup ran
    expect(await pending).not.toBeNull();
    await t.db.delete(tokens).where(eq(tokens.tokenHash, hashToken(u.token)));
    expect(await userForToken(t.db, u.token)).toBeNull();
  });
});
