import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import { RECENT_STUDENTS } from '@contract/constants';
import { ATTENTION, type OverdueStudent, type QuietStudent, type TeacherAttention, type TeacherDashboard, type WaitingTake } from '@contract/dashboard';

type Row = {
  students: number;
  courses: number;
  exercises: number;
  submissions: number;
  completed: number;
  expired: number;
  overdue: number;
  recent: Array<{ id: number; name: string; email: string; created_at: string }> | string | null;
};

/**
 * The teacher's dashboard in one statement of aggregates. With a course: students enrolled in
 * it, that course, exercises linked to it and tasks of it (all zero for a course that is not the
 * teacher's, so nothing about other teachers leaks). Every table is read inside the teacher's school.
 */
export async function teacherDashboard(
  db: DbOrTx,
  schoolId: number,
  teacherId: number,
  courseId: number | undefined,
  today: string,
): Promise<TeacherDashboard> {
  const c = courseId ?? null;
  const [r] = await rows<Row>(
    db,
    sql`with course as (select id from courses where school_id = ${schoolId} and teacher_id = ${teacherId} and id = ${c}::int),
        studs as (
          select u.id, u.name, u.email, u.created_at from users u
          where u.school_id = ${schoolId} and u.teacher_id = ${teacherId} and u.role = 'student'
            and (${c}::int is null or exists (select 1 from enrolments en join course on course.id = en.course_id
                                              where en.student_id = u.id and en.school_id = u.school_id))),
        subs as (
          select count(*)::int as submissions,
                 count(*) filter (where s.completed_at is not null)::int as completed,
                 count(*) filter (where s.completed_at is null and s.expiration_date < ${today}::date)::int as expired,
                 count(*) filter (where s.completed_at is null and s.due_date < ${today}::date
                                    and (s.expiration_date is null or s.expiration_date >= ${today}::date))::int as overdue
          from submissions s
          where s.school_id = ${schoolId} and s.teacher_id = ${teacherId}
            and (${c}::int is null or s.course_id = (select id from course)))
      select
        (select count(*)::int from studs) as students,
        (case when ${c}::int is null then (select count(*)::int from courses where school_id = ${schoolId} and teacher_id = ${teacherId})
              else (select count(*)::int from course) end) as courses,
        (select count(*)::int from exercises e where e.school_id = ${schoolId} and e.teacher_id = ${teacherId} and e.deleted_at is null
           and (${c}::int is null or exists (select 1 from exercise_courses ec join course on course.id = ec.course_id
                                             where ec.exercise_id = e.id and ec.school_id = e.school_id))) as exercises,
        subs.submissions, subs.completed, subs.expired, subs.overdue,
        (select coalesce(json_agg(json_build_object('id', r.id, 'name', r.name, 'email', r.email,
                  'created_at', to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) order by r.created_at desc, r.id desc), '[]'::json)
           from (select * from studs order by created_at desc, id desc limit ${RECENT_STUDENTS}) r) as recent
      from subs`,
  );
  if (!r) throw new Error('dashboard query returned no row');
  const recent = typeof r.recent === 'string' ? JSON.parse(r.recent) : (r.recent ?? []);
  const submissions = Number(r.submissions);
  const completed = Number(r.completed);
  const expired = Number(r.expired);
  const overdue = Number(r.overdue);
  return {
    students: Number(r.students),
    courses: Number(r.courses),
    exercises: Number(r.exercises),
    submissions,
    submission_status: { completed, expired, overdue, open: submissions - completed - expired - overdue },
    recent_students: recent,
  };
}

type AttentionRow = {
  quiet_total: number;
  quiet: Array<QuietStudent> | string | null;
  overdue_total: number;
  overdue: Array<OverdueStudent> | string | null;
  waiting_total: number;
  waiting: Array<WaitingTake> | string | null;
  has_course: boolean;
  has_student: boolean;
  has_exercise: boolean;
  has_task: boolean;
};

const json = <T>(v: T[] | string | null): T[] => (typeof v === 'string' ? (JSON.parse(v) as T[]) : (v ?? []));

/**
 * What needs the teacher today, in one statement (docs/decisions/teacher-day-actions.md): quiet
 * students (no practice session started on the last `quietDays` school days), students whose
 * overdue tasks pile up, and the longest-waiting takes. Dates are the school's (`tz`); a course
 * narrows students (enrolled) and tasks and takes (of that course), a course that is not the
 * teacher's gives empty lists. The first steps are over all of the teacher's data. Indexes:
 * users_teacher_created_idx, practice_sessions_student_started_idx (one backward probe per
 * student), submissions_teacher_due_idx (its INCLUDE carries student_id: migration 0012) and the
 * partial recordings_inbox_idx.
 */
