import { sql, type SQL } from 'drizzle-orm';
import { rows, type DbOrTx } from '../../db/client';
import type { PracticeSession } from '@contract/practice';
import { PRACTICE_SESSION_CAP_MINUTES } from '@contract/constants';

type Row = {
  id: number;
  submission_id: number;
  started_at: Date | string;
  ended_at: Date | string | null;
  duration_minutes: number | string | null;
  tempo_bpm: number | string | null;
  recorded_offline: boolean;
};

const cols = sql`p.id, p.submission_id, p.started_at, p.ended_at, p.duration_minutes, p.tempo_bpm, p.recorded_offline`;

function toSession(r: Row): PracticeSession {
  return {
    id: r.id,
    submission_id: r.submission_id,
    started_at: new Date(r.started_at).toISOString(),
    ended_at: r.ended_at === null ? null : new Date(r.ended_at).toISOString(),
    duration_minutes: r.duration_minutes === null ? null : Number(r.duration_minutes),
    tempo_bpm: r.tempo_bpm === null ? null : Number(r.tempo_bpm),
    recorded_offline: r.recorded_offline === true,
  };
}

/**
 * The end of a session stopped now, by the database's clock: now, but at most
 * PRACTICE_SESSION_CAP_MINUTES after the start (a forgotten timer), and never before the start.
 */
const cappedEndAt = (now: SQL) => sql`greatest(p.started_at, least(${now}, p.started_at + make_interval(mins => ${PRACTICE_SESSION_CAP_MINUTES}::int)))`;
const cappedEnd = cappedEndAt(sql`now()`);
const setStoppedAt = (now: SQL) => {
  const end = cappedEndAt(now);
  return sql`ended_at = ${end}, duration_minutes = round((extract(epoch from (${end} - p.started_at)) / 60)::numeric, 2)::double precision`;
};
const setStopped = setStoppedAt(sql`now()`);

/**
 * Inserts a running session (started now). Throws the unique violation when one already runs.
 * Every statement of this file names the student's school (`school_id`, docs/decisions/schools-and-roles.md).
 */
export async function insertSession(db: DbOrTx, schoolId: number, submissionId: number, studentId: number, startedAt?: At): Promise<PracticeSession> {
  const start = startedAt === undefined ? sql`now()` : atSql(startedAt);
  const [r] = await rows<Row>(
    db,
    sql`insert into practice_sessions as p (school_id, submission_id, student_id, started_at) values (${schoolId}, ${submissionId}, ${studentId}, ${start}) returning ${cols}`,
  );
  if (!r) throw new Error('insert practice session returned nothing');
  return toSession(r);
}

/**
 * Inserts a finished session timed on the student's device (recorded_offline); the duration in
 * minutes with two decimals, computed in SQL as for a stop.
 */
export async function insertOfflineSession(
  db: DbOrTx,
  schoolId: number,
  submissionId: number,
  studentId: number,
  startedAt: Date,
  endedAt: Date,
): Promise<PracticeSession> {
  const [r] = await rows<Row>(
    db,
    sql`insert into practice_sessions as p (school_id, submission_id, student_id, started_at, ended_at, duration_minutes, recorded_offline)
      values (${schoolId}, ${submissionId}, ${studentId}, ${startedAt.toISOString()}::timestamptz, ${endedAt.toISOString()}::timestamptz,
        round((extract(epoch from (${endedAt.toISOString()}::timestamptz - ${startedAt.toISOString()}::timestamptz)) / 60)::numeric, 2)::double precision, true)
      returning ${cols}`,
  );
  if (!r) throw new Error('insert offline practice session returned nothing');
  return toSession(r);
}

/** A moment for the queries below: a time the device sent, or one read from the database's clock (its text). */
export type At = Date | string;
const atSql = (at: At) => (typeof at === 'string' ? sql`${at}::timestamptz` : sql`${at.toISOString()}::timestamptz`);

/**
 * The database's clock right now (`clock_timestamp()`, not the transaction's start `now()`: a
 * start that waited for the student's lock begins when it got it, after the one it waited for).
 */
export async function clockNow(db: DbOrTx): Promise<string> {
  const [r] = await rows<{ t: string }>(db, sql`select clock_timestamp()::text as t`);
  if (!r) throw new Error('clock_timestamp returned nothing');
  return r.t;
}

/**
 * A session of the student (any task) whose time overlaps [startedAt, endedAt): a running one
 * counts until now (at most its 180-minute cap). Sessions that only touch at an end do not overlap.
 */
export async function findOverlapping(db: DbOrTx, schoolId: number, studentId: number, startedAt: At, endedAt: SQL): Promise<PracticeSession | null> {
  const start = atSql(startedAt);
  const [r] = await rows<Row>(
    db,
    sql`select ${cols} from practice_sessions p
      where p.student_id = ${studentId} and p.school_id = ${schoolId} and p.started_at < ${endedAt}
        -- no session lasts longer than the cap: this bounds the scan of (student_id, started_at)
        and p.started_at > ${start} - make_interval(mins => ${PRACTICE_SESSION_CAP_MINUTES}::int)
        and coalesce(p.ended_at, ${cappedEnd}) > ${start}
      order by p.started_at limit 1`,
  );
  return r ? toSession(r) : null;
}

