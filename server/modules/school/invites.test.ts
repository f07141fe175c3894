import { createHash } from 'node:crypto';
import { startTestSmtp } from '../../test/smtp';
import nodemailer from 'nodemailer';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, ConfigError, loadConfig } from '../../config';
import { rows } from '../../db/client';
import { INVITE_TOKEN_PATTERN, INVITE_VALID_DAYS } from '@contract/school';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { createInvite } from './invites';
import { inviteMailContent, NodemailerMailer, type InviteMail } from '../../lib/mail';

let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp({ PUBLIC_URL: 'https://schule.example.org' });
});
afterAll(async () => {
  await t.close();
});

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, who: TestUser | null, payload?: unknown, app = t.app) {
  return app.inject({ method, url, headers: who ? who.headers : {}, ...(payload !== undefined ? { payload: payload as string } : {}) });
}

async function school() {
  const s = await t.school();
  const admin = await t.admin({ schoolId: s.id });
  const teacher = await t.teacher({ schoolId: s.id });
  return { school: s, admin, teacher };
}

const mail = (tag: string) => `${tag}-${Math.random().toString(36).slice(2, 10)}@example.test`;
const tokenOf = (url: string) => url.split('/einladung/')[1]!;
const count = async (q: ReturnType<typeof sql>) => (await rows<{ n: number }>(t.db, q))[0]!.n;

