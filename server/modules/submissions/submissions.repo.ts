import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import type { Submission } from '@contract/submissions';
import type { SubmissionStatus } from '@contract/constants';
import { NEW_FEEDBACK_SQL } from '../recordings/recordings.repo';
import { settingsColumns, settingsOf, type SettingsRow } from '../exercises/exercises.repo';

export type SubmissionFilter = {
  /** The caller's school: every statement stays inside it (docs/decisions/schools-and-roles.md, the shard key). */
  schoolId: number;
  ids?: number[];
  studentId?: number;
  teacherId?: number;
  courseId?: number;
  /** Any of these statuses. */
  statuses?: SubmissionStatus[];
  from?: string;
  to?: string;
  seriesId?: string;
  /** Include each exercise's media files (task detail); lists may leave them out. Default true. */
  withMedia?: boolean;
  limit?: number;
  offset?: number;
  /** `work`: still to do first (earliest due), then done or expired (latest due); ties by id. */
  order?: 'due_asc' | 'due_desc' | 'work';
};

type Row = {
  id: number;
  student_id: number;
  student_name: string;
  exercise_id: number | null;
  ex_title: string | null;
  ex_description: string | null;
  ex_category: string | null;
  ex_difficulty: string | null;
  ex_minutes: number | null;
  ex_target: string | null;
  media: Submission['exercise'] extends infer E ? (E extends { media_files: infer M } ? M : never) : never;
  exercise_title: string;
  course_id: number | null;
  series_id: string;
  due_date: string;
  expiration_date: string | null;
  completed_at: Date | string | null;
  teacher_note: string | null;
  teacher_feedback: string | null;
  created_at: Date | string;
  accuracy_score: number | null;
  time_spent_minutes: number;
  competency_level: Submission['competency_level'];
  status: SubmissionStatus;
  /** Selected by findSubmissions; a new task (assignments) has none. */
  new_feedback?: boolean | null;
} & { [K in keyof SettingsRow as `ex_${K}`]: SettingsRow[K] | null };

/** The exercise's practice-tool settings in a task's select (`exercises e`), as `ex_tempo_bpm`, … */
export const exerciseSettingsSql = settingsColumns('ex_');

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

/** SQL for the status of SPEC.md section 4 against `today` (the school's date). */
export function statusSql(today: string): SQL {
  return sql`case
    when s.completed_at is not null then 'completed'
    when s.expiration_date is not null and s.expiration_date < ${today}::date then 'expired'
    when s.due_date < ${today}::date then 'overdue'
    else 'open' end`;
}

/** A WHERE condition selecting one status (index-friendly, no CASE). */
export function statusCondition(status: SubmissionStatus, today: string): SQL {
  switch (status) {
    case 'completed':
      return sql`s.completed_at is not null`;
    case 'expired':
      return sql`(s.completed_at is null and s.expiration_date < ${today}::date)`;
    case 'overdue':
      return sql`(s.completed_at is null and s.due_date < ${today}::date and (s.expiration_date is null or s.expiration_date >= ${today}::date))`;
    case 'open':
      return sql`(s.completed_at is null and s.due_date >= ${today}::date and (s.expiration_date is null or s.expiration_date >= ${today}::date))`;
  }
}

/** The WHERE conditions of a filter (columns of `submissions s` only). */
function filterConditions(filter: SubmissionFilter, today: string): SQL {
  const where: SQL[] = [sql`s.school_id = ${filter.schoolId}`];
  if (filter.ids) where.push(filter.ids.length ? sql`s.id in (${sql.join(filter.ids.map((i) => sql`${i}`), sql`, `)})` : sql`false`);
  if (filter.studentId !== undefined && filter.teacherId !== undefined && !filter.ids) {
    // One student of a teacher: a task's teacher_id is its student's teacher (set on assignment,
    // never moved), so the ownership is checked once on the student and the tasks are read from
    // the student's covering index (a generic plan on teacher_id would read the table).
    where.push(sql`s.student_id = ${filter.studentId}`);
    where.push(
      sql`exists (select 1 from users o where o.id = ${filter.studentId} and o.school_id = ${filter.schoolId} and o.teacher_id = ${filter.teacherId})`,
    );
  } else {
    if (filter.studentId !== undefined) where.push(sql`s.student_id = ${filter.studentId}`);
    if (filter.teacherId !== undefined) where.push(sql`s.teacher_id = ${filter.teacherId}`);
  }
  if (filter.courseId !== undefined) where.push(sql`s.course_id = ${filter.courseId}`);
  if (filter.seriesId !== undefined) where.push(sql`s.series_id = ${filter.seriesId}`);
  if (filter.from !== undefined) where.push(sql`s.due_date >= ${filter.from}::date`);
  if (filter.to !== undefined) where.push(sql`s.due_date <= ${filter.to}::date`);
  if (filter.statuses?.length) {
    const any = [...new Set(filter.statuses)].map((st) => statusCondition(st, today));
    where.push(any.length === 1 ? any[0]! : sql`(${sql.join(any, sql` or `)})`);
  }
  return sql.join(where, sql` and `);
}

