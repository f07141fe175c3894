import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import { enrolments, tokens, users } from '../../db/schema/index';
import type { Student, StudentProgress } from '@contract/students';
import { statusCondition } from '../submissions/submissions.repo';

type Row = {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  notes: string | null;
  created_at: Date | string;
  courses: Array<{ id: number; name: string }> | string;
};

const toStudent = (r: Row): Student => ({
  id: r.id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  notes: r.notes,
  created_at: new Date(r.created_at).toISOString(),
  courses: typeof r.courses === 'string' ? (JSON.parse(r.courses) as Student['courses']) : r.courses,
});

const idList = (ids: number[]) => sql.join(ids.map((i) => sql`${i}`), sql`, `);

/**
 * A teacher's students with their courses, ordered by name; optionally only one course's or some
 * ids. The courses come from one grouped join over the teacher's courses (a student is only ever
 * enrolled in their own teacher's courses), not a subquery per student: 2.7 → 1.1 ms for 200.
 * Every statement of this file stays inside the caller's school (`school_id`, docs/decisions/schools-and-roles.md).
 */
export async function listStudents(db: DbOrTx, schoolId: number, teacherId: number, f: { courseId?: number; ids?: number[] } = {}): Promise<Student[]> {
  const byCourse = f.courseId
    ? sql` and exists (select 1 from enrolments fe where fe.student_id = u.id and fe.school_id = u.school_id and fe.course_id = ${f.courseId})`
    : sql``;
  const byIds = f.ids ? (f.ids.length ? sql` and u.id in (${idList(f.ids)})` : sql` and false`) : sql``;
  const found = await rows<Row>(
    db,
    sql`select u.id, u.name, u.email, u.phone, u.notes, u.created_at, coalesce(cs.courses, '[]'::json) as courses
        from users u
        left join (select e.student_id, json_agg(json_build_object('id', c.id, 'name', c.name) order by lower(c.name), c.id) as courses
                   from courses c join enrolments e on e.course_id = c.id and e.school_id = c.school_id
                   where c.school_id = ${schoolId} and c.teacher_id = ${teacherId}${f.ids?.length ? sql` and e.student_id in (${idList(f.ids)})` : sql``}
                   group by e.student_id) cs on cs.student_id = u.id
        where u.school_id = ${schoolId} and u.role = 'student' and u.teacher_id = ${teacherId}${byCourse}${byIds}
        order by lower(u.name), u.id`,
  );
  return found.map(toStudent);
}

export async function findOwnStudent(db: DbOrTx, schoolId: number, teacherId: number, id: number): Promise<Student | undefined> {
  return (await listStudents(db, schoolId, teacherId, { ids: [id] }))[0];
}

/** Whether this id is a student of this teacher (locks the row inside a transaction). */
export async function isOwnStudent(db: DbOrTx, schoolId: number, teacherId: number, id: number): Promise<boolean> {
  const found = await rows<{ id: number }>(
    db,
    sql`select id from users where id = ${id} and school_id = ${schoolId} and role = 'student' and teacher_id = ${teacherId} for update`,
  );
  return found.length === 1;
}

/**
 * Whether any user other than `exceptId` has this e-mail, regardless of case. Across all schools on
 * purpose: an e-mail address names one account everywhere (sign-in finds the school by it).
 */
export async function emailTaken(db: DbOrTx, email: string, exceptId?: number): Promise<boolean> {
  const other = exceptId === undefined ? sql`` : sql` and id <> ${exceptId}`;
  const found = await rows<{ id: number }>(db, sql`select id from users where lower(email) = lower(${email})${other} limit 1`);
  return found.length > 0;
}

/** Which of these ids are courses of this teacher. */
export async function ownCourseIds(db: DbOrTx, schoolId: number, teacherId: number, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const found = await rows<{ id: number }>(
    db,
    sql`select id from courses where school_id = ${schoolId} and teacher_id = ${teacherId} and id in (${idList(ids)})`,
  );
  return new Set(found.map((r) => r.id));
}

export type StudentValues = { name: string; email: string; phone: string | null; notes: string | null };

export async function insertStudent(db: DbOrTx, schoolId: number, teacherId: number, v: StudentValues & { passwordHash: string }): Promise<number> {
  const [u] = await db
    .insert(users)
    .values({ schoolId, role: 'student', teacherId, name: v.name, email: v.email, phone: v.phone, notes: v.notes, passwordHash: v.passwordHash })
    .returning({ id: users.id });
  if (!u) throw new Error('insert student returned nothing');
  return u.id;
}

export async function updateStudent(db: DbOrTx, schoolId: number, teacherId: number, id: number, v: StudentValues & { passwordHash?: string }): Promise<void> {
  await db
    .update(users)
    .set({
      name: v.name,
      email: v.email,
      phone: v.phone,
      notes: v.notes,
      ...(v.passwordHash ? { passwordHash: v.passwordHash } : {}),
      updatedAt: sql`now()`,
    })
    .where(and(eq(users.id, id), eq(users.schoolId, schoolId), eq(users.teacherId, teacherId), eq(users.role, 'student')));
}

/** Signs the user out everywhere. */
export async function revokeTokens(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(tokens).where(eq(tokens.userId, userId));
}

