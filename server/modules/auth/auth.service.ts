import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tokens, users } from '../../db/schema/index';
import { AppError, messages } from '../../errors';
import { forgetToken, issueToken, type AuthUser } from '../../lib/auth';
import { verifyPassword } from '../../lib/passwords';
import { FailureLimiter } from '../../lib/rate-limit';
import type { LoginResponse, User } from '../../../contract/auth';

const WINDOW_MS = 15 * 60 * 1000;

export function toUser(u: { id: number; name: string; email: string; role: 'teacher' | 'student' }): User {
  return { id: u.id, name: u.name, email: u.email, role: { name: u.role } };
}

export class AuthService {
  /** 10 failed attempts for one e-mail from one address within 15 minutes. */
  private readonly perEmail = new FailureLimiter(10, WINDOW_MS);
  /** Many e-mails tried from one address: 50 failures within 15 minutes. */
  private readonly perAddress = new FailureLimiter(50, WINDOW_MS);

  constructor(private readonly db: Db) {}

  async login(email: string, password: string, ip: string): Promise<LoginResponse> {
    const emailKey = `${ip}|${email.toLowerCase()}`;
    const wait = Math.max(this.perEmail.retryAfter(emailKey), this.perAddress.retryAfter(ip));
    if (wait > 0) throw new AppError(429, messages.rateLimited, undefined, undefined, { 'retry-after': String(wait) });

    const found = await this.db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
      .limit(1);
    const user = found[0];
    const ok = await verifyPassword(user?.passwordHash, password);
    if (!user || !ok) {
      this.perEmail.fail(emailKey);
      this.perAddress.fail(ip);
      throw new AppError(401, messages.loginFailed);
    }
    this.perEmail.reset(emailKey);
    const token = await issueToken(this.db, user.id);
    return { token, user: toUser(user) };
  }

  async logout(user: AuthUser): Promise<void> {
    await this.db.delete(tokens).where(eq(tokens.id, user.tokenId));
    forgetToken(user.tokenId);
  }
}
