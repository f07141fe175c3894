import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';

/**
 * Failed sign-ins counted in the database (table sign_in_failures, drizzle/0007), so that every
 * server process on one PostgreSQL counts the same attempts (docs/decisions/0013-many-processes.md):
 * eleven wrong passwords spread over three processes are eleven, not four per process.
 * The clock is the database's, so processes with slightly different clocks agree too.
 *
 * Two keys per attempt: one e-mail from one address (refused after `max` failures in the window,
 * with the seconds until the oldest of them leaves it) and the address alone (counted, up to
 * `addressCountCap`, for the slowdown of auth.service.ts). A sign-in that succeeds clears the
 * e-mail's failures. Rows older than the window are deleted at most once a minute per process.
 */
export class SignInLimiter {
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: { max: number; windowMs: number; addressCountCap: number },
  ) {}

  private get windowSecs(): number {
    return this.opts.windowMs / 1000;
  }

  /** Seconds until another attempt for this e-mail key is allowed (0: now), and the address's recent failures. */
  async check(emailKey: string, addressKey: string): Promise<{ retryAfter: number; addressFailures: number }> {
    const w = this.windowSecs;
    const [r] = await rows<{ wait: number | string | null; address: number | string }>(
      this.db,
      sql`select
        (select extract(epoch from (f.failed_at + make_interval(secs => ${w}) - now()))
           from sign_in_failures f
           where f.key = ${emailKey} and f.failed_at > now() - make_interval(secs => ${w})
           order by f.failed_at desc offset ${this.opts.max - 1} limit 1) as wait,
        (select count(*) from (select 1 from sign_in_failures a
           where a.key = ${addressKey} and a.failed_at > now() - make_interval(secs => ${w})
           limit ${this.opts.addressCountCap}) x) as address`,
    );
    const wait = r?.wait === null || r?.wait === undefined ? 0 : Math.max(1, Math.ceil(Number(r.wait)));
    return { retryAfter: wait, addressFailures: Number(r?.address ?? 0) };
  }

  async fail(emailKey: string, addressKey: string): Promise<void> {
    await this.db.execute(sql`insert into sign_in_failures (key) values (${emailKey}), (${addressKey})`);
    const now = Date.now();
    if (now - this.lastPrune > 60_000) {
      this.lastPrune = now;
      await this.db.execute(sql`delete from sign_in_failures where failed_at < now() - make_interval(secs => ${this.windowSecs})`);
    }
  }

  async reset(emailKey: string): Promise<void> {
    await this.db.execute(sql`delete from sign_in_failures where key = ${emailKey}`);
  }
}
