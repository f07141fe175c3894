import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import type { Submission } from '@contract/submissions';
import { exerciseSettingsSql, statusSql, toSubmission } from '../submissions/submissions.repo';

/** A Postgres array literal of plain values (ints, YYYY-MM-DD dates): one parameter, any length. */
const pgArray = (values: Array<number | string>) => `{${values.join(',')}}`;

/** Every statement of this file stays inside the teacher's school (`school_id`, docs/decisions/schools-and-roles.md). */
export async function findLiveExercise(db: DbOrTx, schoolId: number, teacherId: number, exerciseId: number) {
  const [row] = await rows<{ id: number; title: string }>(
    db,
    sql`select id, title from exercises where id = ${exerciseId} and school_id = ${schoolId} and teacher_id = ${teacherId} and deleted_at is null`,
  );
  return row ?? null;
}

export async function ownsCourse(db: DbOrTx, schoolId: number, teacherId: number, courseId: number): Promise<boolean> {
  const found = await rows<{ id: number }>(
    db,
    sql`select id from courses where id = ${courseId} and school_id = ${schoolId} and teacher_id = ${teacherId}`,
  );
  return found.length > 0;
}

/** The ids among `studentIds` that are students of this teacher. */
export async function ownStudentIds(db: DbOrTx, schoolId: number, teacherId: number, studentIds: number[]): Promise<Set<number>> {
  const found = await rows<{ id: number }>(
    db,
    sql`select id from users
        where id = any(${pgArray(studentIds)}::int[]) and school_id = ${schoolId} and role = 'student' and teacher_id = ${teacherId}`,
  );
  return new Set(found.map((r) => r.id));
}

export type NewTasks = {
  schoolId: number;
  teacherId: number;
  exerciseId: number;
  exerciseTitle: string;
  courseId: number | null;
  seriesId: string;
  teacherNote: string | null;
  expirationDays: number | null;
  studentIds: number[];
  dates: string[];
};

/**
 * One row per student per date in a single INSERT … SELECT over two array parameters (so 6,000
 * rows are one statement with a handful of parameters), returning the new rows in the shape of
 * findSubmissions (no media: an assignment answer lists many rows), ordered by due date.
 */
export async function insertTasks(db: DbOrTx, t: NewTasks, today: string): Promise<Submission[]> {
  const expiry = t.expirationDays === null ? sql`null::date` : sql`(d.due + ${t.expirationDays}::int)`;
  const inserted = await rows<Parameters<typeof toSubmission>[0]>(
    db,
    sql`with s as (
          insert into submissions (school_id, student_id, teacher_id, exercise_id, exercise_title, course_id, series_id,
                                   due_date, expiration_date, teacher_note)
          select ${t.schoolId}::int, st.id, ${t.teacherId}::int, ${t.exerciseId}::int, ${t.exerciseTitle}::text, ${t.courseId}::int, ${t.seriesId}::uuid,
                 d.due, ${expiry}, ${t.teacherNote}::text
          from unnest(${pgArray(t.studentIds)}::int[]) as st(id)
          cross join unnest(${pgArray(t.dates)}::date[]) as d(due)
          returning *)
        select s.id, s.student_id, u.name as student_name, s.exercise_id,
          e.title as ex_title, e.description as ex_description, e.category as ex_category,
          e.difficulty as ex_difficulty, e.estimated_minutes as ex_minutes, e.target as ex_target, '[]'::json as media, ${exerciseSettingsSql},
          s.exercise_title, s.course_id, s.series_id::text as series_id, s.due_date::text as due_date,
          s.expiration_date::text as expiration_date, s.completed_at, s.teacher_note, s.teacher_feedback,
          s.created_at, s.accuracy_score, s.time_spent_minutes, s.competency_level, ${statusSql(today)} as status
        from s
        join users u on u.id = s.student_id and u.school_id = ${t.schoolId}
        left join exercises e on e.id = s.exercise_id and e.school_id = ${t.schoolId}
        order by s.due_date asc, s.id asc`,
  );
  return inserted.map(toSubmission);
}

/** The task with its series, if it belongs to a student of this teacher. */
export async function findOwnTask(db: DbOrTx, schoolId: number, teacherId: number, id: number) {
  const [row] = await rows<{ id: number; series_id: string; due_date: string }>(
    db,
    sql`select s.id, s.series_id::text as series_id, s.due_date::text as due_date
        from submissions s join users u on u.id = s.student_id and u.school_id = s.school_id
        where s.id = ${id} and s.school_id = ${schoolId} and u.teacher_id = ${teacherId}`,
  );
  return row ?? null;
}

export async function deleteTask(db: DbOrTx, schoolId: number, id: number): Promise<void> {
  await db.execute(sql`delete from submissions where id = ${id} and school_id = ${schoolId}`);
}

/** The task itself, and the not yet completed tasks of its series from its due date on. */
/** Answers the ids of the deleted tasks (their recordings' folders go after the commit). */
export async function deleteSeriesFrom(
  db: DbOrTx,
  schoolId: number,
  teacherId: number,
  task: { id: number; series_id: string; due_date: string },
): Promise<number[]> {
  const deleted = await rows<{ id: number }>(
    db,
    sql`delete from submissions s using users u
          where u.id = s.student_id and u.school_id = s.school_id and s.school_id = ${schoolId} and u.teacher_id = ${teacherId}
            and (s.id = ${task.id}
                 or (s.series_id = ${task.series_id}::uuid and s.due_date >= ${task.due_date}::date and s.completed_at is null))
          returning s.id`,
  );
  return deleted.map((r) => Number(r.id));
}
