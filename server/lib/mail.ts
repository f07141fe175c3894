import nodemailer, { type Transporter } from 'nodemailer';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AppConfig } from '../config';

/** What an invitation e-mail says (docs/decisions/schools-and-roles.md): who is invited, to which school, the link and until when. */
export type InviteMail = {
  to: string;
  name: string;
  kind: 'teacher' | 'guardian';
  school: string;
  /** Who invited (the administrator or the teacher). */
  invitedBy: string;
  url: string;
  expiresAt: Date;
  /** The children a guardian invitation gives access to (names). */
  students: string[];
};

/**
 * Sends the e-mails of the school administration. `sendInvite` never throws: it answers whether
 * the mail was handed to the mail server (a failure is logged, the invitation stays valid and its
 * link is shown to copy).
 */
export interface Mailer {
  sendInvite(mail: InviteMail): Promise<boolean>;
  sendPasswordReset(mail: PasswordResetMail): Promise<boolean>;
  sendReminder(mail: ReminderMail): Promise<boolean>;
  sendWeeklyNote(mail: WeeklyNoteMail): Promise<boolean>;
  sendFeedbackDigest(mail: FeedbackDigestMail): Promise<boolean>;
}

/** The day's new feedback in one mail (docs/decisions/reminders.md): a student's own takes, or a parent's children's. */
export type FeedbackDigestMail = {
  to: string;
  name: string;
  lang: 'de' | 'tr';
  /** 'student' writes du / sen, 'guardian' Sie / siz. */
  audience: 'student' | 'guardian';
  items: Array<{ child: string | null; task: string; teacher: string; url: string }>;
  more: number;
  /** Unread messages per conversation (docs/decisions/messages.md): whose, how many, where to read them. No text: it stays in the app. */
  messages: Array<{ child: string | null; count: number; url: string }>;
  time: string;
  unsubscribePage: string;
  unsubscribeUrl: string;
};

/** A parent's weekly note (docs/decisions/reminders.md): each child's last seven days, in the parent's language. */
export type WeeklyNoteMail = {
  to: string;
  name: string;
  lang: 'de' | 'tr';
  /** The seven school days covered ('YYYY-MM-DD'). */
  from: string;
  until: string;
  children: Array<{
    name: string;
    teacher: string;
    minutes: number;
    plannedMinutes: number;
    done: number;
    open: number;
    newFeedback: number;
    url: string;
    /** The teacher's newest lesson note of the week (docs/decisions/messages.md), if any. */
    lessonNote: { text: string; date: string } | null;
  }>;
  /** The note's time, e.g. '17:00' (said in the mail: why it came). */
  time: string;
  unsubscribePage: string;
  unsubscribeUrl: string;
};

/** The daily practice reminder (docs/decisions/reminders.md): to a student, in their language, with a one-click unsubscribe. */
export type ReminderMail = {
  to: string;
  name: string;
  lang: 'de' | 'tr';
  /** A student's own reminder (du / sen), or a parent's about their children (Sie / siz). */
  audience: 'student' | 'guardian';
  /** The open tasks due (at most a few), oldest due date first; for a parent with the child's name. */
  tasks: Array<{ title: string; dueDate: string; url: string; child: string | null }>;
  /** The task list, when more are due than listed. */
  listUrl: string;
  more: number;
  reminderTime: string;
  /** The school's date the reminder is for ('YYYY-MM-DD'). */
  today: string;
  /** The page that unsubscribes (a button, so that link scanners cannot unsubscribe by opening it). */
  unsubscribePage: string;
  /** RFC 8058 one-click target (POST). */
  unsubscribeUrl: string;
};

/** What a "Passwort vergessen?" mail says (docs/decisions/password-reset.md): to whom, the link, until when, in their language. */
export type PasswordResetMail = {
  to: string;
  name: string;
  lang: 'de' | 'tr';
  url: string;
  expiresAt: Date;
};

