import nodemailer from 'nodemailer';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../../db/client';
import { NodemailerMailer } from '../../lib/mail';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../../test/smtp';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import { RemindersService, unsubscribeToken } from './reminders.service';

/**
 * The daily practice reminder (docs/decisions/reminders.md) through the real server, the real
 * database and a real SMTP server: the settings and their checks, the job's rules on a moved
 * clock (a day boundary and the change to summer time in Europe/Berlin), once across concurrent
 * runs, and the one-click unsubscribe.
 */

let smtp: TestSmtp;
let t: TestApp;
let mailer: NodemailerMailer;
let service: RemindersService;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(async () => {
  smtp = await startTestSmtp();
  // No mail server for the app itself: its own job (every few minutes, on the real clock) must not
  // send beside the runs below, which use `mailer` on a moved clock.
  t = await setupTestApp({ PUBLIC_URL: 'https://schule.example.org' });
  mailer = new NodemailerMailer(nodemailer.createTransport({ url: smtp.url }), 'Musikschule <post@example.test>', 'Europe/Berlin', silent);
  service = new RemindersService(t.db, t.deps.config, t.deps.secret, silent);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const mailsTo = (email: string): ReceivedMail[] => smtp.mails.filter((m) => m.envelopeTo.includes(email));
/** An instant given as the wall clock of Europe/Berlin ('2026-03-28T16:59', offset as it is that day). */
const berlin = (local: string, offset: '+01:00' | '+02:00') => new Date(`${local}:00${offset}`);

async function studentWithTask(o: { dueDate: string; reminder?: string; lang?: 'de' | 'tr'; name?: string }) {
  const teacher = await t.teacher();
  const student = await t.student(teacher, { name: o.name ?? 'Emma Erinnerung' });
  const exercise = await t.exercise(teacher, { title: `Etüde ${student.id}` });
  const task = await t.submission(student, teacher, exercise, { dueDate: o.dueDate });
  if (o.reminder) {
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/notification-settings${o.lang === 'tr' ? '?language=tr' : ''}`,
      headers: student.headers,
      payload: { reminder_time: o.reminder },
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return { teacher, student, exercise, task };
}

async function practised(student: TestUser, taskId: number, at: Date) {
  await t.db.execute(
    sql`insert into practice_sessions (submission_id, student_id, started_at, ended_at, duration_minutes) values (${taskId}, ${student.id}, ${at}, ${new Date(at.getTime() + 600_000)}, 10)`,
  );
}

describe('the settings', () => {
  it('start empty, keep a time, refuse the quiet hours (422, de/tr), end with null; students and parents only (403 otherwise, 401 guests)', async () => {
    const { student, teacher } = await studentWithTask({ dueDate: '2026-01-01' });
    const get = await t.app.inject({ method: 'GET', url: '/api/notification-settings', headers: student.headers });
    expect(get.statusCode).toBe(200);
    expect(get.json()).toEqual({
      reminder_time: null,
      email: student.email,
      mail_available: false,
      quiet_hours: { from: '21:00', to: '07:00' },
      time_zone: 'Europe/Berlin',
    });
    const put = (payload: unknown, q = '') => t.app.inject({ method: 'PUT', url: `/api/notification-settings${q}`, headers: student.headers, payload: payload as object });
    expect((await put({ reminder_time: '17:30' })).json().reminder_time).toBe('17:30');
    for (const night of ['21:00', '23:59', '00:00', '06:59']) {
      const res = await put({ reminder_time: night });
      expect(res.statusCode, night).toBe(422);
      expect(res.json().errors.reminder_time[0]).toBe('Diese Uhrzeit liegt in der Nachtruhe der Schule. Erinnerungen gibt es nur außerhalb davon.');
    }
    expect((await put({ reminder_time: '22:00' }, '?language=tr')).json().errors.reminder_time[0]).toContain('sessizlik');
    for (const bad of ['7:00', '24:00', '12:60', 'abends', '', 1700]) expect((await put({ reminder_time: bad })).statusCode, String(bad)).toBe(422);
    expect((await put({ reminder_time: '07:00' })).json().reminder_time).toBe('07:00');
    const [kept] = await rows<{ reminder_time: string }>(t.db, sql`select reminder_time from notification_settings where user_id = ${student.id}`);
    expect(kept!.reminder_time).toBe('07:00');
    expect((await put({ reminder_time: null })).json().reminder_time).toBeNull();

    expect((await t.app.inject({ method: 'GET', url: '/api/notification-settings', headers: teacher.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: '/api/notification-settings', headers: teacher.headers, payload: { reminder_time: '17:00' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/notification-settings' })).statusCode).toBe(401);
  });
});

describe('the job', () => {
  it('mails at the chosen time, once a day, in the student’s language, names the tasks and links them, with a one-click unsubscribe', async () => {
    const { student, task, exercise } = await studentWithTask({ dueDate: '2026-11-26', reminder: '17:00', name: 'Emma Erinnerung' });
    expect((await service.run(mailer, berlin('2026-11-26T16:59', '+01:00'))).claimed).toBe(0);
    const first = await service.run(mailer, berlin('2026-11-26T17:00', '+01:00'));
    expect(first).toMatchObject({ today: '2026-11-26', time: '17:00', quiet: false });
    expect(first.sent).toBeGreaterThanOrEqual(1);
    const mails = mailsTo(student.email);
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe('Erinnerung: Heute schon geübt?');
    expect(mail.headers['content-language']).toBe('de');
    expect(mail.text).toContain('Hallo Emma Erinnerung,');
    expect(mail.text).toContain(`- ${exercise.title} (heute fällig): https://schule.example.org/submissions/${task.id}`);
    expect(mail.text).toContain('für 17:00 Uhr eingestellt');
    const token = unsubscribeToken(t.deps.secret, student.id);
    expect(mail.text).toContain(`Abbestellen: https://schule.example.org/abmelden/${token}`);
    expect(mail.headers['list-unsubscribe']).toBe(`<https://schule.example.org/api/unsubscribe/${token}>`);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');

    // the same day again: nothing; the next day (task still open, now overdue): again
    expect((await service.run(mailer, berlin('2026-11-26T18:30', '+01:00'))).claimed).toBe(0);
    expect(mailsTo(student.email)).toHaveLength(1);
    await service.run(mailer, berlin('2026-11-27T17:05', '+01:00'));
    const next = mailsTo(student.email);
    expect(next).toHaveLength(2);
    expect(next[1]!.text).toContain(`- ${exercise.title} (fällig seit 26.11.2026)`);
  });

  it('is not sent to a student who practised that day, nor for tasks done, not due yet, long overdue or expired', async () => {
    const a = await studentWithTask({ dueDate: '2026-11-20', reminder: '16:00' });
    await practised(a.student, a.task.id, berlin('2026-11-20T08:15', '+01:00'));
    const b = await studentWithTask({ dueDate: '2026-11-21', reminder: '16:00' });
    await t.db.execute(sql`update submissions set completed_at = now() where id = ${b.task.id}`);
    const c = await studentWithTask({ dueDate: '2026-11-22', reminder: '16:00' });
    const d = await studentWithTask({ dueDate: '2026-11-01', reminder: '16:00' });
    const e = await studentWithTask({ dueDate: '2026-11-19', reminder: '16:00' });
    await t.db.execute(sql`update submissions set expiration_date = '2026-11-19' where id = ${e.task.id}`);
    await service.run(mailer, berlin('2026-11-20T16:10', '+01:00'));
    for (const s of [a, b, c, d, e]) expect(mailsTo(s.student.email), s.student.email).toHaveLength(0);
    // practice yesterday does not count for today
    await service.run(mailer, berlin('2026-11-21T16:10', '+01:00'));
    expect(mailsTo(a.student.email)).toHaveLength(1);
  });

  it('keeps the school’s wall clock across the change to summer time, and sends nothing in the quiet hours even when a run comes late', async () => {
    const { student } = await studentWithTask({ dueDate: '2026-03-28', reminder: '18:00' });
    // Saturday 28 March, CET (UTC+1): 18:00 is 17:00 UTC
    expect((await service.run(mailer, new Date('2026-03-28T16:59:00Z'))).claimed).toBe(0);
    await service.run(mailer, new Date('2026-03-28T17:00:00Z'));
    expect(mailsTo(student.email)).toHaveLength(1);
    // Sunday 29 March, CEST (UTC+2) from 02:00: 18:00 is 16:00 UTC
    expect((await service.run(mailer, new Date('2026-03-29T15:59:00Z'))).time).toBe('17:59');
    expect(mailsTo(student.email)).toHaveLength(1);
    expect((await service.run(mailer, new Date('2026-03-29T16:00:00Z'))).time).toBe('18:00');
    expect(mailsTo(student.email)).toHaveLength(2);
    // a late run at 21:30 of a day without a reminder yet: quiet, nothing claimed
    const late = await service.run(mailer, new Date('2026-03-30T19:30:00Z'));
    expect(late).toMatchObject({ time: '21:30', quiet: true, claimed: 0 });
    const morning = await service.run(mailer, new Date('2026-03-31T04:30:00Z'));
    expect(morning).toMatchObject({ time: '06:30', quiet: true });
    expect(mailsTo(student.email)).toHaveLength(2);
  });

  it('writes in Turkish when it was set on a Turkish page', async () => {
    const { student } = await studentWithTask({ dueDate: '2026-05-04', reminder: '15:00', lang: 'tr', name: 'Deniz Hatırla' });
    await service.run(mailer, berlin('2026-05-04T15:00', '+02:00'));
    const [mail] = mailsTo(student.email);
    expect(mail!.subject).toBe('Hatırlatma: Bugün çalıştın mı?');
    expect(mail!.headers['content-language']).toBe('tr');
    expect(mail!.text).toContain('Merhaba Deniz Hatırla,');
    expect(mail!.text).toContain('(bugün)');
    expect(mail!.text).not.toContain('Erinnerung');
  });

  it('sends each reminder once when several runs (processes) start at the same moment; a failed mail is tried again by the next run', async () => {
    const many = await Promise.all(Array.from({ length: 5 }, () => studentWithTask({ dueDate: '2026-06-10', reminder: '12:00' })));
    const at = berlin('2026-06-10T12:01', '+02:00');
    const runs = await Promise.all([service.run(mailer, at), service.run(mailer, at), service.run(mailer, at)]);
    expect(runs.reduce((n, r) => n + r.sent, 0)).toBeGreaterThanOrEqual(5);
    for (const s of many) expect(mailsTo(s.student.email), s.student.email).toHaveLength(1);

    const refusing = await startTestSmtp({ refuse: true });
    try {
      const failing = new NodemailerMailer(nodemailer.createTransport({ url: refusing.url }), 'post@example.test', 'Europe/Berlin', silent);
      const { student } = await studentWithTask({ dueDate: '2026-06-11', reminder: '12:00' });
      const failed = await service.run(failing, berlin('2026-06-11T12:00', '+02:00'));
      expect(failed.failed).toBeGreaterThanOrEqual(1);
      expect(mailsTo(student.email)).toHaveLength(0);
      await service.run(mailer, berlin('2026-06-11T12:05', '+02:00'));
      expect(mailsTo(student.email)).toHaveLength(1);
    } finally {
      await refusing.close();
    }
  });

  it('the settings say whether the school sends mail at all', async () => {
    const withMail = await setupTestApp({ SMTP_URL: smtp.url, SMTP_FROM: 'post@example.test' });
    try {
      const student = await withMail.student(await withMail.teacher());
      const parent = await withMail.guardian([student]);
      expect((await withMail.app.inject({ method: 'GET', url: '/api/notification-settings', headers: student.headers })).json().mail_available).toBe(true);
      expect((await withMail.app.inject({ method: 'GET', url: '/api/guardian/weekly-note', headers: parent.headers })).json().mail_available).toBe(true);
      expect((await withMail.app.inject({ method: 'GET', url: '/api/notification-settings/digest', headers: parent.headers })).json().mail_available).toBe(true);
    } finally {
      await withMail.close();
    }
  });

  it('claims nothing without a mail server', async () => {
    await studentWithTask({ dueDate: '2026-07-01', reminder: '10:00' });
    expect(await service.run(null, berlin('2026-07-01T10:00', '+02:00'))).toMatchObject({ claimed: 0, sent: 0 });
  });
});