/** Replaces a student's enrolments with exactly these courses (already checked to be the teacher's). */
export async function setEnrolments(db: DbOrTx, schoolId: number, studentId: number, courseIds: number[]): Promise<void> {
  const unique = [...new Set(courseIds)];
  if (unique.length === 0) {
    await db.delete(enrolments).where(and(eq(enrolments.studentId, studentId), eq(enrolments.schoolId, schoolId)));
    return;
  }
  await db.execute(sql`delete from enrolments where student_id = ${studentId} and school_id = ${schoolId} and course_id not in (${idList(unique)})`);
  await db
    .insert(enrolments)
    .values(unique.map((courseId) => ({ schoolId, courseId, studentId })))
    .onConflictDoNothing();
}

/**
 * Removes the student and everything of theirs: practice sessions, submissions, enrolments,
 * tokens and the account. Run inside a transaction. Answers the ids of the deleted submissions.
 */
/** The guardian accounts following a student (docs/decisions/schools-and-roles.md). */
export async function guardiansOf(db: DbOrTx, schoolId: number, studentId: number): Promise<number[]> {
  const r = await rows<{ guardian_id: number }>(db, sql`select guardian_id from guardian_links where student_id = ${studentId} and school_id = ${schoolId}`);
  return r.map((g) => Number(g.guardian_id));
}

/**
 * Deletes those of the given guardian accounts that follow nobody any more (after their last child
 * was deleted or erased): a parent's account exists only for a child. Answers the deleted ids.
 */
export async function deleteOrphanedGuardians(db: DbOrTx, schoolId: number, guardianIds: number[]): Promise<number[]> {
  if (guardianIds.length === 0) return [];
  const orphaned = await rows<{ id: number }>(
    db,
    sql`delete from users g
        where g.school_id = ${schoolId} and g.role = 'guardian' and g.id in (${idList(guardianIds)})
          and not exists (select 1 from guardian_links gl where gl.guardian_id = g.id and gl.school_id = ${schoolId})
        returning g.id`,
  );
  return orphaned.map((r) => Number(r.id));
}

export async function deleteStudent(db: DbOrTx, schoolId: number, teacherId: number, id: number): Promise<number[]> {
  await db.execute(sql`delete from practice_sessions where student_id = ${id} and school_id = ${schoolId}`);
  // recordings and their comments go with the submissions (foreign keys); the ids name their folders
  const tasks = await rows<{ id: number }>(db, sql`delete from submissions where student_id = ${id} and school_id = ${schoolId} returning id`);
  await db.execute(sql`delete from enrolments where student_id = ${id} and school_id = ${schoolId}`);
  await db.execute(sql`delete from tokens where user_id = ${id}`);
  await db.execute(sql`delete from users where id = ${id} and school_id = ${schoolId} and role = 'student' and teacher_id = ${teacherId}`);
  return tasks.map((t) => Number(t.id));
}

type ProgressRow = {
  student_id: number;
  last_practice_at: Date | string | null;
  week_minutes: number | string;
  open_count: number;
  overdue_count: number;
};

/**
 * The practice of every student of a teacher (optionally of one course), in one statement for the
 * whole list: per student one lateral probe of practice_sessions(student_id, started_at) for the
 * latest finished session (backwards, stops at the first finished one), one range over the same
 * index for the last 7 local days (`today` - 6 … `today` in `tz`, by start, like the metrics), and
 * the open/overdue counts from the covering submissions(student_id, due_date) index (it carries
 * completed_at and expiration_date, migration 0003), so no per-student query and no table scan.
 * Ordered like listStudents (lower(name), id).
 */
export async function studentsProgress(
  db: DbOrTx,
  schoolId: number,
  teacherId: number,
  today: string,
  tz: string,
  f: { courseId?: number } = {},
): Promise<StudentProgress[]> {
  const byCourse = f.courseId
    ? sql` and exists (select 1 from enrolments fe where fe.student_id = u.id and fe.school_id = u.school_id and fe.course_id = ${f.courseId})`
    : sql``;
  const weekStart = sql`((${today}::date - 6)::timestamp at time zone ${tz})`;
  const tomorrow = sql`((${today}::date + 1)::timestamp at time zone ${tz})`;
  const found = await rows<ProgressRow>(
    db,
    sql`select u.id as student_id, last.started_at as last_practice_at,
          round(coalesce(week.minutes, 0)::numeric, 2)::float8 as week_minutes,
          coalesce(tasks.open_count, 0)::int as open_count, coalesce(tasks.overdue_count, 0)::int as overdue_count
        from users u
        left join lateral (
          select p.started_at from practice_sessions p
          where p.student_id = u.id and p.school_id = u.school_id and p.ended_at is not null
          order by p.started_at desc limit 1
        ) last on true
        left join lateral (
          select sum(p.duration_minutes) as minutes from practice_sessions p
          where p.student_id = u.id and p.school_id = u.school_id and p.ended_at is not null and p.started_at >= ${weekStart} and p.started_at < ${tomorrow}
        ) week on true
        left join lateral (
          select (count(*) filter (where ${statusCondition('open', today)}))::int as open_count,
                 (count(*) filter (where ${statusCondition('overdue', today)}))::int as overdue_count
          from submissions s where s.student_id = u.id and s.school_id = u.school_id and s.completed_at is null
        ) tasks on true
        where u.school_id = ${schoolId} and u.role = 'student' and u.teacher_id = ${teacherId}${byCourse}
        order by lower(u.name), u.id`,
  );
  return found.map((r) => ({
    student_id: r.student_id,
    last_practice_at: r.last_practice_at === null ? null : new Date(r.last_practice_at).toISOString(),
    week_minutes: Number(r.week_minutes),
    open_count: r.open_count,
    overdue_count: r.overdue_count,
  }));
}