function orderBy(order: SubmissionFilter['order'], today: string): SQL {
  switch (order) {
    case 'due_desc':
      return sql`s.due_date desc, s.id desc`;
    case 'work': {
      const todo = sql`(s.completed_at is null and (s.expiration_date is null or s.expiration_date >= ${today}::date))`;
      return sql`case when ${todo} then 0 else 1 end, case when ${todo} then s.due_date end asc, s.due_date desc, s.id asc`;
    }
    default:
      return sql`s.due_date asc, s.id asc`;
  }
}

/**
 * Submissions in the shape of the contract, in one query (media aggregated in SQL), ordered by
 * due date unless `order` says otherwise. A page (`limit`, `offset`) is chosen on `submissions`
 * alone first, so only its rows are joined and shaped. `today` is the school's calendar date
 * (APP_TIMEZONE).
 */
export async function findSubmissions(db: DbOrTx, filter: SubmissionFilter, today: string): Promise<Submission[]> {
  const where = filterConditions(filter, today);
  const withMedia = filter.withMedia ?? true;
  const media = withMedia
    ? sql`coalesce((select json_agg(json_build_object('id', m.id, 'type', m.type, 'path', m.path, 'filename', m.filename,
          'size', m.size, 'mime_type', m.mime_type) order by m.id) from media_files m where m.exercise_id = e.id and m.school_id = e.school_id), '[]'::json)`
    : sql`'[]'::json`;
  const order = orderBy(filter.order, today);
  const paged = filter.limit !== undefined || (filter.offset ?? 0) > 0;
  // The page's ids come from the student's or teacher's covering index alone (migrations 0002,
  // 0003); only the rows of the page are then read from the table, joined and shaped.
  const source = paged
    ? sql`(select s.id from submissions s where ${where} order by ${order}
          ${filter.limit !== undefined ? sql`limit ${filter.limit}` : sql``} offset ${filter.offset ?? 0}) page
        join submissions s on s.id = page.id and s.school_id = ${filter.schoolId}`
    : sql`submissions s`;
  const result = await rows<Row>(
    db,
    sql`select s.id, s.student_id, u.name as student_name, s.exercise_id,
        e.title as ex_title, e.description as ex_description, e.category as ex_category,
        e.difficulty as ex_difficulty, e.estimated_minutes as ex_minutes, e.target as ex_target, ${media} as media, ${exerciseSettingsSql},
        s.exercise_title, s.course_id, s.series_id::text as series_id, s.due_date::text as due_date,
        s.expiration_date::text as expiration_date, s.completed_at, s.teacher_note, s.teacher_feedback,
        s.created_at, s.accuracy_score, s.time_spent_minutes, s.competency_level, ${statusSql(today)} as status,
        exists (select 1 from recordings r where r.submission_id = s.id and r.school_id = s.school_id and ${NEW_FEEDBACK_SQL}) as new_feedback
      from ${source}
      join users u on u.id = s.student_id and u.school_id = s.school_id
      left join exercises e on e.id = s.exercise_id and e.school_id = s.school_id
      ${paged ? sql`` : sql`where ${where}`}
      order by ${order}`,
  );
  return result.map(toSubmission);
}

export type SubmissionCountRow = { total: number; open: number; overdue: number; completed: number; expired: number };