/**
 * A value typed by a person (a name, a title, a school), for one line of a plain-text mail: CR,
 * LF, every other control character (C0, DEL, C1 such as NEL) and the Unicode line and paragraph
 * separators become a space, so that a name like "Ada\r\nKlick hier: http://…" cannot start a line
 * of its own that looks like the school's. Headers are encoded by nodemailer; this is for bodies.
 */
export function oneLine(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what it replaces
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ');
}

/** A mail's values, each string through oneLine (arrays and plain objects followed; dates kept). Every *MailContent starts with it. */
function foldLines<T>(value: T): T {
  if (typeof value === 'string') return oneLine(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => foldLines(v)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, foldLines(v)])) as T;
  }
  return value;
}

/** A date as the school reads it: dd.mm.yyyy in the school's time zone (both languages, SPEC.md). */
function localDate(d: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('de-DE', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(d);
}

/**
 * The invitation mail: German first, Turkish second, plain text (no HTML, so that names typed by
 * people cannot inject anything into the mail).
 */
export function inviteMailContent(typed: InviteMail, timeZone: string): { subject: string; text: string } {
  const mail = foldLines(typed);
  const until = localDate(mail.expiresAt, timeZone);
  const children = mail.students.join(', ');
  const de =
    mail.kind === 'teacher'
      ? `Hallo ${mail.name},\n\n${mail.invitedBy} lädt Sie als Lehrkraft der ${mail.school} in die Übungskontrolle ein.`
      : `Hallo ${mail.name},\n\n${mail.invitedBy} lädt Sie ein, die Übungen von ${children} in der Übungskontrolle der ${mail.school} zu verfolgen (nur lesen).`;
  const tr =
    mail.kind === 'teacher'
      ? `Merhaba ${mail.name},\n\n${mail.invitedBy} sizi ${mail.school} öğretmeni olarak Übungskontrolle'ye davet ediyor.`
      : `Merhaba ${mail.name},\n\n${mail.invitedBy} sizi ${mail.school} okulunun Übungskontrolle uygulamasında ${children} adlı öğrencinin çalışmalarını takip etmeye (yalnızca okuma) davet ediyor.`;
  const text = [
    de,
    '',
    `Über diesen Link legen Sie Ihr Passwort fest (gültig bis ${until}, nur einmal verwendbar):`,
    mail.url,
    '',
    'Wenn Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
    '',
    '----',
    '',
    tr,
    '',
    `Bu bağlantı ile şifrenizi belirleyin (${until} tarihine kadar geçerli, yalnızca bir kez kullanılabilir):`,
    mail.url,
    '',
    'Bu daveti beklemiyorsanız bu e-postayı dikkate almayabilirsiniz.',
    '',
  ].join('\n');
  return { subject: `Einladung: ${mail.school} – Übungskontrolle / Davet: ${mail.school}`, text };
}

/** A time as the school reads it: HH:MM in the school's time zone. */
function localTime(d: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('de-DE', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(d);
}

/**
 * The "Passwort vergessen?" mail, plain text in the language the request was made in (the page's
 * language): the link, how long it is valid, and what to do when the request was not yours.
 */
export function passwordResetMailContent(typed: PasswordResetMail, timeZone: string): { subject: string; text: string } {
  const mail = foldLines(typed);
  const until = `${localDate(mail.expiresAt, timeZone)}, ${localTime(mail.expiresAt, timeZone)}`;
  if (mail.lang === 'tr') {
    return {
      subject: 'Übungskontrolle: yeni şifre belirleyin',
      text: [
        `Merhaba ${mail.name},`,
        '',
        'bu Übungskontrolle hesabı için yeni bir şifre istendi. Yeni şifre bu bağlantı ile belirlenebilir',
        `(${until} saatine kadar geçerli, yalnızca bir kez kullanılabilir):`,
        mail.url,
        '',
        'Yeni şifre belirlendiğinde diğer tüm cihazlardaki oturumlar kapanır.',
        'İstek başkası tarafından yapıldıysa e-posta silinebilir: şifre değişmez.',
        '',
      ].join('\n'),
    };
  }
  return {
    subject: 'Übungskontrolle: Neues Passwort festlegen',
    text: [
      `Hallo ${mail.name},`,
      '',
      'für dieses Konto in der Übungskontrolle wurde ein neues Passwort angefordert. Über diesen Link lässt es sich festlegen',
      `(gültig bis ${until} Uhr, nur einmal verwendbar):`,
      mail.url,
      '',
      'Mit dem neuen Passwort enden alle Anmeldungen auf anderen Geräten.',
      'Wer das nicht angefordert hat, kann diese E-Mail einfach löschen: Das Passwort bleibt dann unverändert.',
      '',
    ].join('\n'),
  };
}

/** dd.mm.yyyy of a calendar date 'YYYY-MM-DD' (no time zone: it is the school's date already). */
function calendarDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}.${m}.${y}`;
}

/**
 * The practice reminder, plain text in the student's language (du / sen, as the app speaks to
 * students): what is due, a link to practise, why it came and how to stop it.
 */
export function reminderMailContent(typed: ReminderMail): { subject: string; text: string } {
  const mail = foldLines(typed);
  const today = mail.today;
  const tr = mail.lang === 'tr';
  const parent = mail.audience === 'guardian';
  const line = (t: ReminderMail['tasks'][number]) => {
    const who = t.child ? `${t.child}: ` : '';
    return t.dueDate === today
      ? `- ${who}${t.title} (${tr ? 'bugün' : 'heute fällig'}): ${t.url}`
      : `- ${who}${t.title} (${tr ? `son tarih ${calendarDate(t.dueDate)}` : `fällig seit ${calendarDate(t.dueDate)}`}): ${t.url}`;
  };
  const more = mail.more > 0 ? [tr ? `… ve ${mail.more} ödev daha: ${mail.listUrl}` : `… und ${mail.more} weitere: ${mail.listUrl}`] : [];
  const children = [...new Set(mail.tasks.map((t) => t.child).filter((c): c is string => c !== null))];
  if (parent) {
    if (tr) {
      return {
        subject: children.length === 1 ? `Hatırlatma: ${children[0]} bugün henüz çalışmadı` : 'Hatırlatma: bugün henüz çalışılmadı',
        text: [
          `Merhaba ${mail.name},`,
          '',
          'çocuğunuzu bugün bekleyen çalışmalar var:',
          ...mail.tasks.map(line),
          ...more,
          '',
          `Bu hatırlatmayı, Übungskontrolle'de her gün saat ${mail.reminderTime} için ayarladığınız için alıyorsunuz (günde en fazla bir kez, çocuğunuz o gün çalıştıysa hiç).`,
          `Abonelikten çıkmak için: ${mail.unsubscribePage}`,
          '',
        ].join('\n'),
      };
    }
    return {
      subject: children.length === 1 ? `Erinnerung: ${children[0]} hat heute noch nicht geübt` : 'Erinnerung: Heute noch nicht geübt',
      text: [
        `Guten Tag ${mail.name},`,
        '',
        children.length > 1 ? 'bei Ihren Kindern wartet heute noch Übung:' : 'bei Ihrem Kind wartet heute noch Übung:',
        ...mail.tasks.map(line),
        ...more,
        '',
        `Sie bekommen diese Erinnerung, weil Sie sie in der Übungskontrolle für ${mail.reminderTime} Uhr eingestellt haben (höchstens einmal am Tag, und nicht für ein Kind, das an dem Tag schon geübt hat).`,
        `Abbestellen: ${mail.unsubscribePage}`,
        '',
      ].join('\n'),
    };
  }
  if (tr) {
    return {
      subject: 'Hatırlatma: Bugün çalıştın mı?',
      text: [
        `Merhaba ${mail.name},`,
        '',
        'bugün seni bekleyen çalışmalar var:',
        ...mail.tasks.map(line),
        ...more,
        '',
        `Bu hatırlatmayı, Übungskontrolle'de her gün saat ${mail.reminderTime} için ayarladığın için alıyorsun (günde en fazla bir kez, o gün çalıştıysan hiç).`,
        `Artık istemiyorsan: ${mail.unsubscribePage}`,
        '',
      ].join('\n'),
    };
  }
  return {
    subject: 'Erinnerung: Heute schon geübt?',
    text: [
      `Hallo ${mail.name},`,
      '',
      'heute wartet noch Übung auf dich:',
      ...mail.tasks.map(line),
      ...more,
      '',
      `Du bekommst diese Erinnerung, weil du sie in der Übungskontrolle für ${mail.reminderTime} Uhr eingestellt hast (höchstens einmal am Tag, und nicht, wenn du an dem Tag schon geübt hast).`,
      `Abbestellen: ${mail.unsubscribePage}`,
      '',
    ].join('\n'),
  };
}

