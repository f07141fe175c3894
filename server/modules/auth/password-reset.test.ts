import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../../db/client';
import { hashToken } from '../../lib/auth';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../../test/smtp';
import { setupTestApp, TEST_PASSWORD, type TestApp } from '../../test/test-app';
import { MAILS_PER_EMAIL, REQUESTS_PER_ADDRESS, resetMailsSettled } from './password-reset';

/**
 * "Passwort vergessen?" through the real server and a real SMTP server on loopback: what the mail
 * says, what the link does, and everything it must not do (docs/decisions/password-reset.md).
 */

let smtp: TestSmtp;
let t: TestApp;
beforeAll(async () => {
  smtp = await startTestSmtp();
  t = await setupTestApp({ PUBLIC_URL: 'https://schule.example.org', SMTP_URL: smtp.url, SMTP_FROM: 'Musikschule <post@example.test>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

let addressSeq = 0;
/** Each test asks from an address of its own, so the per-address count of one does not limit another. */
const nextAddress = () => `10.0.${Math.floor(++addressSeq / 250)}.${(addressSeq % 250) + 1}`;

async function request(email: string, o: { ip?: string; lang?: 'de' | 'tr'; app?: TestApp } = {}) {
  const app = o.app ?? t;
  const res = await app.app.inject({
    method: 'POST',
    url: `/api/password-reset${o.lang === 'tr' ? '?language=tr' : ''}`,
    remoteAddress: o.ip ?? nextAddress(),
    payload: { email },
  });
  await resetMailsSettled();
  return res;
}

const mailsTo = (email: string) => smtp.mails.filter((m) => m.envelopeTo.includes(email.toLowerCase()) || m.envelopeTo.includes(email));
const linkOf = (m: ReceivedMail) => {
  const found = /https:\/\/schule\.example\.org\/passwort-neu\/([A-Za-z0-9_-]{43})\b/.exec(m.text);
  expect(found, m.text).not.toBeNull();
  return found![1]!;
};

describe('POST /api/password-reset', () => {
  it('mails a one-time link in German to the account, stores only its hash, and answers like for an unknown address', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher, { name: 'Lina Vergesslich' });
    const known = await request(student.email.toUpperCase());
    const unknown = await request(`niemand-${Date.now()}@example.test`);
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json()).toEqual({
      message: 'Wenn es zu dieser E-Mail-Adresse ein Konto gibt, ist ein Link zum Festlegen eines neuen Passworts unterwegs. Er ist eine Stunde gültig.',
      mailed: true,
    });
    expect(known.headers['cache-control']).toBe('no-store');

    const [mail, ...more] = mailsTo(student.email);
    expect(more).toHaveLength(0);
    expect(mail!.from).toBe('post@example.test');
    expect(mail!.to).toEqual([student.email]);
    expect(mail!.subject).toBe('Übungskontrolle: Neues Passwort festlegen');
    expect(mail!.headers['content-language']).toBe('de');
    expect(mail!.text).toContain('Hallo Lina Vergesslich,');
    expect(mail!.text).toMatch(/gültig bis \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} Uhr, nur einmal verwendbar/);
    expect(mail!.text).toContain('Das Passwort bleibt dann unverändert');
    const token = linkOf(mail!);

    const stored = await rows<{ token_hash: string; expires_at: Date; used_at: Date | null }>(
      t.db,
      sql`select token_hash, expires_at, used_at from password_resets where user_id = ${student.id}`,
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]!.token_hash).toBe(hashToken(token));
    expect(stored[0]!.used_at).toBeNull();
    const minutes = (new Date(stored[0]!.expires_at).getTime() - Date.now()) / 60_000;
    expect(minutes).toBeGreaterThan(58);
    expect(minutes).toBeLessThanOrEqual(60);
    const [clear] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from password_resets where token_hash = ${token}`);
    expect(clear!.n).toBe(0);
    // the address is not kept in the limiter's bookkeeping either
    const [plain] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from sign_in_failures where strpos(lower(key), ${student.email.toLowerCase()}) > 0`);
    expect(plain!.n).toBe(0);
  });

  it('writes in Turkish when the page is Turkish', async () => {
    const student = await t.student(await t.teacher(), { name: 'Deniz Unutkan' });
    const res = await request(student.email, { lang: 'tr' });
    expect(res.json().message).toBe('Bu e-posta adresine ait bir hesap varsa, yeni şifre belirleme bağlantısı gönderildi. Bağlantı bir saat geçerlidir.');
    const [mail] = mailsTo(student.email);
    expect(mail!.subject).toBe('Übungskontrolle: yeni şifre belirleyin');
    expect(mail!.headers['content-language']).toBe('tr');
    expect(mail!.text).toContain('Merhaba Deniz Unutkan,');
    expect(mail!.text).toContain('yalnızca bir kez kullanılabilir');
    expect(mail!.text).not.toContain('Passwort');
    linkOf(mail!);
  });

  it('sends nothing for an unknown or a deactivated account', async () => {
    const before = smtp.mails.length;
    const gone = await t.teacher({ deactivatedAt: new Date() });
    expect((await request(gone.email)).statusCode).toBe(200);
    expect((await request(`unbekannt-${Date.now()}@example.test`)).statusCode).toBe(200);
    expect(smtp.mails.length).toBe(before);
    const [r] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from password_resets where user_id = ${gone.id}`);
    expect(r!.n).toBe(0);
  });

  it(`mails at most ${MAILS_PER_EMAIL} links to one address in 15 minutes, answering alike, and refuses an address after ${REQUESTS_PER_ADDRESS} requests (429, Retry-After)`, async () => {
    const student = await t.student(await t.teacher());
    const answers = [];
    for (let i = 0; i < MAILS_PER_EMAIL + 2; i++) answers.push((await request(student.email)).json());
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(mailsTo(student.email)).toHaveLength(MAILS_PER_EMAIL);

    const ip = nextAddress();
    for (let i = 0; i < REQUESTS_PER_ADDRESS; i++) expect((await request(`flut-${i}-${Date.now()}@example.test`, { ip })).statusCode).toBe(200);
    const refused = await request(`flut-x-${Date.now()}@example.test`, { ip });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toBeTruthy();
    // another address is not affected
    expect((await request(`flut-y-${Date.now()}@example.test`)).statusCode).toBe(200);
  });

  it('validates the address (422 errors.email), never 500', async () => {
    for (const payload of [{ email: 'keine-adresse' }, { email: '' }, {}, { email: 'a'.repeat(300) + '@example.test' }]) {
      const res = await t.app.inject({ method: 'POST', url: '/api/password-reset', remoteAddress: nextAddress(), payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['email']);
    }
  });

  it('without a mail server says so (mailed: false) and makes no link', async () => {
    const noMail = await setupTestApp();
    try {
      const student = await noMail.student(await noMail.teacher());
      const res = await request(student.email, { app: noMail });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: 'Diese Schule verschickt keine E-Mails. Ein neues Passwort legt die Lehrkraft oder die Schulverwaltung fest.',
        mailed: false,
      });
      const [r] = await rows<{ n: number }>(noMail.db, sql`select count(*)::int as n from password_resets`);
      expect(r!.n).toBe(0);
    } finally {
      await noMail.close();
    }
  });
});

describe('the link', () => {
  async function linkFor(email: string): Promise<string> {
    const before = mailsTo(email).length;
    await request(email);
    const mails = mailsTo(email);
    expect(mails.length).toBe(before + 1);
    return linkOf(mails[mails.length - 1]!);
  }

  it('greets by name, sets the password once, ends every other session, signs in, and is audited', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher, { name: 'Mia Neu' });
    const token = await linkFor(student.email);

    const greet = await t.app.inject({ method: 'GET', url: `/api/password-reset/${token}` });
    expect(greet.statusCode).toBe(200);
    expect(greet.headers['cache-control']).toBe('no-store');
    expect(greet.json()).toMatchObject({ name: 'Mia Neu', email: student.email });

    const short = await t.app.inject({ method: 'POST', url: `/api/password-reset/${token}`, payload: { password: 'kurz' } });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.password[0]).toBe('Das Passwort muss mindestens 8 Zeichen lang sein.');

    // the old session works until the new password is set
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: student.headers })).statusCode).toBe(200);
    const set = await t.app.inject({ method: 'POST', url: `/api/password-reset/${token}`, payload: { password: 'ganz-neu-2026' } });
    expect(set.statusCode).toBe(200);
    expect(set.json().user).toEqual({ id: student.id, name: 'Mia Neu', email: student.email, role: { name: 'student' } });
    const fresh = { authorization: `Bearer ${set.json().token}` };
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: fresh })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: student.headers })).statusCode).toBe(401);

    const login = (password: string) => t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: nextAddress(), payload: { email: student.email, password } });
    expect((await login(TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login('ganz-neu-2026')).statusCode).toBe(200);

    // once
    expect((await t.app.inject({ method: 'GET', url: `/api/password-reset/${token}` })).statusCode).toBe(404);
    const again = await t.app.inject({ method: 'POST', url: `/api/password-reset/${token}`, payload: { password: 'noch-einmal-1' } });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe('Dieser Link ist ungültig oder abgelaufen. Ein neuer lässt sich über „Passwort vergessen?“ anfordern.');
    expect((await login('noch-einmal-1')).statusCode).toBe(401);

    const [entry] = await rows<{ action: string; actor_id: number; target_id: number; school_id: number }>(
      t.db,
      sql`select action, actor_id, target_id, school_id from audit_log where action = 'account.password_reset' and target_id = ${student.id}`,
    );
    expect(entry).toMatchObject({ actor_id: student.id, target_id: student.id, school_id: student.schoolId });
  });

  it('is replaced by a newer link, ends after an hour, and means nothing when malformed (404, Turkish on request)', async () => {
    const student = await t.student(await t.teacher());
    const first = await linkFor(student.email);
    const second = await linkFor(student.email);
    expect(second).not.toBe(first);
    expect((await t.app.inject({ method: 'GET', url: `/api/password-reset/${first}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/password-reset/${first}`, payload: { password: 'alter-link-1' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: `/api/password-reset/${second}` })).statusCode).toBe(200);

    await t.db.execute(sql`update password_resets set expires_at = now() - interval '1 second' where token_hash = ${hashToken(second)}`);
    expect((await t.app.inject({ method: 'GET', url: `/api/password-reset/${second}` })).statusCode).toBe(404);
    const late = await t.app.inject({ method: 'POST', url: `/api/password-reset/${second}?language=tr`, payload: { password: 'zu-spaet-123' } });
    expect(late.statusCode).toBe(404);
    expect(late.json().message).toBe('Bu bağlantı geçersiz veya süresi dolmuş. “Şifremi unuttum” ile yeni bir bağlantı istenebilir.');

    for (const bad of ['abc', 'x'.repeat(43).replace(/x$/, '!'), encodeURIComponent('../../api/user')]) {
      expect((await t.app.inject({ method: 'GET', url: `/api/password-reset/${bad}` })).statusCode, bad).toBe(404);
      expect((await t.app.inject({ method: 'POST', url: `/api/password-reset/${bad}`, payload: { password: 'egal-egal-1' } })).statusCode, bad).toBe(404);
    }
    expect((await t.app.inject({ method: 'GET', url: `/api/password-reset/${'a'.repeat(101)}` })).statusCode).toBe(422);
  });

  it('works once when used twice at the same moment', async () => {
    const student = await t.student(await t.teacher());
    const token = await linkFor(student.email);
    const both = await Promise.all(
      ['zugleich-eins-1', 'zugleich-zwei-2'].map((password) => t.app.inject({ method: 'POST', url: `/api/password-reset/${token}`, payload: { password } })),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 404]);
  });

  it('does not work for an account deactivated after the mail', async () => {
    const teacher = await t.teacher();
    const token = await linkFor(teacher.email);
    await t.db.execute(sql`update users set deactivated_at = now() where id = ${teacher.id}`);
    expect((await t.app.inject({ method: 'GET', url: `/api/password-reset/${token}` })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/password-reset/${token}`, payload: { password: 'trotzdem-123' } })).statusCode).toBe(404);
  });
});

