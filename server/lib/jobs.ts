import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../db/client';
import { rows } from '../db/client';

/**
 * Work that must run once however many server processes share the database
 * (docs/decisions/0013-many-processes.md): migrations at start, the demo school, daily jobs.
 *
 * On PostgreSQL a session-level advisory lock, taken on a connection of its own for as long as
 * the work runs (the work itself may use any connection of the pool): a second process waits
 * (`wait`) or skips. On the embedded database there is one process per data folder: it just runs.
 */
export type LockTarget = { kind: 'pglite' | 'postgres'; pool?: pg.Pool };

/** The advisory lock key of a name (64 bits of PostgreSQL's own text hash). */
const LOCK_SQL = (fn: 'pg_advisory_lock' | 'pg_try_advisory_lock' | 'pg_advisory_unlock') => `select ${fn}(hashtextextended($1, 0)) as ok`;

export async function withAdvisoryLock<T>(
  target: LockTarget,
  name: string,
  work: () => Promise<T>,
  opts: { wait: boolean },
): Promise<{ ran: true; value: T } | { ran: false }> {
  if (target.kind !== 'postgres' || !target.pool) return { ran: true, value: await work() };
  const client = await target.pool.connect();
  let locked = false;
  let unlockFailed = false;
  try {
    const key = `uebungskontrolle:${name}`;
    if (opts.wait) {
      await client.query(LOCK_SQL('pg_advisory_lock'), [key]);
      locked = true;
    } else {
      const r = await client.query<{ ok: boolean }>(LOCK_SQL('pg_try_advisory_lock'), [key]);
      locked = r.rows[0]?.ok === true;
      if (!locked) return { ran: false };
    }
    return { ran: true, value: await work() };
  } finally {
    if (locked)
      await client.query(LOCK_SQL('pg_advisory_unlock'), [`uebungskontrolle:${name}`]).catch(() => {
        unlockFailed = true;
      });
    // A connection whose unlock failed must not go back to the pool still holding the lock: closed.
    client.release(unlockFailed);
  }
}

/**
 * Claims a run of the job `name` if it last ran at least `intervalMs` ago (by the database's
 * clock, one row in scheduled_jobs): true for exactly one caller across all processes.
 */
export async function claimRun(db: Db, name: string, intervalMs: number): Promise<boolean> {
  const claimed = await rows<{ name: string }>(
    db,
    sql`insert into scheduled_jobs (name, last_run_at) values (${name}, now())
        on conflict (name) do update set last_run_at = now()
        where scheduled_jobs.last_run_at <= now() - make_interval(secs => ${intervalMs / 1000})
        returning name`,
  );
  return claimed.length === 1;
}

/**
 * The names of the server's timed jobs (their rows in scheduled_jobs). Every job the server
 * schedules is named here: tests that compare the database before and after a call hold them all
 * (server/test/authz-world.ts, holdScheduledJobs).
 */
export const JOBS = {
  reminders: 'practice-reminders',
  messageRetention: 'message-retention',
  recordingsRetention: 'recordings-retention',
} as const;

/**
 * A job that runs every `intervalMs` across all processes: each process looks every `checkMs`
 * whether it is due; the one that claims it runs it under the job's advisory lock (a run that
 * lasts longer than the interval is not started twice).
 */
export function scheduleOnce(opts: {
  db: Db;
  target: LockTarget;
  name: string;
  intervalMs: number;
  firstCheckMs: number;
  checkMs: number;
  run: () => Promise<void>;
  onError: (err: unknown) => void;
}): { stop: () => Promise<void>; runNow: () => Promise<boolean> } {
  let running: Promise<boolean> | null = null;
  const attempt = (): Promise<boolean> => {
    running ??= withAdvisoryLock(
      opts.target,
      `job:${opts.name}`,
      async () => {
        // A minute of slack, so that timers a little early still find the job due.
        if (!(await claimRun(opts.db, opts.name, Math.max(0, opts.intervalMs - 60_000)))) return false;
        await opts.run();
        return true;
      },
      { wait: false },
    )
      .then((r) => r.ran && r.value)
      .catch((err: unknown) => {
        opts.onError(err);
        return false;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const first = setTimeout(() => void attempt(), opts.firstCheckMs).unref();
  const every = setInterval(() => void attempt(), opts.checkMs).unref();
  return {
    runNow: attempt,
    stop: async () => {
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