/** How many of the filter's tasks are in each status, in one aggregate. */
export async function countSubmissions(db: DbOrTx, filter: SubmissionFilter, today: string): Promise<SubmissionCountRow> {
  const [r] = await rows<SubmissionCountRow>(
    db,
    sql`select count(*)::int as total,
        count(*) filter (where ${statusCondition('open', today)})::int as open,
        count(*) filter (where ${statusCondition('overdue', today)})::int as overdue,
        count(*) filter (where ${statusCondition('completed', today)})::int as completed,
        count(*) filter (where ${statusCondition('expired', today)})::int as expired
      from submissions s where ${filterConditions(filter, today)}`,
  );
  return r ?? { total: 0, open: 0, overdue: 0, completed: 0, expired: 0 };
}

export function toSubmission(r: Row): Submission {
  return {
    id: r.id,
    student: { id: r.student_id, name: r.student_name },
    exercise:
      r.exercise_id === null
        ? null
        : {
            id: r.exercise_id,
            title: r.ex_title ?? r.exercise_title,
            description: r.ex_description,
            category: r.ex_category,
            difficulty: r.ex_difficulty,
            target: r.ex_target ?? null,
            estimated_minutes: r.ex_minutes,
            media_files: (typeof r.media === 'string' ? JSON.parse(r.media) : r.media) ?? [],
            ...settingsOf(r, 'ex_'),
          },
    exercise_title: r.exercise_title,
    course_id: r.course_id,
    series_id: r.series_id,
    due_date: r.due_date,
    expiration_date: r.expiration_date,
    completed_at: iso(r.completed_at),
    teacher_note: r.teacher_note,
    teacher_feedback: r.teacher_feedback,
    created_at: iso(r.created_at) ?? '',
    accuracy_score: r.accuracy_score === null ? null : Number(r.accuracy_score),
    time_spent_minutes: Number(r.time_spent_minutes),
    competency_level: r.competency_level,
    status: r.status,
    new_feedback: r.new_feedback === true,
  };
}

/** Who may see a submission: a student only their own, a teacher only their students'; always inside their school. */
export type SubmissionOwner = ({ studentId: number } | { teacherId: number }) & { schoolId: number };

export type SubmissionState = {
  id: number;
  student_id: number;
  teacher_id: number;
  due_date: string;
  expiration_date: string | null;
  completed_at: Date | string | null;
};

/**
 * The fields that decide a submission's status, when `owner` may see it (else null).
 * `forUpdate` locks the row for the rest of the transaction (completion, starting practice).
 */
export async function findSubmissionState(
  db: DbOrTx,
  id: number,
  owner: SubmissionOwner,
  opts: { forUpdate?: boolean } = {},
): Promise<SubmissionState | null> {
  const who = 'studentId' in owner ? sql`s.student_id = ${owner.studentId}` : sql`s.teacher_id = ${owner.teacherId}`;
  const [r] = await rows<SubmissionState>(
    db,
    sql`select s.id, s.student_id, s.teacher_id, s.due_date::text as due_date, s.expiration_date::text as expiration_date, s.completed_at
      from submissions s where s.id = ${id} and s.school_id = ${owner.schoolId} and ${who} ${opts.forUpdate ? sql`for update` : sql``}`,
  );
  return r ?? null;
}

/** Marks a submission completed now (no-op when it already is). */
export async function markCompleted(db: DbOrTx, schoolId: number, id: number): Promise<void> {
  await db.execute(
    sql`update submissions set completed_at = now(), updated_at = now() where id = ${id} and school_id = ${schoolId} and completed_at is null`,
  );
}

/** Whether a submission was reviewed by the teacher (a review sets score and level together). */
export const REVIEWED_SQL = sql`(s.accuracy_score is not null or s.competency_level is not null)`;

export type ReopenState = SubmissionState & { reviewed: boolean; within_window: boolean };

/**
 * The student's own task with what decides whether its completion may be taken back: reviewed,
 * and completed less than `windowMinutes` ago (database clock). Locked for the transaction.
 */
export async function findReopenState(db: DbOrTx, id: number, owner: { schoolId: number; studentId: number }, windowMinutes: number): Promise<ReopenState | null> {
  const [r] = await rows<ReopenState>(
    db,
    sql`select s.id, s.student_id, s.teacher_id, s.due_date::text as due_date, s.expiration_date::text as expiration_date, s.completed_at,
        ${REVIEWED_SQL} as reviewed,
        (s.completed_at is not null and s.completed_at > now() - make_interval(mins => ${windowMinutes})) as within_window
      from submissions s where s.id = ${id} and s.school_id = ${owner.schoolId} and s.student_id = ${owner.studentId} for update`,
  );
  return r ?? null;
}

