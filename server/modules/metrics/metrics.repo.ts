import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import { COMPETENCY_LEVELS, DASHBOARD_DAYS, type CompetencyLevel } from '@contract/constants';
import type { ProgressPoint, SubmissionCounts } from '@contract/metrics';
import { TOP_LEVEL_WINDOW } from '@contract/metrics';
import { statusCondition } from '../submissions/submissions.repo';

/**
 * All metrics are computed in PostgreSQL, in one statement each, never by loading a student's
 * rows into the server. Days are calendar dates in the school's time zone (`tz`); `today` is the
 * school's date. A practice session belongs to the day on which it started (local time); only
 * finished sessions (ended_at set) count. See docs/decisions/metrics-definitions.md.
 *
 * Index use: practice_sessions(student_id, started_at) for every session aggregate (the 7- and
 * 30-day windows are ranges on started_at), submissions(student_id, due_date) and
 * submissions(student_id, completed_at) for the task counts and the streak.
 *
 * Every statement stays inside the student's school: each table's rows are filtered by its
 * `school_id` (docs/decisions/schools-and-roles.md, the shard key).
 */

export type StudentRef = { id: number; name: string; email: string };

/** Local midnight at the start of `date + offset days`, as timestamptz. */
const localMidnight = (today: string, offsetDays: number, tz: string): SQL =>
  sql`((${today}::date + ${offsetDays}::int)::timestamp at time zone ${tz})`;

/** Counts by status and completion rate as one row (CTE body). */
function countsCte(studentId: number, today: string, schoolId: number): SQL {
  return sql`select
      count(*)::int as total_submissions,
      (count(*) filter (where ${statusCondition('completed', today)}))::int as completed_submissions,
      (count(*) filter (where ${statusCondition('open', today)}))::int as open_submissions,
      (count(*) filter (where ${statusCondition('overdue', today)}))::int as overdue_submissions,
      (count(*) filter (where ${statusCondition('expired', today)}))::int as expired_submissions
    from submissions s where s.student_id = ${studentId} and s.school_id = ${schoolId}`;
}

/** Whether the student finished a practice session or completed a task on local day `day` (an SQL date). */
function activeOn(studentId: number | SQL, day: SQL, tz: string, schoolId: number | SQL): SQL {
  const from = sql`((${day})::timestamp at time zone ${tz})`;
  const to = sql`((${day} + 1)::timestamp at time zone ${tz})`;
  return sql`(exists (select 1 from practice_sessions p where p.student_id = ${studentId} and p.school_id = ${schoolId} and p.ended_at is not null
        and p.started_at >= ${from} and p.started_at < ${to})
     or exists (select 1 from submissions s where s.student_id = ${studentId} and s.school_id = ${schoolId}
        and s.completed_at >= ${from} and s.completed_at < ${to}))`;
}

/**
 * Streak (CTE bodies `walk`, `streak`; the statement must start WITH RECURSIVE): a walk back one
 * local day at a time from today, two index probes per day (practice_sessions(student_id,
 * started_at) and submissions(student_id, completed_at)), that stops at the first day without
 * activity – except that an inactive today continues to yesterday (the streak counts from
 * yesterday until today has something). The cost grows with the streak, not with the history.
 * `studentId` may also be a column of an outer row (a lateral subquery: the guardian's children);
 * so may `schoolId`, the student's school, by which both tables are read (docs/decisions/schools-and-roles.md).
 */
export function streakCtes(studentId: number | SQL, today: string, tz: string, schoolId: number | SQL): SQL {
  return sql`walk(d, active) as (
      select ${today}::date, ${activeOn(studentId, sql`${today}::date`, tz, schoolId)}
      union all
      select w.d - 1, ${activeOn(studentId, sql`w.d - 1`, tz, schoolId)} from walk w where w.active or w.d = ${today}::date
    ),
    streak as (select (count(*) filter (where active))::int as current_streak from walk)`;
}

const completionRate = sql`coalesce(round(100.0 * c.completed_submissions
    / nullif(c.completed_submissions + c.overdue_submissions + c.expired_submissions, 0), 1), 0)::float8`;

type CountsRow = SubmissionCounts;