/** A lesson note in a mail: on one line, at most 600 characters. */
function noteText(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length > 600 ? `${one.slice(0, 599)}…` : one;
}

/**
 * The weekly note to a parent: plain and friendly, per child the minutes practised in the last
 * seven days against what the week's tasks planned, the week's tasks done and open, and new
 * feedback with a link to the child's page; why it came and how to stop it.
 */
export function weeklyNoteMailContent(typed: WeeklyNoteMail): { subject: string; text: string } {
  const mail = foldLines(typed);
  const tr = mail.lang === 'tr';
  const week = `${calendarDate(mail.from)} – ${calendarDate(mail.until)}`;
  const one = mail.children.length === 1 ? mail.children[0]! : null;
  const blocks = mail.children.flatMap((c) => {
    const minutes = Math.round(c.minutes);
    const planned = Math.round(c.plannedMinutes);
    if (tr) {
      return [
        `${c.name} (öğretmen: ${c.teacher})`,
        `- Çalışma süresi: ${minutes} dakika${planned > 0 ? ` (ödevlere göre planlanan: ${planned} dakika)` : ''}`,
        `- Bu haftanın ödevleri: ${c.done} tamamlandı, ${c.open} açık`,
        c.newFeedback > 0 ? `- Öğretmenden yeni geri bildirim: ${c.newFeedback} – uygulamada: ${c.url}` : `- Yeni geri bildirim yok – uygulamada: ${c.url}`,
        ...(c.lessonNote ? [`- Öğretmenin ders notu (${calendarDate(c.lessonNote.date)}): "${noteText(c.lessonNote.text)}"`] : []),
        '',
      ];
    }
    return [
      `${c.name} (Lehrkraft: ${c.teacher})`,
      `- Geübt: ${minutes} Minuten${planned > 0 ? ` (vorgesehen laut Aufgaben: ${planned} Minuten)` : ''}`,
      `- Aufgaben dieser Woche: ${c.done} erledigt, ${c.open} offen`,
      c.newFeedback > 0 ? `- Neues Feedback der Lehrkraft: ${c.newFeedback} – in der App: ${c.url}` : `- Kein neues Feedback – in der App: ${c.url}`,
      ...(c.lessonNote ? [`- Unterrichtsnotiz der Lehrkraft (${calendarDate(c.lessonNote.date)}): „${noteText(c.lessonNote.text)}“`] : []),
      '',
    ];
  });
  if (tr) {
    return {
      subject: one ? `Haftalık rapor: ${one.name}` : 'Übungskontrolle haftalık rapor',
      text: [
        `Merhaba ${mail.name},`,
        '',
        `Übungskontrolle'den son yedi günün raporu (${week}):`,
        '',
        ...blocks,
        `Bu raporu, Übungskontrolle'de açtığınız için alıyorsunuz (her pazar saat ${mail.time}).`,
        `Abonelikten çıkmak için: ${mail.unsubscribePage}`,
        '',
      ].join('\n'),
    };
  }
  return {
    subject: one ? `Wochenbericht: ${one.name}` : 'Wochenbericht aus der Übungskontrolle',
    text: [
      `Guten Tag ${mail.name},`,
      '',
      `hier ist der Wochenbericht aus der Übungskontrolle für die letzten sieben Tage (${week}).`,
      '',
      ...blocks,
      `Sie bekommen diesen Bericht, weil Sie ihn in der Übungskontrolle eingeschaltet haben (jeden Sonntag um ${mail.time} Uhr).`,
      `Abbestellen: ${mail.unsubscribePage}`,
      '',
    ].join('\n'),
  };
}

