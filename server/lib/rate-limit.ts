import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows, type Db } from '../db/client';

/**
 * Attempts counted in the database (table sign_in_failures, drizzle/0007), so that every server
 * process on one PostgreSQL counts the same attempts (docs/decisions/0013-many-processes.md):
 * eleven wrong passwords spread over three processes are eleven, not four per process.
 * The clock is the database's, so processes with slightly different clocks agree too.
 *
 * Counting and recording are one atomic step (`take`): in one transaction, under an advisory lock
 * per limited key (taken in a fixed order, so two steps never wait for each other in a circle),
 * each key's rows in the window are counted and, when the limit allows, the attempt's rows are
 * inserted before the lock is released at the commit. An attempt that arrives at the same moment
 * on another connection or in another process waits for the lock and then counts the row. Checking
 * first and recording afterwards let 30 wrong passwords sent at once all be checked against a
 * limit of 10. On the embedded database a transaction holds the whole database; the same
 * statements run there (the lock is granted at once).
 *
 * Rows older than the window are deleted at most once a minute per limiter.
 */

/** One key of an attempt. */
export type LimitRule = {
  key: string;
  /** At most this many rows of the key in the window. */
  max: number;
  /**
   * What a full key does: 'refuse' records nothing for the whole attempt and answers the seconds
   * until the oldest counted row leaves the window; 'skip' records nothing for this key only (the
   * attempt goes on; `recorded` says so).
   */
  whenFull: 'refuse' | 'skip';
  /**
   * Whether concurrent attempts on this key wait for each other (default true). A key that is only
   * counted for a soft rule (a slowdown) need not: its count may be a few attempts behind.
   */
  locked?: boolean;
};

export type Taken = {
  /** Seconds until the attempt would be allowed (0: it was recorded). */
  retryAfter: number;
  /** Rows of each rule's key in the window before this attempt (at most its `max`). */
  counts: number[];
  /** Whether a row was recorded for each rule. */
  recorded: boolean[];
  /** The ids of the recorded rows (for `release`). */
  ids: number[];
};

/** A 64-bit advisory lock id of a limiter key (signed, as PostgreSQL's bigint). */
export function lockIdOf(key: string): bigint {
  return createHash('sha256').update(`uk-limit|${key}`).digest().readBigInt64BE(0);
}

export class CountingLimiter {
  private lastPrune = 0;

  constructor(
    private readonly db: Db,
    private readonly opts: { windowMs: number },
  ) {}

  private get windowSecs(): number {
    return this.opts.windowMs / 1000;
  }

  /** Counts the rules' keys and records the attempt, in one atomic step (see above). */
  async take(rules: readonly LimitRule[]): Promise<Taken> {
    const w = this.windowSecs;
    const locks = [...new Set(rules.filter((r) => r.locked !== false).map((r) => lockIdOf(r.key)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const taken = await this.db.transaction(async (tx): Promise<Taken> => {
      for (const id of locks) await tx.execute(sql`select pg_advisory_xact_lock(${id.toString()}::bigint)`);
      // counted after the locks: a statement started now sees every row committed before them
      const [r] = await rows<Record<string, number | string | null>>(
        tx,
        sql`select ${sql.join(
          rules.map(
            (rule, i) => sql`(select count(*) from (select 1 from sign_in_failures f
                 where f.key = ${rule.key} and f.failed_at > now() - make_interval(secs => ${w}) limit ${rule.max}) x)::int as ${sql.raw(`n${i}`)},
               (select extract(epoch from (f.failed_at + make_interval(secs => ${w}) - now())) from sign_in_failures f
                 where f.key = ${rule.key} and f.failed_at > now() - make_interval(secs => ${w})
                 order by f.failed_at desc offset ${rule.max - 1} limit 1) as ${sql.raw(`w${i}`)}`,
          ),
          sql`, `,
        )}`,
      );
      const counts = rules.map((_, i) => Number(r?.[`n${i}`] ?? 0));
      let retryAfter = 0;
      rules.forEach((rule, i) => {
        const wait = r?.[`w${i}`];
        if (rule.whenFull === 'refuse' && counts[i]! >= rule.max && wait !== null && wait !== undefined) {
          retryAfter = Math.max(retryAfter, Math.max(1, Math.ceil(Number(wait))));
        }
      });
      const recorded = rules.map((rule, i) => retryAfter === 0 && counts[i]! < rule.max);
      const keys = rules.filter((_, i) => recorded[i]).map((rule) => rule.key);
      const ids = keys.length
        ? (await rows<{ id: number }>(tx, sql`insert into sign_in_failures (key) values ${sql.join(keys.map((k) => sql`(${k})`), sql`, `)} returning id`)).map((x) => Number(x.id))
        : [];
      return { retryAfter, counts, recorded, ids };
    });
    await this.prune();
    return taken;
  }

  /** Takes back recorded rows (an attempt that turned out not to count). */
  async release(ids: readonly number[]): Promise<void> {
    if (!ids.length) return;
    await this.db.execute(sql`delete from sign_in_failures where id in ${[...ids]}`);
  }

  /** Forgets every row of a key (a sign-in that succeeded clears its e-mail's failures). */
  async reset(key: string): Promise<void> {
    await this.db.execute(sql`delete from sign_in_failures where key = ${key}`);
  }

  private async prune(): Promise<void> {
    const now = Date.now();
    if (now - this.lastPrune <= 60_000) return;
    this.lastPrune = now;
    await this.db.execute(sql`delete from sign_in_failures where failed_at < now() - make_interval(secs => ${this.windowSecs})`);
  }
}