type MetricsRow = CountsRow & {
  current_streak: number;
  average_accuracy: number | null;
  total_practice_time_minutes: number;
  weekly_practice_time_minutes: number;
  average_session_time_minutes: number;
  total_practice_sessions: number;
  top_competency_level: CompetencyLevel | null;
  progress_data: ProgressPoint[] | string;
};

export type MetricsData = Omit<MetricsRow, keyof CountsRow | 'progress_data'> & {
  progress_data: ProgressPoint[];
  overall_metrics: SubmissionCounts;
};

const levelOrder = sql.raw(`array[${COMPETENCY_LEVELS.map((l) => `'${l}'`).join(', ')}]::text[]`);

/**
 * The owner check of a teacher's call, folded into the statement that computes the numbers: a
 * student of another teacher (or a teacher's id, a missing id) gives no row.
 */
const ownedBy = (schoolId: number, studentId: number, teacherId: number): SQL =>
  sql`exists (select 1 from users o where o.id = ${studentId} and o.school_id = ${schoolId} and o.role = 'student' and o.teacher_id = ${teacherId})`;

/**
 * Every number of GET /api/my-metrics for one student, in one statement; with `teacherId`, only
 * for a student of that teacher (else undefined).
 */
async function metricsRow(
  db: DbOrTx,
  schoolId: number,
  studentId: number,
  today: string,
  tz: string,
  teacherId?: number,
): Promise<MetricsData | undefined> {
  const first = DASHBOARD_DAYS - 1;
  const result = await rows<MetricsRow>(
    db,
    sql`with recursive
    sess as (
      select count(*)::int as n, coalesce(sum(p.duration_minutes), 0) as total,
             coalesce(sum(p.duration_minutes) filter (where p.started_at >= ${localMidnight(today, -6, tz)}), 0) as weekly
      from practice_sessions p
      where p.student_id = ${studentId} and p.school_id = ${schoolId} and p.ended_at is not null and p.started_at < ${localMidnight(today, 1, tz)}
    ),
    daily as (
      select (p.started_at at time zone ${tz})::date as d, sum(p.duration_minutes) as m
      from practice_sessions p
      where p.student_id = ${studentId} and p.school_id = ${schoolId} and p.ended_at is not null
        and p.started_at >= ${localMidnight(today, -first, tz)} and p.started_at < ${localMidnight(today, 1, tz)}
      group by 1
    ),
    progress as (
      select json_agg(json_build_object('date', g.d::date::text,
               'practice_time_minutes', coalesce(round(daily.m::numeric, 2), 0)) order by g.d) as data
      from generate_series((${today}::date - ${first}::int)::timestamp, ${today}::date::timestamp, interval '1 day') as g(d)
      left join daily on daily.d = g.d::date
    ),
    ${streakCtes(studentId, today, tz, schoolId)},
    c as (${countsCte(studentId, today, schoolId)}),
    acc as (
      select round(avg(s.accuracy_score)::numeric, 2)::float8 as average_accuracy
      from submissions s where s.student_id = ${studentId} and s.school_id = ${schoolId} and s.accuracy_score is not null
    ),
    recent_levels as (
      select s.competency_level as lvl from submissions s
      where s.student_id = ${studentId} and s.school_id = ${schoolId} and s.competency_level is not null
      order by s.due_date desc, s.id desc limit ${TOP_LEVEL_WINDOW}
    ),
    top as (
      select lvl from recent_levels group by lvl
      order by count(*) desc, array_position(${levelOrder}, lvl) desc limit 1
    )
    select streak.current_streak,
      acc.average_accuracy,
      round(sess.total::numeric, 2)::float8 as total_practice_time_minutes,
      round(sess.weekly::numeric, 2)::float8 as weekly_practice_time_minutes,
      coalesce(round((sess.total / nullif(sess.n, 0))::numeric, 2), 0)::float8 as average_session_time_minutes,
      sess.n as total_practice_sessions,
      (select lvl from top) as top_competency_level,
      progress.data as progress_data,
      c.total_submissions, c.completed_submissions, c.open_submissions, c.overdue_submissions, c.expired_submissions,
      ${completionRate} as completion_rate
    from sess, progress, streak, c, acc
    ${teacherId === undefined ? sql`` : sql`where ${ownedBy(schoolId, studentId, teacherId)}`}`,
  );
  const r = result[0];
  if (!r) return undefined;
  const progress = (typeof r.progress_data === 'string' ? JSON.parse(r.progress_data) : r.progress_data) as ProgressPoint[];
  return {
    current_streak: r.current_streak,
    average_accuracy: r.average_accuracy === null ? null : Number(r.average_accuracy),
    total_practice_time_minutes: Number(r.total_practice_time_minutes),
    weekly_practice_time_minutes: Number(r.weekly_practice_time_minutes),
    average_session_time_minutes: Number(r.average_session_time_minutes),
    total_practice_sessions: r.total_practice_sessions,
    top_competency_level: r.top_competency_level,
    progress_data: progress.map((p) => ({ date: p.date, practice_time_minutes: Number(p.practice_time_minutes) })),
    overall_metrics: countsOf(r),
  };
}