describe('requests at the same moment (docs/decisions/password-reset.md)', () => {
  const openLinks = async (userId: number) =>
    (await rows<{ n: number }>(t.db, sql`select count(*)::int as n from password_resets where user_id = ${userId} and used_at is null and expires_at > now()`))[0]!.n;
  const ask = (email: string, ip: string) => t.app.inject({ method: 'POST', url: '/api/password-reset', remoteAddress: ip, payload: { email } });

  it(`60 at once from one address: ${REQUESTS_PER_ADDRESS} answered, the rest 429; ${MAILS_PER_EMAIL} mails to the account and one open link`, async () => {
    const student = await t.student(await t.teacher());
    const ip = nextAddress();
    const answers = await Promise.all(Array.from({ length: 60 }, () => ask(student.email, ip)));
    await resetMailsSettled();
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(REQUESTS_PER_ADDRESS);
    expect(codes.filter((c) => c === 429)).toHaveLength(60 - REQUESTS_PER_ADDRESS);
    expect(mailsTo(student.email)).toHaveLength(MAILS_PER_EMAIL);
    expect(await openLinks(student.id)).toBe(1);
  });

  it(`20 at once for one e-mail from 20 addresses: ${MAILS_PER_EMAIL} mails and one open link`, async () => {
    const student = await t.student(await t.teacher());
    const answers = await Promise.all(Array.from({ length: 20 }, () => ask(student.email.toUpperCase(), nextAddress())));
    await resetMailsSettled();
    expect(answers.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    const mails = mailsTo(student.email);
    expect(mails).toHaveLength(MAILS_PER_EMAIL);
    expect(await openLinks(student.id)).toBe(1);
    // the one link that works is one of those mailed
    const working = [];
    for (const m of mails) if ((await t.app.inject({ method: 'GET', url: `/api/password-reset/${linkOf(m)}` })).statusCode === 200) working.push(m);
    expect(working).toHaveLength(1);
  });
});

describe('timing (docs/decisions/password-reset.md)', () => {
  /** Every statement the app's database handle runs from now on (Drizzle's query log, also inside transactions). */
  function statementLog(db: TestApp['db']) {
    const session = (db as unknown as { session: { logger: unknown; options: { logger?: unknown } } }).session;
    const texts: string[] = [];
    const logger = { logQuery: (query: string) => texts.push(query.replace(/\s+/g, ' ').trim()) };
    const before = { logger: session.logger, options: session.options.logger };
    session.logger = logger;
    session.options.logger = logger;
    return {
      texts,
      stop: () => {
        session.logger = before.logger;
        session.options.logger = before.options;
      },
    };
  }

  it('a known and an unknown address cost the same statements, all before the answer; the mail leaves after it', async () => {
    // one app, not balanced: the statements of one process are compared
    const solo = await setupTestApp({ PUBLIC_URL: 'https://schule.example.org', SMTP_URL: smtp.url, SMTP_FROM: 'Musikschule <post@example.test>' }, { balanced: false });
    const log = statementLog(solo.db);
    try {
      const student = await solo.student(await solo.teacher());
      const ip = nextAddress();
      const ask = async (email: string) => {
        log.texts.length = 0;
        const res = await solo.app.inject({ method: 'POST', url: '/api/password-reset', remoteAddress: ip, payload: { email } });
        const inRequest = [...log.texts];
        const mailsAtAnswer = mailsTo(email).length;
        await new Promise((r) => setTimeout(r, 150));
        const mailsSoonAfter = mailsTo(email).length;
        await resetMailsSettled();
        return { res, inRequest, afterAnswer: log.texts.slice(inRequest.length), mailsAtAnswer, mailsSoonAfter };
      };
      await ask(`aufwaermen-${Date.now()}@example.test`); // the limiter's once-a-minute pruning happens here
      const known = await ask(student.email);
      const unknown = await ask(`niemand-${Date.now()}@example.test`);
      const deactivated = await solo.teacher({ deactivatedAt: new Date() });
      const gone = await ask(deactivated.email);

      expect(known.res.json()).toEqual(unknown.res.json());
      // the account is looked up while the request runs, with the same statements whatever it finds
      expect(known.inRequest.some((s) => /\bfrom "?users"?/.test(s))).toBe(true);
      expect(unknown.inRequest).toEqual(known.inRequest);
      expect(gone.inRequest).toEqual(known.inRequest);
      // and nothing touches the database after the answer (what follows a known address is only the mail)
      expect(known.afterAnswer).toEqual([]);
      expect(unknown.afterAnswer).toEqual([]);
      // the mail is queued: not sent while the request ran, nor right after it
      expect(known.mailsAtAnswer).toBe(0);
      expect(known.mailsSoonAfter).toBe(0);
      expect(mailsTo(student.email)).toHaveLength(1);
      expect(mailsTo(deactivated.email)).toHaveLength(0);
    } finally {
      log.stop();
      await solo.close();
    }
  });
});