/** Takes a completion back: the task is open (or overdue) again. */
export async function markReopened(db: DbOrTx, schoolId: number, id: number): Promise<void> {
  await db.execute(sql`update submissions set completed_at = null, updated_at = now() where id = ${id} and school_id = ${schoolId}`);
}

type SeriesRow = {
  series_id: string;
  student_id: number;
  title: string;
  course_id: number | null;
  occurrences: number;
  completed: number;
  next_due: string | null;
  streak: number;
  today_id: number | null;
  today_minutes: number | string | null;
  today_done: boolean | null;
  current_id: number;
};

/**
 * One student's tasks as series (docs/decisions/done-means-practised.md), in one statement over the
 * student's covering index: per series the occurrences, how many are done, the next still to do,
 * today's occurrence and the streak. The streak is the number of done occurrences due after the
 * latest missed one (not done, due before today) up to today; a future occurrence done early does
 * not count. `current` picks today's occurrence, else the next one still to do, else the latest; the
 * scope `current` keeps only series with one of the first two. Order: what is still to do today or next first (by that date),
 * series done for today after them.
 */
export async function findSeries(
  db: DbOrTx,
  filter: { schoolId: number; studentId: number; courseId?: number; scope: 'current' | 'all'; limit?: number },
  today: string,
): Promise<Array<Omit<SeriesRow, 'today_minutes'> & { today_minutes: number | null }>> {
  const todo = sql`(o.completed_at is null and o.due_date >= ${today}::date and (o.expiration_date is null or o.expiration_date >= ${today}::date))`;
  const found = await rows<SeriesRow>(
    db,
    sql`with occ as (
        select s.id, s.series_id, s.student_id, s.exercise_title, s.course_id, s.due_date, s.expiration_date, s.completed_at, s.time_spent_minutes,
          max(s.due_date) filter (where s.completed_at is null and s.due_date < ${today}::date) over (partition by s.series_id) as last_miss
        from submissions s
        where s.school_id = ${filter.schoolId} and s.student_id = ${filter.studentId}
          ${filter.courseId !== undefined ? sql`and s.course_id = ${filter.courseId}` : sql``}
      ), agg as (
        select o.series_id, min(o.student_id) as student_id,
          (array_agg(o.exercise_title order by o.due_date desc, o.id desc))[1] as title,
          (array_agg(o.course_id order by o.due_date desc, o.id desc))[1] as course_id,
          count(*)::int as occurrences,
          (count(*) filter (where o.completed_at is not null))::int as completed,
          (min(o.due_date) filter (where ${todo}))::text as next_due,
          (count(*) filter (where o.completed_at is not null and o.due_date <= ${today}::date and (o.last_miss is null or o.due_date > o.last_miss)))::int as streak,
          min(o.id) filter (where o.due_date = ${today}::date) as today_id,
          min(o.time_spent_minutes) filter (where o.due_date = ${today}::date) as today_minutes,
          bool_or(o.completed_at is not null) filter (where o.due_date = ${today}::date) as today_done,
          (array_agg(o.id order by o.due_date, o.id) filter (where ${todo}))[1] as next_id,
          (array_agg(o.id order by o.due_date desc, o.id desc))[1] as latest_id
        from occ o group by o.series_id
      )
      select a.series_id::text as series_id, a.student_id, a.title, a.course_id, a.occurrences, a.completed, a.next_due, a.streak,
        a.today_id, a.today_minutes, a.today_done, coalesce(a.today_id, a.next_id, a.latest_id) as current_id
      from agg a
      ${filter.scope === 'current' ? sql`where coalesce(a.today_id, a.next_id) is not null` : sql``}
      order by coalesce(a.today_done, false), coalesce(a.next_due::date, '2100-12-31'::date), a.title, a.series_id
      ${filter.limit !== undefined ? sql`limit ${filter.limit}` : sql``}`,
  );
  return found.map((r) => ({ ...r, today_minutes: r.today_minutes === null ? null : Number(r.today_minutes) }));
}