/** Every number of GET /api/my-metrics for one student (of `schoolId`), in one statement. */
export async function studentMetrics(db: DbOrTx, schoolId: number, studentId: number, today: string, tz: string): Promise<MetricsData> {
  const r = await metricsRow(db, schoolId, studentId, today, tz);
  if (!r) throw new Error('metrics: no row');
  return r;
}

/** The same numbers for a student of this teacher, with the owner check in the same statement; undefined when not theirs. */
export function ownStudentMetrics(
  db: DbOrTx,
  schoolId: number,
  teacherId: number,
  studentId: number,
  today: string,
  tz: string,
): Promise<MetricsData | undefined> {
  return metricsRow(db, schoolId, studentId, today, tz, teacherId);
}

function countsOf(r: CountsRow): SubmissionCounts {
  return {
    total_submissions: r.total_submissions,
    completed_submissions: r.completed_submissions,
    open_submissions: r.open_submissions,
    overdue_submissions: r.overdue_submissions,
    expired_submissions: r.expired_submissions,
    completion_rate: Number(r.completion_rate),
  };
}

/**
 * The student (if this teacher's own) with their task counts, completion rate and streak for the
 * teacher's overview, in one statement; undefined for anybody else's id.
 */
export async function ownStudentKpis(
  db: DbOrTx,
  schoolId: number,
  teacherId: number,
  studentId: number,
  today: string,
  tz: string,
): Promise<{ student: StudentRef; kpis: SubmissionCounts & { current_streak: number } } | undefined> {
  const result = await rows<CountsRow & { current_streak: number; id: number; name: string; email: string }>(
    db,
    sql`with recursive ${streakCtes(studentId, today, tz, schoolId)},
    c as (${countsCte(studentId, today, schoolId)})
    select u.id, u.name, u.email,
      c.total_submissions, c.completed_submissions, c.open_submissions, c.overdue_submissions, c.expired_submissions,
      ${completionRate} as completion_rate, streak.current_streak
    from users u, c, streak
    where u.id = ${studentId} and u.school_id = ${schoolId} and u.role = 'student' and u.teacher_id = ${teacherId}`,
  );
  const r = result[0];
  if (!r) return undefined;
  return { student: { id: r.id, name: r.name, email: r.email }, kpis: { ...countsOf(r), current_streak: r.current_streak } };
}

/** A task of one of this teacher's students, or undefined. */
export async function findOwnSubmissionId(db: DbOrTx, schoolId: number, teacherId: number, submissionId: number): Promise<number | undefined> {
  const r = await rows<{ id: number }>(
    db,
    sql`select s.id from submissions s join users u on u.id = s.student_id and u.school_id = s.school_id
        where s.id = ${submissionId} and s.school_id = ${schoolId} and u.teacher_id = ${teacherId}`,
  );
  return r[0]?.id;
}

export async function saveReview(
  db: DbOrTx,
  schoolId: number,
  submissionId: number,
  review: { accuracy_score?: number | null | undefined; competency_level: CompetencyLevel; teacher_feedback?: string | null | undefined },
): Promise<void> {
  await db.execute(
    sql`update submissions set accuracy_score = ${review.accuracy_score === undefined ? sql`accuracy_score` : review.accuracy_score}, competency_level = ${review.competency_level},
        teacher_feedback = ${review.teacher_feedback === undefined ? sql`teacher_feedback` : review.teacher_feedback},
        updated_at = now()
      where id = ${submissionId} and school_id = ${schoolId}`,
  );
}
