import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import { STATUS_COLORS } from '@contract/constants';
import type { CalendarEvent } from '@contract/calendar';
import { statusSql } from '../submissions/submissions.repo';

export type CalendarFilter = {
  /** A teacher sees the tasks of their students; a student only their own. */
  viewer: { role: 'teacher' | 'student'; id: number; schoolId: number };
  courseId?: number | undefined;
  /** Inclusive. */
  start: string;
  /** Exclusive. */
  end: string;
};

/** One event per task in the range, status and colours computed in one SQL query. */
export async function findCalendarEvents(db: DbOrTx, f: CalendarFilter, today: string): Promise<CalendarEvent[]> {
  // Inside the viewer's school (docs/decisions/schools-and-roles.md), as every statement.
  const where: SQL[] = [sql`s.school_id = ${f.viewer.schoolId}`, sql`s.due_date >= ${f.start}::date`, sql`s.due_date < ${f.end}::date`];
  // A task's teacher_id is the owning teacher of its student (set on assignment, never moved); the
  // users join is then by primary key only, which keeps the plan good even on fresh statistics.
  if (f.viewer.role === 'teacher') where.push(sql`s.teacher_id = ${f.viewer.id}`);
  else where.push(sql`s.student_id = ${f.viewer.id}`);
  if (f.courseId !== undefined) where.push(sql`s.course_id = ${f.courseId}`);
  const title = f.viewer.role === 'teacher' ? sql`s.exercise_title || ' – ' || u.name` : sql`s.exercise_title`;
  const status = statusSql(today);
  const color = sql`case when s.completed_at is not null then ${STATUS_COLORS.completed}::text
                         when s.expiration_date < ${today}::date then ${STATUS_COLORS.expired}::text
                         else ${STATUS_COLORS.open}::text end`;
  // Rows come out of the driver in the answer's shape (colours too): a month of a teacher with 200
  // students is ~3,800 events, and reshaping each object in JavaScript cost more than the query.
  return rows<CalendarEvent>(
    db,
    sql`select s.id, ${title} as title, s.due_date::text as start, (s.completed_at is not null) as completed,
               ${status} as status, ${color} as "backgroundColor", ${color} as "borderColor",
               s.id as submission_id, s.student_id, u.name as student_name
        from submissions s join users u on u.id = s.student_id and u.school_id = s.school_id
        where ${sql.join(where, sql` and `)}
        order by s.due_date, s.id`,
  );
}
