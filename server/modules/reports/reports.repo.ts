import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import { statusCondition } from '../submissions/submissions.repo';

export type CourseProgressRow = {
  student_id: number;
  name: string;
  email: string;
  minutes_week: number;
  minutes_month: number;
  tasks_completed: number;
  completion_rate: number;
  average_accuracy: number | null;
  /** Local date and time of the latest finished session's start, 'YYYY-MM-DD HH:MI', or null. */
  last_practice: string | null;
};

/** Every statement of this file stays inside the teacher's school (`school_id`, docs/decisions/schools-and-roles.md). */
export async function findCourse(db: DbOrTx, schoolId: number, teacherId: number, courseId: number): Promise<{ id: number; name: string } | undefined> {
  const [c] = await rows<{ id: number; name: string }>(
    db,
    sql`select id, name from courses where id = ${courseId} and school_id = ${schoolId} and teacher_id = ${teacherId}`,
  );
  return c;
}

/**
 * One row per student enrolled in the course (the teacher's own), by name, in one statement:
 * minutes of finished sessions started this week (Monday to Sunday) and this month, in the
 * school's time zone; tasks completed; completion rate (completed ÷ (completed + overdue +
 * expired) × 100, the metrics rule); average accuracy of reviewed tasks; the latest practice.
 */
export async function courseProgress(
  db: DbOrTx,
  schoolId: number,
  teacherId: number,
  courseId: number,
  today: string,
  tz: string,
): Promise<CourseProgressRow[]> {
  const at = (d: ReturnType<typeof sql>) => sql`((${d})::timestamp at time zone ${tz})`;
  const weekStart = at(sql`date_trunc('week', ${today}::date)::date`);
  const weekEnd = at(sql`(date_trunc('week', ${today}::date) + interval '7 days')::date`);
  const monthStart = at(sql`date_trunc('month', ${today}::date)::date`);
  const monthEnd = at(sql`(date_trunc('month', ${today}::date) + interval '1 month')::date`);
  const found = await rows<CourseProgressRow>(
    db,
    sql`select u.id as student_id, u.name, u.email,
          round(coalesce(p.week, 0)::numeric, 2)::float8 as minutes_week,
          round(coalesce(p.month, 0)::numeric, 2)::float8 as minutes_month,
          coalesce(t.completed, 0)::int as tasks_completed,
          case when coalesce(t.counted, 0) = 0 then 0 else round(t.completed * 100.0 / t.counted, 1)::float8 end as completion_rate,
          round(t.accuracy::numeric, 2)::float8 as average_accuracy,
          to_char(last.started_at at time zone ${tz}, 'YYYY-MM-DD HH24:MI') as last_practice
        from enrolments e
        join users u on u.id = e.student_id and u.school_id = e.school_id and u.role = 'student' and u.teacher_id = ${teacherId}
        left join lateral (
          select sum(ps.duration_minutes) filter (where ps.started_at >= ${weekStart} and ps.started_at < ${weekEnd}) as week,
                 sum(ps.duration_minutes) filter (where ps.started_at >= ${monthStart} and ps.started_at < ${monthEnd}) as month
          from practice_sessions ps
          where ps.student_id = u.id and ps.school_id = u.school_id and ps.ended_at is not null
            and ps.started_at >= least(${weekStart}, ${monthStart}) and ps.started_at < greatest(${weekEnd}, ${monthEnd})
        ) p on true
        left join lateral (
          select ps.started_at from practice_sessions ps
          where ps.student_id = u.id and ps.school_id = u.school_id and ps.ended_at is not null
          order by ps.started_at desc limit 1
        ) last on true
        left join lateral (
          select (count(*) filter (where ${statusCondition('completed', today)}))::int as completed,
                 (count(*) filter (where ${statusCondition('completed', today)} or ${statusCondition('overdue', today)} or ${statusCondition('expired', today)}))::int as counted,
                 avg(s.accuracy_score) as accuracy
          from submissions s where s.student_id = u.id and s.school_id = u.school_id
        ) t on true
        where e.course_id = ${courseId} and e.school_id = ${schoolId}
        order by lower(u.name), u.id`,
  );
  return found.map((r) => ({
    ...r,
    minutes_week: Number(r.minutes_week),
    minutes_month: Number(r.minutes_month),
    completion_rate: Number(r.completion_rate),
    average_accuracy: r.average_accuracy === null ? null : Number(r.average_accuracy),
  }));
}
