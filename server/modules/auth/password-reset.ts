import { createHash, randomInt } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { rows, type Db } from '../../db/client';
import { passwordResets, tokens, users } from '../../db/schema/index';
import { AppError, messages, notFound, type Lang, type Msg } from '../../errors';
import { forgetUser, hashToken, issueToken, newToken } from '../../lib/auth';
import { audit } from '../../lib/audit';
import type { Mailer } from '../../lib/mail';
import { hashPassword } from '../../lib/passwords';
import { CountingLimiter, lockIdOf } from '../../lib/rate-limit';
import { type LoginResponse } from '@contract/auth';
import { PASSWORD_RESET_TOKEN_PATTERN, PASSWORD_RESET_VALID_MINUTES, type PasswordResetPublic, type PasswordResetRequested } from '@contract/password-reset';
import { toUser } from './auth.service';

/**
 * "Passwort vergessen?" (docs/decisions/password-reset.md).
 *
 * A request answers the same whether an account has the address or not, after the same database
 * statements (the lookup and the link's replacement run for an unknown address too, finding and
 * changing nothing); the mail is queued and sent a moment later, so neither the answer nor the
 * request after it tells an address apart. Requests are counted per network address
 * (REQUESTS_PER_ADDRESS in the window, then 429 for everybody from there) and per e-mail address
 * (MAILS_PER_EMAIL links in the window; further requests are answered alike and send nothing, so a
 * mailbox cannot be flooded), each in one atomic step with its record. The link
 * is valid PASSWORD_RESET_VALID_MINUTES, once; a newer link replaces the older. Setting the
 * password ends every session of the account and signs in on this device.
 */

const WINDOW_MS = 15 * 60 * 1000;
/** Requests from one network address within the window before it is answered 429. */
export const REQUESTS_PER_ADDRESS = 30;
/** Links mailed to one e-mail address within the window. */
export const MAILS_PER_EMAIL = 3;

export const resetMessages = {
  requested: {
    de: 'Wenn es zu dieser E-Mail-Adresse ein Konto gibt, ist ein Link zum Festlegen eines neuen Passworts unterwegs. Er ist eine Stunde gültig.',
    tr: 'Bu e-posta adresine ait bir hesap varsa, yeni şifre belirleme bağlantısı gönderildi. Bağlantı bir saat geçerlidir.',
  },
  /** The server has no mail server: nothing can be sent to anyone. */
  noMail: {
    de: 'Diese Schule verschickt keine E-Mails. Ein neues Passwort legt die Lehrkraft oder die Schulverwaltung fest.',
    tr: 'Bu okul e-posta göndermiyor. Yeni bir şifreyi öğretmen veya okul yönetimi belirleyebilir.',
  },
  /** The link is unknown, used, replaced or expired (all alike). */
  linkInvalid: {
    de: 'Dieser Link ist ungültig oder abgelaufen. Ein neuer lässt sich über „Passwort vergessen?“ anfordern.',
    tr: 'Bu bağlantı geçersiz veya süresi dolmuş. “Şifremi unuttum” ile yeni bir bağlantı istenebilir.',
  },
} satisfies Record<string, Msg>;

const TOKEN_RE = new RegExp(PASSWORD_RESET_TOKEN_PATTERN);
const MINUTE_MS = 60 * 1000;

/** The e-mail address as the limiter keys it: hashed, so the bookkeeping holds no address. */
const emailKey = (email: string) => `re|${createHash('sha256').update(email.toLowerCase()).digest('hex')}`;

/** A queued mail waits this long, at random between the two, before it is sent. */
export const MAIL_DELAY_MS = { min: 500, max: 2500 } as const;

/**
 * The reset mails of every app in this process: queued (waiting for their moment) and being sent.
 * A mail is sent a random 0.5–2.5 s after its request was answered, so that the work of sending it
 * does not fall on the request that follows (which would tell that the address before it was an
 * account's); the tests and a closing app send the waiting ones at once.
 */
const waiting = new Set<() => void>();
const sending = new Set<Promise<void>>();
/** When the last queued mail is due: a mail never leaves before one queued earlier (an account's newest link comes last). */
let lastDueAt = 0;

function queueMail(send: () => Promise<void>, onError: (err: unknown) => void): void {
  let go!: () => void;
  const due = new Promise<void>((resolve) => (go = resolve));
  const now = Date.now();
  lastDueAt = Math.max(now + randomInt(MAIL_DELAY_MS.min, MAIL_DELAY_MS.max + 1), lastDueAt + 1);
  const timer = setTimeout(go, lastDueAt - now);
  timer.unref();
  waiting.add(go);
  const work = due
    .then(() => {
      clearTimeout(timer);
      waiting.delete(go);
      return send();
    })
    .catch(onError);
  sending.add(work);
  void work.finally(() => sending.delete(work));
}

/** Sends every reset mail still waiting in this process now, and resolves when all are handed over (tests, an app closing). */
export async function resetMailsSettled(): Promise<void> {
  for (const go of [...waiting]) go();
  await Promise.all([...sending]);
}

export class PasswordResetService {
  private readonly limiter: CountingLimiter;

  constructor(
    private readonly db: Db,
    private readonly mailer: () => Mailer | null,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>,
  ) {
    this.limiter = new CountingLimiter(db, { windowMs: WINDOW_MS });
  }

