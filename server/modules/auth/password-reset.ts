import { createHash } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { passwordResets, tokens, users } from '../../db/schema/index';
import { AppError, messages, notFound, type Lang, type Msg } from '../../errors';
import { forgetUser, hashToken, issueToken, newToken } from '../../lib/auth';
import { audit } from '../../lib/audit';
import type { Mailer } from '../../lib/mail';
import { hashPassword } from '../../lib/passwords';
import { SignInLimiter } from '../../lib/rate-limit';
import { type LoginResponse } from '@contract/auth';
import { PASSWORD_RESET_TOKEN_PATTERN, PASSWORD_RESET_VALID_MINUTES, type PasswordResetPublic, type PasswordResetRequested } from '@contract/password-reset';
import { toUser } from './auth.service';

/**
 * "Passwort vergessen?" (docs/decisions/password-reset.md).
 *
 * A request answers the same, at once, whether an account has the address or not; the lookup, the
 * link and the mail happen after the answer, so neither the text nor the time of the answer tells
 * an address apart. Requests are counted per network address (REQUESTS_PER_ADDRESS in the window,
 * then 429 for everybody from there) and per e-mail address (MAILS_PER_EMAIL links in the window;
 * further requests are answered alike and send nothing, so a mailbox cannot be flooded). The link
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

/**
 * The sends started by requests and not finished yet, of every app in this process (the tests wait
 * for them, also when several app instances share the process; a shutdown does not).
 */
const pending = new Set<Promise<void>>();

/** Resolves when every link requested so far in this process has been looked up and, where due, mailed. */
export async function resetMailsSettled(): Promise<void> {
  await Promise.all([...pending]);
}

export class PasswordResetService {
  private readonly limiter: SignInLimiter;

  constructor(
    private readonly db: Db,
    private readonly mailer: () => Mailer | null,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info' | 'error'>,
  ) {
    // `check(addressKey, emailKey)`: refused after REQUESTS_PER_ADDRESS for the address; the e-mail's count rides along.
    this.limiter = new SignInLimiter(db, { max: REQUESTS_PER_ADDRESS, windowMs: WINDOW_MS, addressCountCap: MAILS_PER_EMAIL + 1 });
  }

  /** POST /api/password-reset: counted, answered, and the link sent afterwards (when an active account has the address). */
  async request(email: string, ip: string, lang: Lang, origin: string): Promise<PasswordResetRequested> {
    const addressKey = `r|${ip}`;
    const mailKey = emailKey(email);
    const { retryAfter, addressFailures: mailed } = await this.limiter.check(addressKey, mailKey);
    if (retryAfter > 0) throw new AppError(429, messages.rateLimited, undefined, undefined, { 'retry-after': String(retryAfter) });
    await this.limiter.fail(addressKey, mailKey);
    const mailer = this.mailer();
    if (!mailer) return { message: resetMessages.noMail[lang], mailed: false };
    if (mailed < MAILS_PER_EMAIL) {
      const work = this.sendLink(mailer, email, lang, origin).catch((err: unknown) => this.log.error({ err }, 'password reset request failed'));
      pending.add(work);
      void work.finally(() => pending.delete(work));
    }
    return { message: resetMessages.requested[lang], mailed: true };
  }

  private async sendLink(mailer: Mailer, email: string, lang: Lang, origin: string): Promise<void> {
    const [user] = await this.db
      .select({ id: users.id, name: users.name, email: users.email, deactivatedAt: users.deactivatedAt })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
      .limit(1);
    if (!user || user.deactivatedAt) return;
    const token = newToken();
    const expiresAt = new Date(Date.now() + PASSWORD_RESET_VALID_MINUTES * MINUTE_MS);
    await this.db.transaction(async (tx) => {
      await tx.delete(passwordResets).where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
      await tx.insert(passwordResets).values({ userId: user.id, tokenHash: hashToken(token), expiresAt });
    });
    await mailer.sendPasswordReset({ to: user.email, name: user.name, lang, url: `${origin}/passwort-neu/${token}`, expiresAt });
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
