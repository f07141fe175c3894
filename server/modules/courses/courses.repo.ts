import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import { courses } from '../../db/schema/index';
import type { Course } from '@contract/courses';

type Row = { id: number; name: string; description: string | null; created_at: Date | string; students_count: number };

const toCourse = (r: Row): Course => ({
  id: r.id,
  name: r.name,
  description: r.description,
  created_at: new Date(r.created_at).toISOString(),
  students_count: Number(r.students_count),
});

/**
 * Courses with their student counts, by name, of one school (docs/decisions/schools-and-roles.md: every statement stays
 * inside the caller's school). Exactly one of teacherId / studentId selects whose.
 */
export async function listCourses(db: DbOrTx, schoolId: number, by: { teacherId: number } | { studentId: number }, ids?: number[]): Promise<Course[]> {
  const owner =
    'teacherId' in by
      ? sql`c.teacher_id = ${by.teacherId}`
      : sql`exists (select 1 from enrolments me where me.course_id = c.id and me.school_id = c.school_id and me.student_id = ${by.studentId})`;
  const only = ids ? sql` and c.id in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})` : sql``;
  const found = await rows<Row>(
    db,
    sql`select c.id, c.name, c.description, c.created_at,
          (select count(*) from enrolments e where e.course_id = c.id and e.school_id = c.school_id)::int as students_count
        from courses c
        where c.school_id = ${schoolId} and ${owner}${only}
        order by lower(c.name), c.id`,
  );
  return found.map(toCourse);
}

export async function findOwnCourse(db: DbOrTx, schoolId: number, teacherId: number, id: number): Promise<Course | undefined> {
  return (await listCourses(db, schoolId, { teacherId }, [id]))[0];
}

export async function insertCourse(db: DbOrTx, schoolId: number, teacherId: number, v: { name: string; description: string | null }): Promise<number> {
  const [c] = await db.insert(courses).values({ schoolId, teacherId, name: v.name, description: v.description }).returning({ id: courses.id });
  if (!c) throw new Error('insert course returned nothing');
  return c.id;
}

/** Returns false when the course is not the teacher's. */
export async function updateCourse(
  db: DbOrTx,
  schoolId: number,
  teacherId: number,
  id: number,
  v: { name: string; description: string | null },
): Promise<boolean> {
  const done = await db
    .update(courses)
    .set({ name: v.name, description: v.description, updatedAt: sql`now()` })
    .where(and(eq(courses.id, id), eq(courses.schoolId, schoolId), eq(courses.teacherId, teacherId)))
    .returning({ id: courses.id });
  return done.length === 1;
}

/** Enrolments go with the course (FK cascade); submissions keep their rows with course_id null (FK set null). */
export async function deleteCourse(db: DbOrTx, schoolId: number, teacherId: number, id: number): Promise<boolean> {
  const done = await db
    .delete(courses)
    .where(and(eq(courses.id, id), eq(courses.schoolId, schoolId), eq(courses.teacherId, teacherId)))
    .returning({ id: courses.id });
  return done.length === 1;
}