  /**
   * POST /api/password-reset: counted, the link made (when an active account has the address) and
   * the mail queued, then answered. Every address costs the same statements, found or not; only
   * the mail is extra, and it leaves later (queueMail).
   */
  async request(email: string, ip: string, lang: Lang, origin: string): Promise<PasswordResetRequested> {
    const mailKey = emailKey(email);
    // one atomic step for the network address and the e-mail address (server/lib/rate-limit.ts)
    const taken = await this.limiter.take([
      { key: `r|${ip}`, max: REQUESTS_PER_ADDRESS, whenFull: 'refuse' },
      // the e-mail address's row is a link due: recorded while there are fewer than MAILS_PER_EMAIL
      { key: mailKey, max: MAILS_PER_EMAIL, whenFull: 'skip' },
    ]);
    if (taken.retryAfter > 0) throw new AppError(429, messages.rateLimited, undefined, undefined, { 'retry-after': String(taken.retryAfter) });
    const mailer = this.mailer();
    if (!mailer) return { message: resetMessages.noMail[lang], mailed: false };
    if (taken.recorded[1]) {
      const link = await this.makeLink(email, mailKey);
      if (link) {
        const { user, token, expiresAt } = link;
        queueMail(
          async () => {
            await mailer.sendPasswordReset({ to: user.email, name: user.name, lang, url: `${origin}/passwort-neu/${token}`, expiresAt });
          },
          (err) => this.log.error({ err }, 'password reset mail failed'),
        );
      }
    }
    return { message: resetMessages.requested[lang], mailed: true };
  }

  /**
   * The link for the active account with this address, replacing its open ones, or null. The same
   * statements run whether an account has the address or not (docs/decisions/password-reset.md).
   * Two requests at once for one address take turns (an advisory lock on the address's key), so
   * the second replaces the first's link: one link is open per account.
   */
  private async makeLink(email: string, mailKey: string) {
    const token = newToken();
    const tokenHash = hashToken(token);
    const expiresAt = new Date(Date.now() + PASSWORD_RESET_VALID_MINUTES * MINUTE_MS);
    const user = await this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${lockIdOf(`link|${mailKey}`).toString()}::bigint)`);
      const [u] = await rows<{ id: number; name: string; email: string }>(
        tx,
        sql`select id, name, email from users where lower(email) = ${email.toLowerCase()} and deactivated_at is null limit 1`,
      );
      const id = u ? Number(u.id) : null;
      await tx.execute(sql`delete from password_resets where user_id = ${id} and used_at is null`);
      await tx.execute(
        sql`insert into password_resets (user_id, token_hash, expires_at) select id, ${tokenHash}, ${expiresAt.toISOString()}::timestamptz from users where id = ${id}`,
      );
      return u ?? null;
    });
    return user ? { user, token, expiresAt } : null;
  }

  private async openLink(token: string) {
    if (!TOKEN_RE.test(token)) return null;
    const [row] = await this.db
      .select({ id: passwordResets.id, userId: passwordResets.userId, expiresAt: passwordResets.expiresAt, name: users.name, email: users.email })
      .from(passwordResets)
      .innerJoin(users, eq(users.id, passwordResets.userId))
      .where(and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date()), isNull(users.deactivatedAt)))
      .limit(1);
    return row ?? null;
  }

  /** GET /api/password-reset/{token}: whose password the link sets; 404 when it cannot be used. */
  async describe(token: string): Promise<PasswordResetPublic> {
    const row = await this.openLink(token);
    if (!row) throw notFound(resetMessages.linkInvalid);
    return { name: row.name, email: row.email, expires_at: row.expiresAt.toISOString() };
  }

  /**
   * POST /api/password-reset/{token}: sets the password, uses the link up, ends every session of the
   * account (here and, through the cluster's invalidation, in every process) and signs in.
   */
  async reset(token: string, password: string): Promise<LoginResponse> {
    // A link that cannot work costs no password hashing.
    if (!(await this.openLink(token))) throw notFound(resetMessages.linkInvalid);
    const passwordHash = await hashPassword(password);
    const user = await this.db.transaction(async (tx) => {
      // The row is taken once: a second use of the same link (even at the same moment) finds it used.
      const [used] = await tx
        .update(passwordResets)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordResets.tokenHash, hashToken(token)), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, new Date())))
        .returning({ userId: passwordResets.userId });
      if (!used) return null;
      const [u] = await tx
        .update(users)
        .set({ passwordHash, updatedAt: new Date() })
        .where(and(eq(users.id, used.userId), isNull(users.deactivatedAt)))
        .returning();
      if (!u) return null;
      await tx.delete(tokens).where(eq(tokens.userId, u.id));
      await tx.delete(passwordResets).where(and(eq(passwordResets.userId, u.id), isNull(passwordResets.usedAt)));
      await audit(tx, { id: u.id, schoolId: u.schoolId, name: u.name, role: u.role }, 'account.password_reset', { type: 'user', id: u.id, name: null });
      return u;
    });
    if (!user) throw notFound(resetMessages.linkInvalid);
    await forgetUser(this.db, user.id);
    return { token: await issueToken(this.db, user.id), user: toUser(user) };
  }
}
