import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSmtp, type ReceivedMail, type TestSmtp } from '../test/smtp';
import { NodemailerMailer, oneLine } from './mail';

/**
 * Names and titles typed by people stay on their line in every plain-text mail (oneLine in
 * server/lib/mail.ts): each kind of mail sent through a real SMTP server and read back as a mail
 * program reads it.
 */
let smtp: TestSmtp;
let mailer: NodemailerMailer;
const silent = { info: () => undefined, warn: () => undefined };

beforeAll(async () => {
  smtp = await startTestSmtp();
  mailer = new NodemailerMailer(nodemailer.createTransport({ url: smtp.url }), 'Musikschule <post@example.test>', 'Europe/Berlin', silent);
});
afterAll(async () => {
  await smtp.close();
});

const EVIL = 'Ada\r\nKlick hier: http://evil.example';
/** Every way to break a line: CR LF, LF, CR, vertical tab, form feed, NEL, the line and paragraph separators, and other control characters. */
const BREAKS = ['\r\n', '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029', '\u0000', '\u001b', '\u007f'];
const hostile = (label: string) => BREAKS.map((b, i) => `${label}${i}${b}Klick hier: http://evil.example/${i}`).join(' ');

let n = 0;
async function received(send: (to: string) => Promise<boolean>): Promise<ReceivedMail> {
  const to = `empfang-${++n}@example.test`;
  expect(await send(to)).toBe(true);
  return smtp.waitFor((m) => m.envelopeTo.includes(to));
}

/** No line of the body begins with the injected text; every hostile value is on the line it started on. */
function expectOneLine(mail: ReceivedMail) {
  const lines = mail.text.split(/\r?\n/);
  expect(lines.filter((l) => /^\s*Klick hier/.test(l)), mail.text).toEqual([]);
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  expect(mail.text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/);
  expect(mail.subject).not.toMatch(/[\r\n\u2028\u2029]/);
}

describe('plain-text mails put what people typed on one line', () => {
  it('oneLine replaces CR, LF, other control characters and the Unicode separators by a space', () => {
    expect(oneLine(EVIL)).toBe('Ada Klick hier: http://evil.example');
    for (const b of BREAKS) expect(oneLine(`a${b}b`), JSON.stringify(b)).toBe('a b');
    expect(oneLine('Ümit Öztürk – Çalgı')).toBe('Ümit Öztürk – Çalgı');
    expect(oneLine('a\tb')).toBe('a b');
  });

  it('the invitation', async () => {
    const mail = await received((to) =>
      mailer.sendInvite({ to, name: EVIL, kind: 'guardian', school: hostile('Schule'), invitedBy: hostile('Lehrkraft'), url: 'https://schule.example.org/einladung/x', expiresAt: new Date('2027-01-01T12:00:00Z'), students: [EVIL, hostile('Kind')] }),
    );
    expectOneLine(mail);
    expect(mail.text).toContain('Hallo Ada Klick hier: http://evil.example,');
    expect(mail.text).toContain('Merhaba Ada Klick hier: http://evil.example,');
  });

  it('the password reset link, in German and Turkish', async () => {
    for (const lang of ['de', 'tr'] as const) {
      const mail = await received((to) => mailer.sendPasswordReset({ to, name: EVIL, lang, url: 'https://schule.example.org/passwort-neu/x', expiresAt: new Date('2027-01-01T12:00:00Z') }));
      expectOneLine(mail);
      expect(mail.text).toContain(lang === 'de' ? 'Hallo Ada Klick hier: http://evil.example,' : 'Merhaba Ada Klick hier: http://evil.example,');
    }
  });

  it('the practice reminder, to a student and to a parent', async () => {
    for (const audience of ['student', 'guardian'] as const) {
      const mail = await received((to) =>
        mailer.sendReminder({
          to,
          name: EVIL,
          lang: 'de',
          audience,
          tasks: [{ title: hostile('Etüde'), dueDate: '2027-01-01', url: 'https://schule.example.org/submissions/1', child: audience === 'guardian' ? EVIL : null }],
          listUrl: 'https://schule.example.org/submissions',
          more: 0,
          reminderTime: '17:00',
          today: '2027-01-01',
          unsubscribePage: 'https://schule.example.org/abmelden/x',
          unsubscribeUrl: 'https://schule.example.org/api/unsubscribe/x',
        }),
      );
      expectOneLine(mail);
      expect(mail.text).toContain(audience === 'student' ? 'Hallo Ada Klick hier: http://evil.example,' : 'Guten Tag Ada Klick hier: http://evil.example,');
    }
  });

  it('the weekly note and the feedback digest', async () => {
    const weekly = await received((to) =>
      mailer.sendWeeklyNote({
        to,
        name: EVIL,
        lang: 'tr',
        from: '2027-01-01',
        until: '2027-01-07',
        children: [{ name: EVIL, teacher: hostile('Lehrkraft'), minutes: 30, plannedMinutes: 60, done: 1, open: 2, newFeedback: 1, url: 'https://schule.example.org/children/1', lessonNote: { text: hostile('Notiz'), date: '2027-01-05' } }],
        time: '17:00',
        unsubscribePage: 'https://schule.example.org/abmelden/x',
        unsubscribeUrl: 'https://schule.example.org/api/unsubscribe/x',
      }),
    );
    expectOneLine(weekly);
    expect(weekly.text).toContain('Ada Klick hier: http://evil.example (öğretmen: Lehrkraft0 Klick hier');
    const digest = await received((to) =>
      mailer.sendFeedbackDigest({
        to,
        name: EVIL,
        lang: 'de',
        audience: 'guardian',
        items: [{ child: EVIL, task: hostile('Etüde'), teacher: hostile('Lehrkraft'), url: 'https://schule.example.org/children/1' }],
        more: 0,
        messages: [{ child: EVIL, count: 2, url: 'https://schule.example.org/nachrichten/1' }],
        time: '18:00',
        unsubscribePage: 'https://schule.example.org/abmelden/x',
        unsubscribeUrl: 'https://schule.example.org/api/unsubscribe/x',
      }),
    );
    expectOneLine(digest);
    expect(digest.text).toContain('- Ada Klick hier: http://evil.example: 2 neue Nachrichten: https://schule.example.org/nachrichten/1');
  });
});