export async function teacherAttention(
  db: DbOrTx,
  schoolId: number,
  teacherId: number,
  courseId: number | undefined,
  today: string,
  tz: string,
): Promise<TeacherAttention> {
  const c = courseId ?? null;
  const { quietDays, overdueMin, rows: limit } = ATTENTION;
  const iso = (col: SQL) => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const [r] = await rows<AttentionRow>(
    db,
    sql`with course as (select id from courses where school_id = ${schoolId} and teacher_id = ${teacherId} and id = ${c}::int),
        studs as (
          select u.id, u.name, u.created_at from users u
          where u.school_id = ${schoolId} and u.teacher_id = ${teacherId} and u.role = 'student' and u.deactivated_at is null
            and (${c}::int is null or exists (select 1 from enrolments en join course on course.id = en.course_id
                                              where en.student_id = u.id and en.school_id = u.school_id))),
        quiet as (
          select st.id, st.name, lp.last_at,
                 ${today}::date - (coalesce(lp.last_at, st.created_at) at time zone ${tz})::date as days
          from studs st
          left join lateral (select max(p.started_at) as last_at from practice_sessions p
                             where p.student_id = st.id and p.school_id = ${schoolId}) lp on true
          where coalesce(lp.last_at, st.created_at) < ((${today}::date - ${quietDays - 1}::int)::timestamp at time zone ${tz})),
        late as (
          select s.student_id as id, count(*)::int as overdue, min(s.due_date) as oldest_due
          from submissions s
          where s.school_id = ${schoolId} and s.teacher_id = ${teacherId} and s.due_date < ${today}::date and s.completed_at is null
            and (s.expiration_date is null or s.expiration_date >= ${today}::date)
            and (${c}::int is null or s.course_id = (select id from course))
          group by s.student_id
          having count(*) >= ${overdueMin}::int),
        piling as (select late.*, st.name from late join studs st on st.id = late.id),
        takes as (
          select r.id, r.submission_id, r.student_id, r.created_at, s.exercise_title
          from recordings r
          join submissions s on s.id = r.submission_id and s.school_id = r.school_id
          where r.school_id = ${schoolId} and r.teacher_id = ${teacherId} and r.answered_at is null
            and (${c}::int is null or s.course_id = (select id from course)))
      select
        (select count(*)::int from quiet) as quiet_total,
        (select coalesce(json_agg(json_build_object('id', q.id, 'name', q.name,
                  'last_practice', to_char((q.last_at at time zone ${tz})::date, 'YYYY-MM-DD'), 'days', q.days)
                  order by q.days desc, q.name, q.id), '[]'::json)
           from (select * from quiet order by days desc, name, id limit ${limit}) q) as quiet,
        (select count(*)::int from piling) as overdue_total,
        (select coalesce(json_agg(json_build_object('id', p.id, 'name', p.name, 'overdue', p.overdue,
                  'oldest_due', to_char(p.oldest_due, 'YYYY-MM-DD')) order by p.overdue desc, p.oldest_due, p.name, p.id), '[]'::json)
           from (select * from piling order by overdue desc, oldest_due, name, id limit ${limit}) p) as overdue,
        (select count(*)::int from takes) as waiting_total,
        (select coalesce(json_agg(json_build_object('id', w.id, 'submission_id', w.submission_id,
                  'student', json_build_object('id', w.student_id, 'name', u.name), 'exercise_title', w.exercise_title,
                  'created_at', ${iso(sql`w.created_at`)}, 'days', ${today}::date - (w.created_at at time zone ${tz})::date)
                  order by w.created_at, w.id), '[]'::json)
           from (select * from takes order by created_at, id limit ${limit}) w
           join users u on u.id = w.student_id and u.school_id = ${schoolId}) as waiting,
        exists (select 1 from courses co where co.school_id = ${schoolId} and co.teacher_id = ${teacherId}) as has_course,
        exists (select 1 from users us where us.school_id = ${schoolId} and us.teacher_id = ${teacherId} and us.role = 'student') as has_student,
        exists (select 1 from exercises e where e.school_id = ${schoolId} and e.teacher_id = ${teacherId} and e.deleted_at is null) as has_exercise,
        exists (select 1 from submissions su where su.school_id = ${schoolId} and su.teacher_id = ${teacherId}) as has_task`,
  );
  if (!r) throw new Error('attention query returned no row');
  return {
    quiet_days: quietDays,
    overdue_min: overdueMin,
    quiet: { total: Number(r.quiet_total), students: json(r.quiet) },
    overdue: { total: Number(r.overdue_total), students: json(r.overdue) },
    waiting: { total: Number(r.waiting_total), takes: json(r.waiting) },
    first_steps: { course: Boolean(r.has_course), student: Boolean(r.has_student), exercise: Boolean(r.has_exercise), assignment: Boolean(r.has_task) },
  };
}