/** The end of a span as SQL: a time the device sent, or (a live session from `at`) `at` plus the cap. */
export const spanEnd = (endedAt: Date | null, at: At): SQL =>
  endedAt ? atSql(endedAt) : sql`${atSql(at)} + make_interval(mins => ${PRACTICE_SESSION_CAP_MINUTES}::int)`;

/**
 * How many sessions of the student start on the day of `at` (in `timeZone`) and how many minutes
 * they count together (a running one until now, at most its cap).
 */
export async function dayTotals(db: DbOrTx, schoolId: number, studentId: number, at: At, timeZone: string): Promise<{ count: number; minutes: number }> {
  const local = sql`date_trunc('day', ${atSql(at)} at time zone ${timeZone})`;
  const dayStart = sql`(${local} at time zone ${timeZone})`;
  const dayEnd = sql`((${local} + interval '1 day') at time zone ${timeZone})`;
  const [r] = await rows<{ count: number | string; minutes: number | string | null }>(
    db,
    sql`select count(*) as count,
        sum(coalesce(p.duration_minutes, extract(epoch from (${cappedEnd} - p.started_at)) / 60)) as minutes
      from practice_sessions p
      where p.student_id = ${studentId} and p.school_id = ${schoolId}
        and p.started_at >= ${dayStart} and p.started_at < ${dayEnd}`,
  );
  return { count: Number(r?.count ?? 0), minutes: Number(r?.minutes ?? 0) };
}

/** Locks the student's row (`for no key update`): a student's sessions are claimed one at a time. */
export async function lockStudent(db: DbOrTx, schoolId: number, studentId: number): Promise<void> {
  await rows(db, sql`select id from users where id = ${studentId} and school_id = ${schoolId} for no key update`);
}

/** Stops every session the student has running (on any task), counted until `at` (at most the cap). */
export async function stopRunningOfStudent(db: DbOrTx, schoolId: number, studentId: number, at: At): Promise<PracticeSession[]> {
  const r = await rows<Row>(
    db,
    sql`update practice_sessions p set ${setStoppedAt(atSql(at))}
      where p.student_id = ${studentId} and p.school_id = ${schoolId} and p.ended_at is null returning ${cols}`,
  );
  return r.map(toSession);
}

/** The running session of a task, if any. */
export async function findRunning(db: DbOrTx, schoolId: number, submissionId: number): Promise<PracticeSession | null> {
  const [r] = await rows<Row>(
    db,
    sql`select ${cols} from practice_sessions p where p.submission_id = ${submissionId} and p.school_id = ${schoolId} and p.ended_at is null`,
  );
  return r ? toSession(r) : null;
}

/** Sessions of a task, newest first, one page. */
export async function listSessions(db: DbOrTx, schoolId: number, submissionId: number, limit: number, offset: number): Promise<PracticeSession[]> {
  const r = await rows<Row>(
    db,
    sql`select ${cols} from practice_sessions p where p.submission_id = ${submissionId} and p.school_id = ${schoolId}
        order by p.started_at desc, p.id desc limit ${limit} offset ${offset}`,
  );
  return r.map(toSession);
}

/** A session of one student (any state), for the stop call's 404/409 decision. */
export async function findStudentSession(db: DbOrTx, schoolId: number, id: number, studentId: number): Promise<PracticeSession | null> {
  const [r] = await rows<Row>(
    db,
    sql`select ${cols} from practice_sessions p where p.id = ${id} and p.school_id = ${schoolId} and p.student_id = ${studentId}`,
  );
  return r ? toSession(r) : null;
}

/**
 * Stops one running session of a student, keeping the tempo reached when one is given; null when
 * it is not running (or not theirs).
 */
export async function stopSession(db: DbOrTx, schoolId: number, id: number, studentId: number, tempoBpm?: number): Promise<PracticeSession | null> {
  return stopWhere(db, sql`p.id = ${id} and p.school_id = ${schoolId} and p.student_id = ${studentId}`, tempoBpm).then((r) => r[0] ?? null);
}

/** Stops whatever session runs on a task (completion does this first). */
export async function stopRunningOnSubmission(db: DbOrTx, schoolId: number, submissionId: number): Promise<PracticeSession[]> {
  return stopWhere(db, sql`p.submission_id = ${submissionId} and p.school_id = ${schoolId}`);
}

async function stopWhere(db: DbOrTx, where: SQL, tempoBpm?: number): Promise<PracticeSession[]> {
  const tempo = tempoBpm === undefined ? sql`` : sql`, tempo_bpm = ${tempoBpm}::int`;
  const r = await rows<Row>(db, sql`update practice_sessions p set ${setStopped}${tempo} where ${where} and p.ended_at is null returning ${cols}`);
  return r.map(toSession);
}

/** True for a unique violation (23505) of the one-running-session index, on both drivers. */
export function isRunningSessionConflict(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const x = e as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (x.code === '23505') return x.constraint === undefined || x.constraint === 'practice_sessions_one_running_key' || String(x.message).includes('practice_sessions_one_running_key');
    e = x.cause;
  }
  return false;
}
