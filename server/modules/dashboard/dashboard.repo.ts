import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import { RECENT_STUDENTS } from '@contract/constants';
import type { TeacherDashboard } from '@contract/dashboard';

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
