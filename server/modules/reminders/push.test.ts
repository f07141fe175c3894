import nodemailer from 'nodemailer';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { rows } from '../../db/client';
import { NodemailerMailer } from '../../lib/mail';
import { Pusher, pushEndpointAllowed, vapidKeysFrom } from '../../lib/push';
import { startTestPushService } from '../../test/push-service';
import { startTestSmtp, type TestSmtp } from '../../test/smtp';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { RemindersService } from './reminders.service';

/**
 * Web Push (docs/decisions/web-push.md) through the real server and a push service on loopback
 * that checks the VAPID signature and decrypts each payload with the subscription's own keys.
 */
let push: Awaited<ReturnType<typeof startTestPushService>>;
let smtp: TestSmtp;
let t: TestApp;
let service: RemindersService;
let mailer: NodemailerMailer;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
let publicKey = '';

beforeAll(async () => {
  push = await startTestPushService(() => publicKey);
  smtp = await startTestSmtp();
  t = await setupTestApp({ PUBLIC_URL: 'https://schule.example.org', PUSH_SERVICE_HOSTS: `fcm.googleapis.com,${push.host}` });
  publicKey = vapidKeysFrom(t.deps.secret).publicKey;
  mailer = new NodemailerMailer(nodemailer.createTransport({ url: smtp.url }), 'Musikschule <post@example.test>', 'Europe/Berlin', silent);
  const pusher = new Pusher(t.deps.secret, 'https://schule.example.org', t.deps.config.PUSH_SERVICE_HOSTS, silent);
  service = new RemindersService(t.db, t.deps.config, t.deps.secret, silent, pusher);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await push.close();
});

const berlin = (local: string) => new Date(`${local}:00+01:00`);
const call = (who: TestUser | null, method: string, url: string, payload?: unknown) =>
  t.app.inject({ method: method as 'GET', url, headers: who?.headers ?? {}, ...(payload !== undefined ? { payload: payload as string } : {}) });

async function dueStudent(o: { name: string; lang?: 'de' | 'tr' }) {
  const teacher = await t.teacher();
  const student = await t.student(teacher, { name: o.name });
  const exercise = await t.exercise(teacher, { title: `Hicaz-Etüde ${student.id}` });
  const task = await t.submission(student, teacher, exercise, { dueDate: '2027-02-10' });
  const q = o.lang === 'tr' ? '?language=tr' : '';
  expect((await call(student, 'PUT', `/api/notification-settings${q}`, { reminder_time: '16:00' })).statusCode).toBe(200);
  return { teacher, student, task, exercise };
}

