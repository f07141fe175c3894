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
}

/** What a "Passwort vergessen?" mail says (docs/decisions/password-reset.md): to whom, the link, until when, in their language. */
export type PasswordResetMail = {
  to: string;
  name: string;
  lang: 'de' | 'tr';
  url: string;
  expiresAt: Date;
};

/** A date as the school reads it: dd.mm.yyyy in the school's time zone (both languages, SPEC.md). */
function localDate(d: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('de-DE', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(d);
}

/**
 * The invitation mail: German first, Turkish second, plain text (no HTML, so that names typed by
 * people cannot inject anything into the mail).
 */
export function inviteMailContent(mail: InviteMail, timeZone: string): { subject: string; text: string } {
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
export function passwordResetMailContent(mail: PasswordResetMail, timeZone: string): { subject: string; text: string } {
  const until = `${localDate(mail.expiresAt, timeZone)}, ${localTime(mail.expiresAt, timeZone)}`;
  if (mail.lang === 'tr') {
    return {
      subject: 'Übungskontrolle: yeni şifre belirleyin',
      text: [
        `Merhaba ${mail.name},`,
        '',
        'Übungskontrolle hesabınız için yeni bir şifre istendi. Bu bağlantı ile yeni şifrenizi belirleyin',
        `(${until} saatine kadar geçerli, yalnızca bir kez kullanılabilir):`,
        mail.url,
        '',
        'Yeni şifre belirlendiğinde diğer tüm cihazlardaki oturumlar kapanır.',
        'Bu isteği siz yapmadıysanız bu e-postayı dikkate almayın: şifreniz değişmez.',
        '',
      ].join('\n'),
    };
  }
  return {
    subject: 'Übungskontrolle: Neues Passwort festlegen',
    text: [
      `Hallo ${mail.name},`,
      '',
      'für Ihr Konto in der Übungskontrolle wurde ein neues Passwort angefordert. Über diesen Link legen Sie es fest',
      `(gültig bis ${until} Uhr, nur einmal verwendbar):`,
      mail.url,
      '',
      'Mit dem neuen Passwort werden alle anderen Anmeldungen auf anderen Geräten beendet.',
      'Wenn Sie das nicht angefordert haben, ignorieren Sie diese E-Mail: Ihr Passwort bleibt unverändert.',
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

  private async send(
    to: { name: string; address: string },
    content: { subject: string; text: string; language?: string },
    [sent, failed]: [string, string],
    logged: Record<string, unknown> = {},
  ): Promise<boolean> {
    try {
      await this.transport.sendMail({
        from: this.from,
        to,
        subject: content.subject,
        text: content.text,
        ...(content.language ? { headers: { 'Content-Language': content.language } } : {}),
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