describe('a parent’s practice reminder', () => {
  it('names the children who have a task due and have not practised, links their pages, and comes once', async () => {
    const teacher = await t.teacher();
    const ada = await t.student(teacher, { name: 'Ada Kind' });
    const ben = await t.student(teacher, { name: 'Ben Kind' });
    const parent = await t.guardian([ada, ben], { name: 'Vera Eltern' });
    const exercise = await t.exercise(teacher, { title: 'Rast-Taksim' });
    const adaTask = await t.submission(ada, teacher, exercise, { dueDate: '2027-04-14' });
    const benTask = await t.submission(ben, teacher, exercise, { dueDate: '2027-04-14' });
    const put = await t.app.inject({ method: 'PUT', url: '/api/notification-settings', headers: parent.headers, payload: { reminder_time: '18:00' } });
    expect(put.statusCode).toBe(200);
    // Ben practised today: only Ada is named
    await practised(ben, benTask.id, new Date('2027-04-14T13:00:00+02:00'));
    expect((await service.run(mailer, new Date('2027-04-14T17:59:00+02:00'))).claimed).toBe(0);
    await service.run(mailer, new Date('2027-04-14T18:00:00+02:00'));
    const [mail, ...more] = mailsTo(parent.email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('Erinnerung: Ada Kind hat heute noch nicht geübt');
    expect(mail!.text).toContain('Guten Tag Vera Eltern,');
    expect(mail!.text).toContain(`- Ada Kind: Rast-Taksim (heute fällig): https://schule.example.org/children/${ada.id}`);
    expect(mail!.text).not.toContain('Ben Kind');
    expect(mail!.text).not.toContain(`/submissions/${adaTask.id}`);
    expect(mail!.headers['list-unsubscribe']).toBe(`<https://schule.example.org/api/unsubscribe/${unsubscribeToken(t.deps.secret, parent.id)}>`);
    expect((await service.run(mailer, new Date('2027-04-14T19:00:00+02:00'))).claimed).toBe(0);
    // the next day both practised: nothing
    await practised(ada, adaTask.id, new Date('2027-04-15T08:00:00+02:00'));
    await practised(ben, benTask.id, new Date('2027-04-15T08:00:00+02:00'));
    expect((await service.run(mailer, new Date('2027-04-15T18:30:00+02:00'))).claimed).toBe(0);
  });
});

describe('names in the mail', () => {
  it('a child’s name, a task’s title and the parent’s own name stay on their line (a name cannot add a line "Klick hier: …")', async () => {
    const teacher = await t.teacher();
    const child = await t.student(teacher, { name: 'Ada\r\nKlick hier: http://evil.example' });
    const parent = await t.guardian([child], { name: 'Vera\nKlick hier: http://evil.example/eltern' });
    const exercise = await t.exercise(teacher, { title: 'Rast\u2028Klick hier: http://evil.example/aufgabe' });
    await t.submission(child, teacher, exercise, { dueDate: '2027-05-19' });
    const put = await t.app.inject({ method: 'PUT', url: '/api/notification-settings', headers: parent.headers, payload: { reminder_time: '18:00' } });
    expect(put.statusCode).toBe(200);
    await service.run(mailer, new Date('2027-05-19T18:00:00+02:00'));
    const [mail] = mailsTo(parent.email);
    expect(mail, 'the reminder').toBeDefined();
    expect(mail!.text.split(/\r?\n/).filter((l) => l.startsWith('Klick hier'))).toEqual([]);
    expect(mail!.text).toContain('Guten Tag Vera Klick hier: http://evil.example/eltern,');
    expect(mail!.text).toContain(`- Ada Klick hier: http://evil.example: Rast Klick hier: http://evil.example/aufgabe (heute fällig): https://schule.example.org/children/${child.id}`);
  });
});

describe('unsubscribe', () => {
  it('one click (RFC 8058 form POST) or the page’s POST ends the reminder; GET only describes; a forged or foreign token is 404', async () => {
    const { student } = await studentWithTask({ dueDate: '2026-08-03', reminder: '09:00', name: 'Tom Abmelder' });
    const token = unsubscribeToken(t.deps.secret, student.id);
    const info = await t.app.inject({ method: 'GET', url: `/api/unsubscribe/${token}` });
    expect(info.statusCode).toBe(200);
    expect(info.json()).toEqual({ kind: 'practice', name: 'Tom Abmelder', subscribed: true });
    expect(info.headers['cache-control']).toBe('no-store');

    const oneClick = await t.app.inject({
      method: 'POST',
      url: `/api/unsubscribe/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    expect(oneClick.json()).toMatchObject({ subscribed: false });
    const [row] = await rows<{ reminder_time: string | null }>(t.db, sql`select reminder_time from notification_settings where user_id = ${student.id}`);
    expect(row!.reminder_time).toBeNull();
    expect((await t.app.inject({ method: 'POST', url: `/api/unsubscribe/${token}` })).json()).toMatchObject({ subscribed: false });
    await service.run(mailer, berlin('2026-08-03T09:30', '+02:00'));
    expect(mailsTo(student.email)).toHaveLength(0);

    const other = await studentWithTask({ dueDate: '2026-08-03', reminder: '09:00' });
    const forged = [
      `${other.student.id}.practice.${token.split('.')[2]}`,
      `${student.id}.practice.${'A'.repeat(43)}`,
      'kaputt',
      `${student.id}.weekly.${token.split('.')[2]}`,
    ];
    for (const bad of forged) {
      expect((await t.app.inject({ method: 'GET', url: `/api/unsubscribe/${encodeURIComponent(bad)}` })).statusCode, bad).toBe(404);
      expect((await t.app.inject({ method: 'POST', url: `/api/unsubscribe/${encodeURIComponent(bad)}` })).statusCode, bad).toBe(404);
    }
    const [still] = await rows<{ reminder_time: string | null }>(t.db, sql`select reminder_time from notification_settings where user_id = ${other.student.id}`);
    expect(still!.reminder_time).toBe('09:00');
  });
});

describe('the weekly note to parents', () => {
  it('comes on Sunday from 17:00 once, with each child’s last seven days counted by hand; a parent opts in and out; students and teachers cannot', async () => {
    const teacher = await t.teacher({ name: 'Frau Lehrerin' });
    const ada = await t.student(teacher, { name: 'Ada Wochen' });
    const ben = await t.student(teacher, { name: 'Ben Wochen' });
    const parent = await t.guardian([ada, ben], { name: 'Petra Eltern' });
    const exercise = await t.exercise(teacher, { title: 'Tonleiter', estimatedMinutes: 15 });
    // the week of Mon 7 – Sun 13 December 2026 (CET)
    const done = await t.submission(ada, teacher, exercise, { dueDate: '2026-12-08', completedAt: berlin('2026-12-08T18:00', '+01:00') });
    const open = await t.submission(ada, teacher, exercise, { dueDate: '2026-12-12' });
    await t.submission(ada, teacher, exercise, { dueDate: '2026-12-01' }); // the week before: not counted
    await practised(ada, done.id, berlin('2026-12-10T16:00', '+01:00')); // 10 min
    await practised(ada, open.id, berlin('2026-12-12T09:30', '+01:00')); // 10 min
    await practised(ada, open.id, berlin('2026-12-06T09:30', '+01:00')); // a day too early: not counted
    await t.db.execute(
      sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms, message, feedback_at)
          values (${open.id}, ${ada.id}, ${teacher.id}, 'audio', 'audio/wav', ${`recordings/${open.id}/wk.wav`}, 'take.wav', 100, 2000, null, now())`,
    );

    const settings = await t.app.inject({ method: 'GET', url: '/api/guardian/weekly-note', headers: parent.headers });
    expect(settings.json()).toEqual({ weekly_note: false, email: parent.email, mail_available: false, sent_at: { weekday: 7, time: '17:00' }, time_zone: 'Europe/Berlin' });
    const on = await t.app.inject({ method: 'PUT', url: '/api/guardian/weekly-note', headers: parent.headers, payload: { weekly_note: true } });
    expect(on.json().weekly_note).toBe(true);
    for (const who of [ada, teacher]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/guardian/weekly-note', headers: who.headers })).statusCode).toBe(403);
      expect((await t.app.inject({ method: 'PUT', url: '/api/guardian/weekly-note', headers: who.headers, payload: { weekly_note: true } })).statusCode).toBe(403);
    }

    expect((await service.runWeekly(mailer, berlin('2026-12-12T17:00', '+01:00'))).claimed).toBe(0); // Saturday
    expect((await service.runWeekly(mailer, berlin('2026-12-13T16:59', '+01:00'))).claimed).toBe(0);
    const sunday = await service.runWeekly(mailer, berlin('2026-12-13T17:00', '+01:00'));
    expect(sunday.sent).toBeGreaterThanOrEqual(1);
    const [mail, ...more] = mailsTo(parent.email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('Wochenbericht aus der Übungskontrolle');
    expect(mail!.text).toContain('Guten Tag Petra Eltern,');
    expect(mail!.text).toContain('für die letzten sieben Tage (07.12.2026 – 13.12.2026)');
    expect(mail!.text).toContain(
      [
        'Ada Wochen (Lehrkraft: Frau Lehrerin)',
        '- Geübt: 20 Minuten (vorgesehen laut Aufgaben: 30 Minuten)',
        '- Aufgaben dieser Woche: 1 erledigt, 1 offen',
        `- Neues Feedback der Lehrkraft: 1 – in der App: https://schule.example.org/children/${ada.id}`,
        '',
        'Ben Wochen (Lehrkraft: Frau Lehrerin)',
        '- Geübt: 0 Minuten',
        '- Aufgaben dieser Woche: 0 erledigt, 0 offen',
        `- Kein neues Feedback – in der App: https://schule.example.org/children/${ben.id}`,
      ].join('\n'),
    );
    const token = unsubscribeToken(t.deps.secret, parent.id, 'weekly');
    expect(mail!.headers['list-unsubscribe']).toBe(`<https://schule.example.org/api/unsubscribe/${token}>`);
    expect(mail!.text).toContain(`Abbestellen: https://schule.example.org/abmelden/${token}`);

    expect((await service.runWeekly(mailer, berlin('2026-12-13T19:00', '+01:00'))).claimed).toBe(0);
    expect((await service.runWeekly(mailer, berlin('2026-12-13T21:10', '+01:00'))).quiet).toBe(true);
    // the daily reminder's run sends parents nothing
    await service.run(mailer, berlin('2026-12-14T17:00', '+01:00'));
    expect(mailsTo(parent.email)).toHaveLength(1);

    // one click on the weekly note's link ends the note (and only the note)
    const info = await t.app.inject({ method: 'GET', url: `/api/unsubscribe/${token}` });
    expect(info.json()).toEqual({ kind: 'weekly', name: 'Petra Eltern', subscribed: true });
    expect((await t.app.inject({ method: 'POST', url: `/api/unsubscribe/${token}` })).json()).toMatchObject({ kind: 'weekly', subscribed: false });
    expect((await service.runWeekly(mailer, berlin('2026-12-20T17:30', '+01:00'))).claimed).toBe(0);
    expect((await t.app.inject({ method: 'GET', url: '/api/guardian/weekly-note', headers: parent.headers })).json().weekly_note).toBe(false);
  });

  it('is written in Turkish when it was turned on from a Turkish page; one child gives the subject its name', async () => {
    const teacher = await t.teacher({ name: 'Hoca' });
    const child = await t.student(teacher, { name: 'Elif Hafta' });
    const parent = await t.guardian([child], { name: 'Ayla Veli' });
    await t.app.inject({ method: 'PUT', url: '/api/guardian/weekly-note?language=tr', headers: parent.headers, payload: { weekly_note: true } });
    await service.runWeekly(mailer, berlin('2026-06-14T17:15', '+02:00'));
    const [mail] = mailsTo(parent.email);
    expect(mail!.subject).toBe('Haftalık rapor: Elif Hafta');
    expect(mail!.headers['content-language']).toBe('tr');
    expect(mail!.text).toContain('Merhaba Ayla Veli,');
    expect(mail!.text).toContain('Elif Hafta (öğretmen: Hoca)');
    expect(mail!.text).toContain('- Çalışma süresi: 0 dakika');
    expect(mail!.text).toContain('her pazar saat 17:00');
  });
});

describe('the daily feedback digest', () => {
  it('gathers the day’s unseen feedback in one mail from 18:00, for the student and for a parent, each line a link to the take at its newest comment', async () => {
    const teacher = await t.teacher({ name: 'Herr Feedback' });
    const student = await t.student(teacher, { name: 'Mila Digest' });
    const parent = await t.guardian([student], { name: 'Vater Digest' });
    const exercise = await t.exercise(teacher, { title: 'Etüde Nr. 3' });
    const task = await t.submission(student, teacher, exercise, { dueDate: '2026-09-14' });
    const take = async (feedbackAt: Date, seen: Date | null) => {
      const [r] = await rows<{ id: number }>(
        t.db,
        sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms, feedback_at, seen_at)
            values (${task.id}, ${student.id}, ${teacher.id}, 'audio', 'audio/wav', ${`recordings/${task.id}/${Math.random()}.wav`}, 'take.wav', 100, 4000, ${feedbackAt}, ${seen}) returning id`,
      );
      return r!.id;
    };
    const fresh = await take(berlin('2026-09-14T15:00', '+02:00'), null);
    const [comment] = await rows<{ id: number }>(t.db, sql`insert into recording_comments (recording_id, teacher_id, at_ms, text) values (${fresh}, ${teacher.id}, 1500, 'Schön') returning id`);
    await take(berlin('2026-09-14T14:00', '+02:00'), berlin('2026-09-14T16:00', '+02:00')); // already seen in the app
    await take(berlin('2026-09-12T15:00', '+02:00'), null); // older than a day

    for (const who of [student, parent]) {
      const res = await t.app.inject({ method: 'PUT', url: '/api/notification-settings/digest', headers: who.headers, payload: { feedback_digest: true } });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ feedback_digest: true, time: '18:00' });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/notification-settings/digest', headers: teacher.headers })).statusCode).toBe(403);

    expect((await service.runDigest(mailer, berlin('2026-09-14T17:59', '+02:00'))).claimed).toBe(0);
    await service.runDigest(mailer, berlin('2026-09-14T18:00', '+02:00'));
    const [own, ...moreOwn] = mailsTo(student.email);
    expect(moreOwn).toHaveLength(0);
    expect(own!.subject).toBe('Übungskontrolle: Neues Feedback');
    expect(own!.text).toContain('Hallo Mila Digest,');
    expect(own!.text).toContain('deine Lehrkraft hat auf deine Aufnahmen geantwortet:');
    const lines = own!.text.split('\n').filter((l) => l.startsWith('- '));
    expect(lines).toEqual([`- Etüde Nr. 3 (Herr Feedback): https://schule.example.org/submissions/${task.id}?take=${fresh}&t=1500#comment-${comment!.id}`]);
    const token = unsubscribeToken(t.deps.secret, student.id, 'digest');
    expect(own!.headers['list-unsubscribe']).toBe(`<https://schule.example.org/api/unsubscribe/${token}>`);

    const [forParent] = mailsTo(parent.email);
    expect(forParent!.text).toContain('Guten Tag Vater Digest,');
    expect(forParent!.text).toContain(`- Mila Digest: Etüde Nr. 3 (Herr Feedback): https://schule.example.org/children/${student.id}?take=${fresh}&t=1500#comment-${comment!.id}`);

    // once a day; the next day without new feedback: nothing
    expect((await service.runDigest(mailer, berlin('2026-09-14T20:00', '+02:00'))).claimed).toBe(0);
    expect((await service.runDigest(mailer, berlin('2026-09-15T18:30', '+02:00'))).claimed).toBe(0);
    expect(mailsTo(student.email)).toHaveLength(1);

    // its link ends the digest only
    expect((await t.app.inject({ method: 'POST', url: `/api/unsubscribe/${token}` })).json()).toMatchObject({ kind: 'digest', subscribed: false });
    expect((await t.app.inject({ method: 'GET', url: '/api/notification-settings/digest', headers: student.headers })).json().feedback_digest).toBe(false);
  });
});

describe('messages in the mails (docs/decisions/messages.md)', () => {
  const message = async (studentId: number, author: TestUser, role: string, body: string, at: Date, kind = 'message') => {
    const [m] = await rows<{ id: number }>(
      t.db,
      sql`insert into messages (student_id, author_id, author_role, kind, body, created_at) values (${studentId}, ${author.id}, ${role}, ${kind}, ${body}, ${at}) returning id`,
    );
    return m!.id;
  };

  it('the weekly note carries the teacher’s newest lesson note of the week, on one line', async () => {
    const teacher = await t.teacher({ name: 'Frau Notiz' });
    const child = await t.student(teacher, { name: 'Nora Notiz' });
    const parent = await t.guardian([child], { name: 'Eltern Notiz' });
    await t.app.inject({ method: 'PUT', url: '/api/guardian/weekly-note', headers: parent.headers, payload: { weekly_note: true } });
    await message(child.id, teacher, 'teacher', 'Vorige Woche: alt', berlin('2027-01-02T10:00', '+01:00'), 'lesson_note');
    await message(child.id, teacher, 'teacher', 'Heute: Rast-Taksim.\nSegâh ruhiger anspielen.', berlin('2027-01-05T16:00', '+01:00'), 'lesson_note');
    await message(child.id, teacher, 'teacher', 'Eine gewöhnliche Nachricht', berlin('2027-01-06T16:00', '+01:00'));
    await service.runWeekly(mailer, berlin('2027-01-10T17:05', '+01:00'));
    const [mail] = mailsTo(parent.email);
    expect(mail!.text).toContain('- Unterrichtsnotiz der Lehrkraft (05.01.2027): „Heute: Rast-Taksim. Segâh ruhiger anspielen.“');
    expect(mail!.text).not.toContain('Vorige Woche');
    expect(mail!.text).not.toContain('gewöhnliche');
  });

  it('the digest counts the unread messages of the last day per conversation (no text), and comes for messages alone', async () => {
    const teacher = await t.teacher({ name: 'Herr Nachricht' });
    const student = await t.student(teacher, { name: 'Lea Nachricht' });
    const parent = await t.guardian([student], { name: 'Mutter Nachricht' });
    for (const who of [student, parent]) {
      await t.app.inject({ method: 'PUT', url: '/api/notification-settings/digest', headers: who.headers, payload: { feedback_digest: true } });
    }
    const at = (h: string) => berlin(`2026-10-20T${h}`, '+02:00');
    await message(student.id, teacher, 'teacher', 'Geheimer Text eins', at('09:00'));
    await message(student.id, teacher, 'teacher', 'Geheimer Text zwei', at('10:00'));
    const own = await message(student.id, student, 'student', 'Meine eigene', at('11:00'));
    await message(student.id, teacher, 'teacher', 'Vor zwei Tagen', berlin('2026-10-18T10:00', '+02:00'));
    // the parent read all of them in the app: nothing left for them
    await t.db.execute(sql`insert into message_reads (user_id, student_id, last_read_id) values (${parent.id}, ${student.id}, ${own})`);

    await service.runDigest(mailer, at('18:00'));
    const [mail, ...more] = mailsTo(student.email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe('Übungskontrolle: Neue Nachrichten');
    expect(mail!.text).toContain(['Neue Nachrichten für dich:', `- 2 neue Nachrichten: https://schule.example.org/nachrichten/${student.id}`].join('\n'));
    expect(mail!.text).not.toContain('Geheimer Text');
    expect(mail!.text).not.toContain('geantwortet');
    expect(mailsTo(parent.email)).toHaveLength(0);

    // the parent gets the teacher's next message, named by child, in Turkish when set so
    await t.app.inject({ method: 'PUT', url: '/api/notification-settings/digest?language=tr', headers: parent.headers, payload: { feedback_digest: true } });
    await message(student.id, teacher, 'teacher', 'Noch etwas', berlin('2026-10-21T09:00', '+02:00'));
    await service.runDigest(mailer, berlin('2026-10-21T18:00', '+02:00'));
    const [forParent] = mailsTo(parent.email);
    expect(forParent!.subject).toBe('Übungskontrolle: yeni mesajlar');
    expect(forParent!.text).toContain(`- Lea Nachricht: 1 yeni mesaj: https://schule.example.org/nachrichten/${student.id}`);
  });
});