describe('subscribing', () => {
  it('students and parents subscribe a device of an allowed push service; anything else is refused', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    const parent = await t.guardian([student]);
    const info = await call(student, 'GET', '/api/push');
    expect(info.json()).toEqual({ public_key: publicKey, devices: 0 });
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    expect((await call(teacher, 'GET', '/api/push')).statusCode).toBe(403);
    expect((await call(null, 'GET', '/api/push')).statusCode).toBe(401);

    const sub = push.subscribe();
    expect((await call(student, 'PUT', '/api/push/subscription', sub)).json()).toEqual({ public_key: publicKey, devices: 1 });
    expect((await call(student, 'PUT', '/api/push/subscription', sub)).json().devices).toBe(1);
    expect((await call(parent, 'PUT', '/api/push/subscription', push.subscribe())).json().devices).toBe(1);
    expect((await call(teacher, 'PUT', '/api/push/subscription', push.subscribe())).statusCode).toBe(403);

    // the server posts to the endpoint: only the allowed push services, never an address of the school's network
    for (const endpoint of ['https://evil.example/push/1', 'http://fcm.googleapis.com/fcm/send/x', 'http://10.0.0.1/push', 'https://fcm.googleapis.com.evil.example/x', 'file:///etc/passwd']) {
      const res = await call(student, 'PUT', '/api/push/subscription', { ...sub, endpoint });
      expect(res.statusCode, endpoint).toBe(422);
    }
    const refused = await call(student, 'PUT', '/api/push/subscription', { ...sub, endpoint: 'https://evil.example/push/1' });
    expect(refused.json().errors.endpoint).toEqual(['Dieser Push-Dienst wird nicht unterstützt. Die Benachrichtigungen kommen weiter per E-Mail.']);
    expect((await call(student, 'PUT', '/api/push/subscription', { ...sub, keys: { p256dh: 'abc', auth: sub.keys.auth } })).statusCode).toBe(422);

    // another user cannot remove a device that is not theirs
    expect((await call(parent, 'DELETE', '/api/push/subscription', { endpoint: sub.endpoint })).json().devices).toBe(1);
    expect((await call(student, 'DELETE', '/api/push/subscription', { endpoint: sub.endpoint })).json().devices).toBe(0);
  });

  it('allows listed hosts only, https except for a listed loopback', () => {
    const hosts = ['fcm.googleapis.com', '*.notify.windows.com', '127.0.0.1:9999'];
    expect(pushEndpointAllowed('https://fcm.googleapis.com/fcm/send/abc', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://db5p.notify.windows.com/w/?token=1', hosts)).toBe(true);
    expect(pushEndpointAllowed('https://notify.windows.com/w', hosts)).toBe(false);
    expect(pushEndpointAllowed('https://xnotify.windows.com/w', hosts)).toBe(false);
    expect(pushEndpointAllowed('http://127.0.0.1:9999/push/1', hosts)).toBe(true);
    expect(pushEndpointAllowed('http://127.0.0.1:9998/push/1', hosts)).toBe(false);
    expect(pushEndpointAllowed('not a url', hosts)).toBe(false);
  });

  it('allows the default port 443 only, unless an entry names a port, and no userinfo', () => {
    const hosts = ['fcm.googleapis.com', '*.notify.windows.com', 'push.example.org:8443', '127.0.0.1:9999'];
    expect(pushEndpointAllowed('https://fcm.googleapis.com:443/fcm/send/abc', hosts)).toBe(true);
    for (const endpoint of [
      'https://fcm.googleapis.com:8443/fcm/send/abc',
      'https://fcm.googleapis.com:22/fcm/send/abc',
      'https://db5p.notify.windows.com:25/w',
      'https://push.example.org/w', // listed with its own port only
      'https://push.example.org:8444/w',
      'https://user:secret@fcm.googleapis.com/fcm/send/abc',
      'https://user@fcm.googleapis.com/fcm/send/abc',
      'https://:secret@db5p.notify.windows.com/w',
      'http://fcm.googleapis.com/fcm/send/abc',
      'http://user@127.0.0.1:9999/push/1',
      'http://127.0.0.1/push/1',
      'ftp://fcm.googleapis.com/x',
    ])
      expect(pushEndpointAllowed(endpoint, hosts), endpoint).toBe(false);
    expect(pushEndpointAllowed('https://push.example.org:8443/w', hosts)).toBe(true);
  });

  it('refuses a subscription on another port or with userinfo (422), and PUSH_SERVICE_HOSTS entries that are not hosts', async () => {
    const { student } = await dueStudent({ name: 'Port Probe' });
    const sub = push.subscribe();
    for (const endpoint of ['https://fcm.googleapis.com:8080/fcm/send/x', 'https://admin:pw@fcm.googleapis.com/fcm/send/x']) {
      const res = await call(student, 'PUT', '/api/push/subscription', { ...sub, endpoint });
      expect(res.statusCode, endpoint).toBe(422);
      expect(res.json().errors.endpoint, endpoint).toHaveLength(1);
    }
    expect(loadConfig({ PUSH_SERVICE_HOSTS: 'fcm.googleapis.com, *.notify.windows.com ,push.example.org:8443,[::1]:9000' }).PUSH_SERVICE_HOSTS).toEqual([
      'fcm.googleapis.com',
      '*.notify.windows.com',
      'push.example.org:8443',
      '[::1]:9000',
    ]);
    for (const bad of ['https://fcm.googleapis.com', 'user@fcm.googleapis.com', 'fcm.googleapis.com/path', 'fcm.googleapis.com:0', 'fcm.googleapis.com:70000', '*', 'a b'])
      expect(() => loadConfig({ PUSH_SERVICE_HOSTS: bad }), bad).toThrow(ConfigError);
  });
});

describe('the reminder by push', () => {
  it('goes to the subscribed device instead of a mail: signed with the server key, encrypted for the device, a tap opens the task', async () => {
    const { student, task, exercise } = await dueStudent({ name: 'Pia Push' });
    const sub = push.subscribe();
    await call(student, 'PUT', '/api/push/subscription', sub);
    // a second device, subscribed on a Turkish page, gets the notification in Turkish
    const turkish = push.subscribe();
    await call(student, 'PUT', '/api/push/subscription?language=tr', turkish);
    const before = push.received.length;
    const run = await service.run(mailer, berlin('2027-02-10T16:00'));
    expect(run).toMatchObject({ pushed: 1, failed: 0 });
    const got = push.received.slice(before).filter((p) => sub.endpoint.endsWith(p.subscription));
    expect(got).toHaveLength(1);
    expect(push.received.slice(before).find((p) => turkish.endpoint.endsWith(p.subscription))?.payload).toMatchObject({
      title: 'Çalışma zamanı',
      body: `${exercise.title} seni bekliyor.`,
    });
    expect(got[0]!.payload).toEqual({ title: 'Zeit zum Üben', body: `${exercise.title} wartet auf dich.`, url: `/submissions/${task.id}`, tag: 'practice-2027-02-10' });
    expect(got[0]!.vapid).toMatchObject({ aud: `http://${push.host}`, sub: 'https://schule.example.org' });
    expect(got[0]!.ttl).toBe(4 * 3600);
    expect(smtp.mails.filter((m) => m.envelopeTo.includes(student.email))).toHaveLength(0);
    expect(push.refused).toEqual([]);
    // once a day, push or not
    expect((await service.run(mailer, berlin('2027-02-10T17:00'))).claimed).toBe(0);
  });

  it('a device the push service calls gone (410) is forgotten and the reminder comes by mail in the same run; Turkish when set so', async () => {
    const { student } = await dueStudent({ name: 'Deniz Gone', lang: 'tr' });
    const sub = push.subscribe();
    await call(student, 'PUT', '/api/push/subscription?language=tr', sub);
    push.answer(sub.endpoint, 410);
    const run = await service.run(mailer, berlin('2027-02-10T16:05'));
    expect(run.pushed).toBe(0);
    const [n] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from push_subscriptions where user_id = ${student.id}`);
    expect(n!.n).toBe(0);
    const mails = smtp.mails.filter((m) => m.envelopeTo.includes(student.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.headers['content-language']).toBe('tr');
  });

  it('without a mail server, only students with a device are claimed', async () => {
    const { student: withDevice } = await dueStudent({ name: 'Mit Gerät' });
    const { student: without } = await dueStudent({ name: 'Ohne Gerät' });
    await call(withDevice, 'PUT', '/api/push/subscription', push.subscribe());
    await service.run(null, berlin('2027-02-10T16:10'));
    const claimed = await rows<{ user_id: number }>(t.db, sql`select user_id from reminders_sent where user_id in (${withDevice.id}, ${without.id}) and kind = 'practice'`);
    expect(claimed.map((c) => c.user_id)).toEqual([withDevice.id]);
  });
});

describe('the digest by push', () => {
  it('opens the take at the newest comment (a parent: the child’s page)', async () => {
    const teacher = await t.teacher({ name: 'Herr Hoca' });
    const student = await t.student(teacher, { name: 'Ela Push' });
    const parent = await t.guardian([student]);
    const exercise = await t.exercise(teacher, { title: 'Uşşak-Etüde' });
    const task = await t.submission(student, teacher, exercise, { dueDate: '2027-03-01' });
    const [r] = await rows<{ id: number }>(
      t.db,
      sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms, feedback_at)
          values (${task.id}, ${student.id}, ${teacher.id}, 'audio', 'audio/wav', ${`recordings/${task.id}/p.wav`}, 'take.wav', 100, 4000, ${berlin('2027-03-01T15:00')}) returning id`,
    );
    const [c] = await rows<{ id: number }>(t.db, sql`insert into recording_comments (recording_id, teacher_id, at_ms, text) values (${r!.id}, ${teacher.id}, 2500, 'Hier!') returning id`);
    const devices = new Map<TestUser, string>();
    for (const who of [student, parent]) {
      await call(who, 'PUT', '/api/notification-settings/digest', { feedback_digest: true });
      const sub = push.subscribe();
      devices.set(who, sub.endpoint);
      await call(who, 'PUT', '/api/push/subscription', sub);
    }
    await service.runDigest(mailer, berlin('2027-03-01T18:00'));
    const of = (who: TestUser) => push.received.filter((p) => devices.get(who)!.endsWith(p.subscription)).map((p) => p.payload);
    expect(of(student)).toEqual([{ title: 'Neues Feedback', body: 'Uşşak-Etüde (Herr Hoca)', url: `/submissions/${task.id}?take=${r!.id}&t=2500#comment-${c!.id}`, tag: 'digest-2027-03-01' }]);
    expect(of(parent)).toEqual([expect.objectContaining({ body: 'Ela Push: Uşşak-Etüde (Herr Hoca)', url: `/children/${student.id}?take=${r!.id}&t=2500#comment-${c!.id}` })]);
  });
});