/** The day's feedback digest: one line per take with new feedback, each a link to the take at its newest comment. */
export function feedbackDigestMailContent(typed: FeedbackDigestMail): { subject: string; text: string } {
  const mail = foldLines(typed);
  const tr = mail.lang === 'tr';
  const student = mail.audience === 'student';
  const lines = mail.items.map((i) => `- ${i.child ? `${i.child}: ` : ''}${i.task} (${i.teacher}): ${i.url}`);
  if (mail.more > 0) lines.push(tr ? `… ve ${mail.more} tane daha` : `… und ${mail.more} weitere`);
  const feedback = mail.items.length > 0;
  const messageLines = mail.messages.map((m) =>
    tr
      ? `- ${m.child ? `${m.child}: ` : ''}${m.count} yeni mesaj: ${m.url}`
      : `- ${m.child ? `${m.child}: ` : ''}${m.count === 1 ? '1 neue Nachricht' : `${m.count} neue Nachrichten`}: ${m.url}`,
  );
  const messages = messageLines.length > 0;
  if (tr) {
    return {
      subject: feedback && messages ? 'Übungskontrolle: yeni geri bildirim ve mesajlar' : feedback ? 'Übungskontrolle: yeni geri bildirim' : 'Übungskontrolle: yeni mesajlar',
      text: [
        `Merhaba ${mail.name},`,
        '',
        ...(feedback ? [student ? 'öğretmenin kayıtlarına geri bildirim verdi:' : 'öğretmen, çocuğunuzun kayıtlarına geri bildirim verdi:', ...lines, ''] : []),
        ...(messages ? [student ? 'sana yeni mesajlar var:' : 'size yeni mesajlar var:', ...messageLines, ''] : []),
        student
          ? `Bu özeti, Übungskontrolle'de açtığın için alıyorsun (yeni bir şey olan günlerde saat ${mail.time}).`
          : `Bu özeti, Übungskontrolle'de açtığınız için alıyorsunuz (yeni bir şey olan günlerde saat ${mail.time}).`,
        `${student ? 'Artık istemiyorsan' : 'Abonelikten çıkmak için'}: ${mail.unsubscribePage}`,
        '',
      ].join('\n'),
    };
  }
  return {
    subject: feedback && messages ? 'Übungskontrolle: Neues Feedback und neue Nachrichten' : feedback ? 'Übungskontrolle: Neues Feedback' : 'Übungskontrolle: Neue Nachrichten',
    text: [
      student ? `Hallo ${mail.name},` : `Guten Tag ${mail.name},`,
      '',
      ...(feedback ? [student ? 'deine Lehrkraft hat auf deine Aufnahmen geantwortet:' : 'die Lehrkraft hat auf Aufnahmen Ihres Kindes geantwortet:', ...lines, ''] : []),
      ...(messages ? [student ? 'Neue Nachrichten für dich:' : 'Neue Nachrichten für Sie:', ...messageLines, ''] : []),
      student
        ? `Du bekommst diese Zusammenfassung, weil du sie in der Übungskontrolle eingeschaltet hast (an Tagen mit Neuem um ${mail.time} Uhr).`
        : `Sie bekommen diese Zusammenfassung, weil Sie sie in der Übungskontrolle eingeschaltet haben (an Tagen mit Neuem um ${mail.time} Uhr).`,
      `Abbestellen: ${mail.unsubscribePage}`,
      '',
    ].join('\n'),
  };
}

