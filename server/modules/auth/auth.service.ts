import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tokens, users } from '../../db/schema/index';
import { AppError, messages } from '../../errors';
import { forgetToken, issueToken, pruneTokens, type AuthUser, type Role } from '../../lib/auth';
import { audit } from '../../lib/audit';
import { verifyPassword } from '../../lib/passwords';
import { CountingLimiter } from '../../lib/rate-limit';
import type { LoginResponse, User } from '@contract/auth';

const WINDOW_MS = 15 * 60 * 1000;
/** Failures from one address within the window before its sign-ins are slowed down. */
export const ADDRESS_FREE_FAILURES = 20;
/** The longest wait before an attempt from an address with many failures is checked. */
export const ADDRESS_MAX_DELAY_MS = 5000;

/**
 * How long an attempt from an address with `failures` recent failures waits before it is checked:
 * nothing up to ADDRESS_FREE_FAILURES, then 125 ms doubling every 5 failures, at most 5 s. Every
 * attempt waits the same (a correct password too, so timing reveals nothing), and none is refused
 * for its address alone: a school behind one address is slowed during an attack, not locked out.
 * With MAX_CONNECTIONS_PER_IP connections an address gets at most that many attempts per 5 s.
 */
export function addressDelayMs(failures: number): number {
  if (failures < ADDRESS_FREE_FAILURES) return 0;
  return Math.min(ADDRESS_MAX_DELAY_MS, Math.round(125 * 2 ** ((failures - ADDRESS_FREE_FAILURES) / 5)));
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export function toUser(u: { id: number; name: string; email: string; role: Role }): User {
  return { id: u.id, name: u.name, email: u.email, role: { name: u.role } };
}

/** Failed attempts for one e-mail from one address within the window before further ones are refused (429). */
export const FAILURES_PER_EMAIL = 10;
/** The per-address count stops here (addressDelayMs is at its longest long before). */
const ADDRESS_COUNT_CAP = 1000;

export class AuthService {
  /**
   * 10 failed attempts for one e-mail from one address within 15 minutes are refused; failures per
   * address (any e-mail) slow that address down (addressDelayMs), never lock it out. Counted in the
   * database, across every server process (server/lib/rate-limit.ts).
   */
  private readonly limiter: CountingLimiter;

  constructor(private readonly db: Db) {
    this.limiter = new CountingLimiter(db, { windowMs: WINDOW_MS });
  }

  async login(email: string, password: string, ip: string): Promise<LoginResponse> {
    const emailKey = `e|${ip}|${email.toLowerCase()}`;
    const addressKey = `a|${ip}`;
    // The attempt is recorded as a failure before the password is checked, in one step with the
    // count (docs/decisions/0013-many-processes.md): of 30 attempts at once, ten are checked and
    // twenty refused. A correct password takes the record back below.
    const taken = await this.limiter.take([
      { key: emailKey, max: FAILURES_PER_EMAIL, whenFull: 'refuse' },
      // only counted, for the slowdown: attempts on other e-mails need not wait for each other
      { key: addressKey, max: ADDRESS_COUNT_CAP, whenFull: 'skip', locked: false },
    ]);
    if (taken.retryAfter > 0) throw new AppError(429, messages.rateLimited, undefined, undefined, { 'retry-after': String(taken.retryAfter) });
    const delay = addressDelayMs(taken.counts[1] ?? 0);
    if (delay > 0) await sleep(delay);

    const found = await this.db
      .select()
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.toLowerCase()))
      .limit(1);
    const user = found[0];
    const ok = await verifyPassword(user?.passwordHash, password);
    // a failure stays recorded
    if (!user || !ok) throw new AppError(401, messages.loginFailed);
    await this.limiter.reset(emailKey);
    await this.limiter.release(taken.ids);
    // Told only to whoever knows the password: the account exists but may not sign in.
    if (user.deactivatedAt) throw new AppError(401, messages.accountDeactivated);
    await pruneTokens(this.db, user.id);
    const token = await issueToken(this.db, user.id);
    if (user.role === 'admin') await audit(this.db, user, 'admin.sign_in', null, { ip });
    return { token, user: toUser(user) };
  }

  async logout(user: AuthUser): Promise<void> {
    await this.db.delete(tokens).where(eq(tokens.id, user.tokenId));
    await forgetToken(this.db, user.tokenId);
  }
}
