import { sql } from 'drizzle-orm';
import { ANALYSIS_LIMITS } from '@contract/recording-analysis';
import { rows, type Db } from '../../db/client';

/**
 * How much analysis one user may ask of the server (docs/decisions/listening.md, "What a report
 * may cost"): a bucket of minutes of take, not of requests. Each PUT that reaches the worker
 * takes the length of its track (at least `minCostMs`) out of a bucket of `bucketMs`, which
 * fills again at `refillMsPerMinute`; an empty bucket answers 429 with the seconds until the
 * track would fit. Counting the take's length, not the calls, lets a teacher's browser send many
 * short takes at once (a list of old takes opened) while a student who sends 60-minute tracks
 * again and again gets two, then one every two minutes.
 *
 * Counted in the database, like the other per-user and per-address limits (server/lib/rate-limit.ts,
 * docs/decisions/0013-many-processes.md), so that every server process on one PostgreSQL takes
 * from the same bucket; the clock is the database's. One row per user in sign_in_failures (the
 * limits' table): key `an|{user id}`, `failed_at` = the moment the bucket is full again (the
 * "theoretical arrival time" of the generic cell rate algorithm, a token bucket in one timestamp).
 * Reading and moving it is one atomic step: one transaction under an advisory lock of the key, so
 * two PUTs at the same moment, in one process or two, cannot both take the last minutes. The time
 * is clock_timestamp(), read after the lock: now() is when the transaction began, before it waited.
 */
export class AnalysisLimiter {
  constructor(
    private readonly db: Db,
    private readonly opts: { bucketMs: number; refillMsPerMinute: number; minCostMs: number } = {
      bucketMs: ANALYSIS_LIMITS.bucketMs,
      refillMsPerMinute: ANALYSIS_LIMITS.refillMsPerMinute,
      minCostMs: ANALYSIS_LIMITS.minCostMs,
    },
  ) {}

  /**
   * Takes `takeMs` of take for the user: 0 when taken, else the seconds until it would fit (nothing
   * taken).
   */
  async take(userId: number, takeMs: number): Promise<number> {
    const key = `an|${userId}`;
    // wall-clock ms per ms of take: the bucket refills refillMsPerMinute of take per minute
    const rate = 60_000 / this.opts.refillMsPerMinute;
    const cost = Math.max(this.opts.minCostMs, takeMs) * rate;
    const tolerance = this.opts.bucketMs * rate;
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`uk-analysis|${key}`}, 0))`);
      const [r] = await rows<{ ahead: number | string | null }>(
        tx,
        sql`select extract(epoch from (max(failed_at) - clock_timestamp())) * 1000 as ahead from sign_in_failures where key = ${key}`,
      );
      const ahead = Math.max(0, Number(r?.ahead ?? 0));
      if (ahead + cost > tolerance) return Math.max(1, Math.ceil((ahead + cost - tolerance) / 1000));
      await tx.execute(sql`delete from sign_in_failures where key = ${key}`);
      await tx.execute(sql`insert into sign_in_failures (key, failed_at) values (${key}, clock_timestamp() + make_interval(secs => ${(ahead + cost) / 1000}))`);
      return 0;
    });
  }
}