/** A Mailer over a nodemailer transport (SMTP in production; the tests pass a stream transport or a local server). */
export class NodemailerMailer implements Mailer {
  constructor(
    private readonly transport: Transporter,
    private readonly from: string,
    private readonly timeZone: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
  ) {}

  async sendInvite(mail: InviteMail): Promise<boolean> {
    // The invitation is stored either way; its link is shown to copy.
    return this.send({ name: mail.name, address: mail.to }, inviteMailContent(mail, this.timeZone), ['invitation e-mailed', 'could not e-mail an invitation'], { kind: mail.kind });
  }

  async sendPasswordReset(mail: PasswordResetMail): Promise<boolean> {
    return this.send({ name: mail.name, address: mail.to }, { ...passwordResetMailContent(mail, this.timeZone), language: mail.lang }, ['password reset link e-mailed', 'could not e-mail a password reset link']);
  }

  async sendReminder(mail: ReminderMail): Promise<boolean> {
    return this.send(
      { name: mail.name, address: mail.to },
      {
        ...reminderMailContent(mail),
        language: mail.lang,
        // RFC 2369 and RFC 8058: mail programs offer "unsubscribe" and may do it with one POST.
        headers: { 'List-Unsubscribe': `<${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      },
      ['practice reminder e-mailed', 'could not e-mail a practice reminder'],
    );
  }

  async sendWeeklyNote(mail: WeeklyNoteMail): Promise<boolean> {
    return this.send(
      { name: mail.name, address: mail.to },
      {
        ...weeklyNoteMailContent(mail),
        language: mail.lang,
        headers: { 'List-Unsubscribe': `<${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      },
      ['weekly note e-mailed', 'could not e-mail a weekly note'],
    );
  }

  async sendFeedbackDigest(mail: FeedbackDigestMail): Promise<boolean> {
    return this.send(
      { name: mail.name, address: mail.to },
      {
        ...feedbackDigestMailContent(mail),
        language: mail.lang,
        headers: { 'List-Unsubscribe': `<${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
      },
      ['feedback digest e-mailed', 'could not e-mail a feedback digest'],
    );
  }

  private async send(
    to: { name: string; address: string },
    content: { subject: string; text: string; language?: string; headers?: Record<string, string> },
    [sent, failed]: [string, string],
    logged: Record<string, unknown> = {},
  ): Promise<boolean> {
    try {
      await this.transport.sendMail({
        from: this.from,
        to,
        subject: content.subject,
        text: content.text,
        headers: { ...(content.language ? { 'Content-Language': content.language } : {}), ...content.headers },
      });
      this.log.info(logged, sent);
      return true;
    } catch (err) {
      this.log.warn({ err: err instanceof Error ? { message: err.message, code: (err as { code?: unknown }).code } : String(err) }, failed);
      return false;
    }
  }
}

/** Bounds of one SMTP conversation: a mail server that hangs must not hold a request for long. */
export const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

/** The mailer of the settings: SMTP_URL and SMTP_FROM set → SMTP; otherwise none (links are only shown). */
export function mailerFromConfig(config: Pick<AppConfig, 'SMTP_URL' | 'SMTP_FROM' | 'APP_TIMEZONE'>, log: Pick<FastifyBaseLogger, 'warn' | 'info'>): Mailer | null {
  if (!config.SMTP_URL || !config.SMTP_FROM) return null;
  const transport = nodemailer.createTransport({ url: config.SMTP_URL, ...SMTP_TIMEOUTS });
  return new NodemailerMailer(transport, config.SMTP_FROM, config.APP_TIMEZONE, log);
}

const mailers = new WeakMap<object, Mailer | null>();

/** The app's mailer (made once per app from its settings), or null when no SMTP server is configured. */
export function mailerOf(app: FastifyInstance): Mailer | null {
  const key = app.deps;
  if (!mailers.has(key)) mailers.set(key, mailerFromConfig(app.deps.config, app.log));
  return mailers.get(key) ?? null;
}