describe('POST /api/school/invites (teacher invitation)', () => {
  it('answers the one-time link (43-character secret; only its SHA-256 stored), valid 14 days, not e-mailed without SMTP; audited', async () => {
    const { school: s, admin } = await school();
    const email = mail('Neue.Lehrerin');
    const res = await t.app.inject({ method: 'POST', url: '/api/school/invites', headers: { ...admin.headers, host: 'angreifer.example' }, payload: { name: ' Nora Neu ', email } });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body).toMatchObject({ kind: 'teacher', name: 'Nora Neu', email, students: [], state: 'open', created_by: admin.name, emailed: false });
    // at PUBLIC_URL, whatever Host the request names (server/lib/public-url.ts)
    expect(body.url).toMatch(/^https:\/\/schule\.example\.org\/einladung\/[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(body.url);
    expect(new RegExp(INVITE_TOKEN_PATTERN).test(token)).toBe(true);
    const days = (new Date(body.expires_at).getTime() - new Date(body.created_at).getTime()) / 86_400_000;
    expect(days).toBeCloseTo(INVITE_VALID_DAYS, 2);
    const [row] = await rows<{ token_hash: string; school_id: number }>(t.db, sql`select token_hash, school_id from invites where id = ${body.id}`);
    expect(row).toEqual({ token_hash: createHash('sha256').update(token).digest('hex'), school_id: s.id });
    // the secret itself is stored nowhere
    const [dump] = await rows<{ d: string }>(t.db, sql`select (select json_agg(i)::text from invites i) || (select json_agg(a)::text from audit_log a) as d`);
    expect(dump!.d).not.toContain(token);
    const [{ details }] = (await rows<{ details: unknown }>(t.db, sql`select details from audit_log where school_id = ${s.id} and action = 'invite.create'`)) as [{ details: unknown }];
    expect(typeof details === 'string' ? JSON.parse(details) : details).toMatchObject({ kind: 'teacher', email });
  });

  it('refuses (409, de/tr) an e-mail of an existing account in any case and in any school, and one with an open invitation of the school', async () => {
    const { admin, teacher } = await school();
    const other = await school();
    for (const email of [teacher.email.toUpperCase(), other.teacher.email, admin.email]) {
      const res = await call('POST', '/api/school/invites', admin, { name: 'X', email });
      expect(res.statusCode, email).toBe(409);
      expect(res.json().message).toBe('Zu dieser E-Mail-Adresse gibt es bereits ein Konto.');
    }
    const email = mail('doppelt');
    expect((await call('POST', '/api/school/invites', admin, { name: 'Erst', email })).statusCode).toBe(201);
    const twice = await call('POST', '/api/school/invites?language=tr', admin, { name: 'Noch mal', email: email.toUpperCase() });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toBe('Bu e-posta adresine gönderilmiş ve henüz açık olan bir davet zaten var.');
    // another school may invite the same address (the first accept wins)
    expect((await call('POST', '/api/school/invites', other.admin, { name: 'Anderswo', email })).statusCode).toBe(201);
    // concurrent invitations for one address: exactly one
    const racing = mail('parallel');
    const both = await Promise.all([1, 2].map((i) => call('POST', '/api/school/invites', admin, { name: `P${i}`, email: racing })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('checks the input (422) and refuses every role but the administrator', async () => {
    const { admin, teacher } = await school();
    const student = await t.student(teacher);
    const bad = await call('POST', '/api/school/invites', admin, { name: '', email: 'keine-adresse' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['email', 'name']);
    for (const who of [teacher, student]) expect((await call('POST', '/api/school/invites', who, { name: 'X', email: mail('x') })).statusCode).toBe(403);
    expect((await call('POST', '/api/school/invites', null, { name: 'X', email: mail('x') })).statusCode).toBe(401);
  });
});

describe('createInvite inside a transaction of the caller', () => {
  it('joins it: a rollback leaves neither the invitation nor its audit entry', async () => {
    const { school: s, admin } = await school();
    const email = mail('zurueckgerollt');
    await expect(
      t.db.transaction(async (tx) => {
        const inv = await createInvite(tx, admin, { kind: 'teacher', name: 'Nie', email, studentIds: [] }, 'http://x', null);
        expect(inv.state).toBe('open');
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await count(sql`select count(*)::int as n from invites where email = ${email}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from audit_log where school_id = ${s.id}`)).toBe(0);
    // committed, it is there
    await t.db.transaction((tx) => createInvite(tx, admin, { kind: 'teacher', name: 'Doch', email, studentIds: [] }, 'http://x', null));
    expect(await count(sql`select count(*)::int as n from invites where email = ${email}`)).toBe(1);
  });
});

describe('GET /api/school/invites and DELETE /api/school/invites/{id}', () => {
  it('lists every invitation of the school newest first with its state; revoking ends the link; nothing of another school', async () => {
    const { school: s, admin, teacher } = await school();
    const student = await t.student(teacher, { name: 'Kind Eins' });
    const other = await school();
    const foreign = await createInvite(t.db, other.admin, { kind: 'teacher', name: 'Fremde Einladung', email: mail('fremd'), studentIds: [] }, 'http://x', null);
    const guardianInvite = await createInvite(t.db, teacher, { kind: 'guardian', name: 'Mama', email: mail('mama'), studentIds: [student.id] }, 'http://x', null);
    const expired = (await call('POST', '/api/school/invites', admin, { name: 'Abgelaufen', email: mail('alt') })).json();
    await t.db.execute(sql`update invites set expires_at = now() - interval '1 minute' where id = ${expired.id}`);
    const revoked = (await call('POST', '/api/school/invites', admin, { name: 'Zurück', email: mail('zurueck') })).json();
    const accepted = (await call('POST', '/api/school/invites', admin, { name: 'Angenommen', email: mail('ja') })).json();
    const open = (await call('POST', '/api/school/invites', admin, { name: 'Offen', email: mail('offen') })).json();

    const del = await call('DELETE', `/api/school/invites/${revoked.id}`, admin);
    expect(del.statusCode).toBe(204);
    expect((await call('GET', `/api/invites/${tokenOf(revoked.url)}`, null)).statusCode).toBe(404);
    expect((await call('POST', `/api/invites/${tokenOf(accepted.url)}/accept`, null, { password: 'geheim-123' })).statusCode).toBe(200);

    const list = await call('GET', '/api/school/invites', admin);
    expect(list.statusCode).toBe(200);
    const data = list.json().data as Array<{ id: number; state: string; students: unknown[]; kind: string; created_by: string }>;
    expect(data.map((i) => i.id)).toEqual([open.id, accepted.id, revoked.id, expired.id, guardianInvite.id]);
    expect(data.map((i) => i.state)).toEqual(['open', 'accepted', 'revoked', 'expired', 'open']);
    expect(data[4]).toMatchObject({ kind: 'guardian', students: [{ id: student.id, name: 'Kind Eins' }], created_by: teacher.name });
    expect(list.body).not.toContain('Fremde Einladung');
    expect(list.body).not.toContain('/einladung/'); // links are shown once, when made
    // revoking again, an accepted or an expired one: 409; another school's: 404 like an unknown id
    for (const id of [revoked.id, accepted.id, expired.id]) expect((await call('DELETE', `/api/school/invites/${id}`, admin)).statusCode).toBe(409);
    const cross = await call('DELETE', `/api/school/invites/${foreign.id}`, admin);
    expect(cross.statusCode).toBe(404);
    expect(cross.body).toBe((await call('DELETE', '/api/school/invites/2147483000', admin)).body);
    expect((await call('GET', `/api/invites/${tokenOf(foreign.url)}`, null)).statusCode).toBe(200);
    expect((await call('DELETE', `/api/school/invites/${open.id}`, other.admin)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/school/invites/${open.id}`, teacher)).statusCode).toBe(403);
    expect((await call('GET', '/api/school/invites', teacher)).statusCode).toBe(403);
    const [entry] = await rows<{ actor_id: number; target_id: number }>(t.db, sql`select actor_id, target_id from audit_log where school_id = ${s.id} and action = 'invite.revoke'`);
    expect(entry).toEqual({ actor_id: admin.id, target_id: revoked.id });
    // after revoking, the address can be invited again
    expect((await call('POST', '/api/school/invites', admin, { name: 'Zurück 2', email: revoked.email })).statusCode).toBe(201);
  });
});

describe('the public link: GET /api/invites/{token}, POST /api/invites/{token}/accept', () => {
  it('greets with the invitation and accepts once: the teacher account exists, is signed in and audited', async () => {
    const { school: s, admin } = await school();
    const email = mail('lehrer');
    const inv = (await call('POST', '/api/school/invites', admin, { name: 'Tamer Tan', email })).json();
    const token = tokenOf(inv.url);
    const greet = await call('GET', `/api/invites/${token}`, null);
    expect(greet.statusCode).toBe(200);
    expect(greet.headers['cache-control']).toBe('no-store');
    expect(greet.json()).toEqual({ kind: 'teacher', name: 'Tamer Tan', email, school: s.name, students: [], expires_at: inv.expires_at });

    const short = await call('POST', `/api/invites/${token}/accept`, null, { password: 'kurz' });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.password).toEqual(['Das Passwort muss mindestens 8 Zeichen lang sein.']);
    const shortTr = await call('POST', `/api/invites/${token}/accept?language=tr`, null, { password: 'kurz' });
    expect(shortTr.json().errors.password).toEqual(['Şifre en az 8 karakter olmalıdır.']);

    const usersBefore = await count(sql`select count(*)::int as n from users`);
    const res = await call('POST', `/api/invites/${token}/accept`, null, { password: 'lange-geheim' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.user).toMatchObject({ name: 'Tamer Tan', email, role: { name: 'teacher' } });
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: { authorization: `Bearer ${body.token}` } });
    expect(me.json()).toMatchObject({ id: body.user.id, role: { name: 'teacher' } });
    const courses = await t.app.inject({ method: 'GET', url: '/api/courses', headers: { authorization: `Bearer ${body.token}` } });
    expect(courses.statusCode).toBe(200);
    const [u] = await rows<{ school_id: number; role: string }>(t.db, sql`select school_id, role from users where id = ${body.user.id}`);
    expect(u).toEqual({ school_id: s.id, role: 'teacher' });
    expect((await call('POST', '/api/login', null, { email, password: 'lange-geheim' })).statusCode).toBe(200);
    // the link is used: 404 for both calls, nothing more created
    expect((await call('GET', `/api/invites/${token}`, null)).statusCode).toBe(404);
    const second = await call('POST', `/api/invites/${token}/accept`, null, { password: 'lange-geheim' });
    expect(second.statusCode).toBe(404);
    expect(second.json().message).toBe('Dieser Einladungslink ist ungültig oder abgelaufen. Bitte bitten Sie um eine neue Einladung.');
    expect(await count(sql`select count(*)::int as n from users`)).toBe(usersBefore + 1);
    const [entry] = await rows<{ actor_id: number; actor_role: string; target_id: number; details: unknown }>(
      t.db,
      sql`select actor_id, actor_role, target_id, details from audit_log where school_id = ${s.id} and action = 'invite.accept'`,
    );
    expect(entry).toMatchObject({ actor_id: body.user.id, actor_role: 'teacher', target_id: body.user.id });
    const d = typeof entry!.details === 'string' ? JSON.parse(entry!.details) : entry!.details;
    expect(d).toMatchObject({ invite_id: inv.id, role: 'teacher', email });
    // the administrator sees the accepted invitation and the new teacher
    expect((await call('GET', '/api/school/teachers', admin)).json().data.map((x: { id: number }) => x.id)).toContain(body.user.id);
  });

  it('two accepts of one link at once: exactly one account', async () => {
    const { admin } = await school();
    const email = mail('gleichzeitig');
    const inv = (await call('POST', '/api/school/invites', admin, { name: 'Doppel Klick', email })).json();
    const token = tokenOf(inv.url);
    const results = await Promise.all([0, 1].map(() => call('POST', `/api/invites/${token}/accept`, null, { password: 'lange-geheim' })));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    expect(await count(sql`select count(*)::int as n from users where lower(email) = lower(${email})`)).toBe(1);
    expect(await count(sql`select count(*)::int as n from audit_log where action = 'invite.accept' and (details->>'invite_id')::int = ${inv.id}`)).toBe(1);
  });

  it('answers 404 for an unknown, malformed, expired or revoked link; 409 when an account with the address appeared meanwhile', async () => {
    const { admin, teacher } = await school();
    for (const token of ['A'.repeat(43), 'kurz', `${'B'.repeat(42)}!`]) {
      expect((await call('GET', `/api/invites/${encodeURIComponent(token)}`, null)).statusCode, token).toBe(404);
      expect((await call('POST', `/api/invites/${encodeURIComponent(token)}/accept`, null, { password: 'lange-geheim' })).statusCode, token).toBe(404);
    }
    const expired = (await call('POST', '/api/school/invites', admin, { name: 'Spät', email: mail('spaet') })).json();
    await t.db.execute(sql`update invites set expires_at = now() - interval '1 second' where id = ${expired.id}`);
    expect((await call('GET', `/api/invites/${tokenOf(expired.url)}`, null)).statusCode).toBe(404);
    expect((await call('POST', `/api/invites/${tokenOf(expired.url)}/accept`, null, { password: 'lange-geheim' })).statusCode).toBe(404);
    // meanwhile a teacher made a student with the invited address
    const email = mail('belegt');
    const inv = (await call('POST', '/api/school/invites', admin, { name: 'Belegt', email })).json();
    await t.student(teacher, { email });
    const taken = await call('POST', `/api/invites/${tokenOf(inv.url)}/accept`, null, { password: 'lange-geheim' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Zu dieser E-Mail-Adresse gibt es bereits ein Konto.');
    expect(await count(sql`select count(*)::int as n from invites where id = ${inv.id} and accepted_at is null`)).toBe(1);
  });

  it('a guardian invitation links the new account to the invitation’s children that are still students of the school', async () => {
    const { school: s, teacher } = await school();
    const kid1 = await t.student(teacher, { name: 'Deniz Kind' });
    const kid2 = await t.student(teacher, { name: 'Elif Kind' });
    const other = await school();
    const foreignKid = await t.student(other.teacher, { name: 'Fremdes Kind' });
    const email = mail('eltern');
    const inv = await createInvite(t.db, teacher, { kind: 'guardian', name: 'Frau Kind', email, studentIds: [kid1.id, kid2.id, foreignKid.id] }, 'https://schule.example', null);
    expect(inv.students).toEqual([{ id: kid1.id, name: 'Deniz Kind' }, { id: kid2.id, name: 'Elif Kind' }]);
    expect(inv.url).toMatch(/^https:\/\/schule\.example\/einladung\//);
    const token = tokenOf(inv.url);
    expect((await call('GET', `/api/invites/${token}`, null)).json()).toMatchObject({ kind: 'guardian', students: ['Deniz Kind', 'Elif Kind'], school: s.name });
    // one child leaves the school before the parent accepts
    await t.db.execute(sql`delete from users where id = ${kid2.id}`);
    const res = await call('POST', `/api/invites/${token}/accept`, null, { password: 'eltern-123' });
    expect(res.statusCode).toBe(200);
    expect(res.json().user.role).toEqual({ name: 'guardian' });
    const links = await rows<{ student_id: number; school_id: number }>(t.db, sql`select student_id, school_id from guardian_links where guardian_id = ${res.json().user.id}`);
    expect(links).toEqual([{ student_id: kid1.id, school_id: s.id }]);
    // an invitation whose every child has left the school: its link is void, no childless account is made
    const kid3 = await t.student(teacher);
    const orphan = await createInvite(t.db, teacher, { kind: 'guardian', name: 'Herr Weg', email: mail('weg'), studentIds: [kid3.id] }, 'https://schule.example', null);
    await t.db.execute(sql`delete from users where id = ${kid3.id}`);
    expect((await call('GET', `/api/invites/${tokenOf(orphan.url)}`, null)).statusCode).toBe(404);
    expect((await call('POST', `/api/invites/${tokenOf(orphan.url)}/accept`, null, { password: 'eltern-123' })).statusCode).toBe(404);
    expect(await count(sql`select count(*)::int as n from users where lower(email) = lower(${orphan.email})`)).toBe(0);
  });
});

describe('invitation mails (SMTP_URL, SMTP_FROM)', () => {
  const sample: InviteMail = {
    to: 'nora@example.test',
    name: 'Nora Neu',
    kind: 'teacher',
    school: 'Musikschule Klangwelt',
    invitedBy: 'Verwaltung',
    url: `https://schule.example/einladung/${'x'.repeat(43)}`,
    expiresAt: new Date('2026-05-14T22:30:00Z'),
    students: [],
  };

  it('says who, where, the link and until when, in German and in Turkish (dates dd.mm.yyyy in the school’s zone)', async () => {
    const { subject, text } = inviteMailContent(sample, 'Europe/Berlin');
    expect(subject).toContain('Musikschule Klangwelt');
    expect(text).toContain('Hallo Nora Neu');
    expect(text).toContain('lädt Sie als Lehrkraft der Musikschule Klangwelt');
    expect(text).toContain('Merhaba Nora Neu');
    expect(text).toContain('öğretmeni olarak');
    expect(text).toContain('gültig bis 15.05.2026');
    expect(text).toContain('15.05.2026 tarihine kadar geçerli');
    expect(text.split(sample.url)).toHaveLength(3); // the link in both parts
    const guardian = inviteMailContent({ ...sample, kind: 'guardian', students: ['Deniz', 'Elif'] }, 'Europe/Berlin').text;
    expect(guardian).toContain('die Übungen von Deniz, Elif');
    expect(guardian).toContain('Deniz, Elif adlı öğrencinin');
  });

  it('sends through a nodemailer transport (stream transport: no network) and reports a failure as false', async () => {
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
    const logs: string[] = [];
    const log = { info: (_o: unknown, m: string) => logs.push(m), warn: (_o: unknown, m: string) => logs.push(`warn: ${m}`) };
    const mailer = new NodemailerMailer(transport, 'Schule <schule@example.test>', 'Europe/Berlin', log as never);
    expect(await mailer.sendInvite(sample)).toBe(true);
    const broken = nodemailer.createTransport({ streamTransport: true, buffer: true });
    (broken as unknown as { sendMail: () => Promise<never> }).sendMail = () => Promise.reject(new Error('no route'));
    const failing = new NodemailerMailer(broken, 'Schule <schule@example.test>', 'Europe/Berlin', log as never);
    expect(await failing.sendInvite(sample)).toBe(false);
    expect(logs).toEqual(['invitation e-mailed', 'warn: could not e-mail an invitation']);
  });

  it('with a mail server configured, e-mails the link (emailed: true); a refused send keeps the invitation (emailed: false)', async () => {
    const smtp = await startTestSmtp();
    const refusing = await startTestSmtp({ refuse: true });
    const withMail = await setupTestApp({ SMTP_URL: smtp.url, SMTP_FROM: 'Musikschule <verwaltung@example.test>' });
    const failing = await setupTestApp({ SMTP_URL: refusing.url, SMTP_FROM: 'verwaltung@example.test' });
    try {
      const s = await withMail.school('Musikschule Mailtest');
      const admin = await withMail.admin({ schoolId: s.id });
      const email = mail('post');
      const res = await withMail.app.inject({ method: 'POST', url: '/api/school/invites', headers: admin.headers, payload: { name: 'Paula Post', email } });
      expect(res.statusCode).toBe(201);
      expect(res.json().emailed).toBe(true);
      expect(smtp.mails).toHaveLength(1);
      const sent = smtp.mails[0]!;
      expect(sent.from).toContain('verwaltung@example.test');
      expect(sent.to).toEqual([email]);
      const body = sent.text;
      expect(body).toContain(res.json().url);
      expect(body).toContain('Hallo Paula Post');
      expect(body).toContain('Merhaba Paula Post');
      expect(body).toContain('Musikschule Mailtest');

      const s2 = await failing.school();
      const admin2 = await failing.admin({ schoolId: s2.id });
      const res2 = await failing.app.inject({ method: 'POST', url: '/api/school/invites', headers: admin2.headers, payload: { name: 'Kein Postfach', email: mail('nix') } });
      expect(res2.statusCode).toBe(201);
      expect(res2.json().emailed).toBe(false);
      expect(refusing.mails).toHaveLength(0);
      const greet = await failing.app.inject({ method: 'GET', url: `/api/invites/${tokenOf(res2.json().url)}` });
      expect(greet.statusCode).toBe(200);
      const listed = await failing.app.inject({ method: 'GET', url: '/api/school/invites', headers: admin2.headers });
      expect(listed.json().data.map((i: { id: number }) => i.id)).toEqual([res2.json().id]);
    } finally {
      await withMail.close();
      await failing.close();
      await smtp.close();
      await refusing.close();
    }
  });

  it('puts the names typed into the invitation on one line of the mail (a name cannot add a line "Klick hier: …")', async () => {
    const smtp = await startTestSmtp();
    const withMail = await setupTestApp({ SMTP_URL: smtp.url, SMTP_FROM: 'verwaltung@example.test' });
    try {
      const s = await withMail.school('Musikschule\u2028Klick hier: http://evil.example/schule');
      const admin = await withMail.admin({ schoolId: s.id, name: 'Anna\u0085Klick hier: http://evil.example/admin' });
      const email = mail('zeile');
      const res = await withMail.app.inject({ method: 'POST', url: '/api/school/invites', headers: admin.headers, payload: { name: 'Paula\r\nKlick hier: http://evil.example', email } });
      expect(res.statusCode, res.body).toBe(201);
      const sent = await smtp.waitFor((m) => m.envelopeTo.includes(email));
      expect(sent.text.split(/\r?\n/).filter((l) => l.startsWith('Klick hier'))).toEqual([]);
      expect(sent.text).toContain('Hallo Paula Klick hier: http://evil.example,');
      expect(sent.text).toContain('Anna Klick hier: http://evil.example/admin lädt Sie als Lehrkraft der Musikschule Klick hier: http://evil.example/schule in die Übungskontrolle ein.');
    } finally {
      await withMail.close();
      await smtp.close();
    }
  });

  it('checks the settings: an smtp:// or smtps:// address, a sender required with it, the password hidden in the message', () => {
    expect(configSchema.parse({}).SMTP_URL).toBeUndefined();
    const ok = configSchema.parse({ SMTP_URL: 'smtps://u:p@mail.example.org:465', SMTP_FROM: 'Schule <a@example.org>' });
    expect(ok.SMTP_FROM).toBe('Schule <a@example.org>');
    const problems = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return '';
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigError);
        return (e as ConfigError).problems.join('\n');
      }
    };
    expect(problems({ SMTP_URL: 'smtp://mail.example.org' })).toMatch(/SMTP_FROM: is required when SMTP_URL is set/);
    const bad = problems({ SMTP_URL: 'http://user:geheim@mail.example.org', SMTP_FROM: 'a@example.org' });
    expect(bad).toMatch(/SMTP_URL \(got "\*\*\*"\): must be an smtp:\/\/ or smtps:\/\/ address/);
    expect(bad).not.toContain('geheim');
    expect(problems({ SMTP_URL: 'smtp://mail.example.org', SMTP_FROM: 'keine adresse' })).toMatch(/SMTP_FROM/);
  });
});
