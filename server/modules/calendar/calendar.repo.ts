import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import { STATUS_COLORS } from '../../../contract/constants';
import type { CalendarEvent } from '../../../contract/calendar';
import { statusSql } from '../submissions/submissions.repo';

export type CalendarFilter = {
  /** A teacher sees the tasks of their students; a student only their own. */
  viewer: { role: 'teacher' | 'student'; id: number };
  courseId?: number | undefined;
  /** Inclusive. */
  start: string;
  /** Exclusive. */
  end: string;
};

/** One event per task in the range, status and colours computed in one SQL query. */
export async function findCalendarEvents(db: DbOrTx, f: CalendarFilter, today: string): Promise<CalendarEvent[]> {
  const where: SQL[] = [sql`s.due_date >= ${f.start}::date`, sql`s.due_date < ${f.end}::date`];
  // A task's teacher_id is the owning teacher of its student (set on assignment, never moved); the
  // users join is then by primary key only, which keeps the plan good even on fresh statistics.
  if (f.viewer.role === 'teacher') where.push(sql`s.teacher_id = ${f.viewer.id}`);
  else where.push(sql`s.student_id = ${f.viewer.id}`);
  if (f.courseId !== undefined) where.push(sql`s.course_id = ${f.courseId}`);
  const title = f.viewer.role === 'teacher' ? sql`s.exercise_title || ' – ' || u.name` : sql`s.exercise_title`;
  const result = await rows<Omit<CalendarEvent, 'backgroundColor' | 'borderColor'> & { color: string }>(
    db,
    sql`select x.*, case x.status when 'completed' then ${STATUS_COLORS.completed}::text
                                  when 'expired' then ${STATUS_COLORS.expired}::text
                                  else ${STATUS_COLORS.open}::text end as color
        from (select s.id, ${title} as title, s.due_date::text as start, (s.completed_at is not null) as completed,
                     ${statusSql(today)} as status, s.id as submission_id, s.student_id, u.name as student_name,
                     s.exercise_title, s.expiration_date::text as expiration_date
              from submissions s join users u on u.id = s.student_id
              where ${sql.join(where, sql` and `)}
              order by s.due_date, s.id) x`,
  );
  return result.map(({ color, ...e }) => ({ ...e, backgroundColor: color, borderColor: color }));
}
