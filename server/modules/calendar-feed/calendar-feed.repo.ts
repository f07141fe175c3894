import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import type { SubmissionStatus } from '@contract/constants';
import { statusSql } from '../submissions/submissions.repo';

export type FeedRow = { user_id: number; nonce: string; secret_hash: string; created_at: string | Date };
export type FeedOwner = { id: number; school_id: number; name: string; role: 'teacher' | 'student' };

/** A user's address row; every statement here names the user's school (docs/decisions/schools-and-roles.md) except the lookup by secret. */
export async function findFeed(db: DbOrTx, schoolId: number, userId: number): Promise<FeedRow | undefined> {
  const [r] = await rows<FeedRow>(
    db,
    sql`select user_id, nonce, secret_hash, created_at from calendar_feeds where user_id = ${userId} and school_id = ${schoolId}`,
  );
  return r;
}

/** Makes the user's address when there is none yet (two callers at once: the first one wins, both read it). */
export async function createFeedIfMissing(db: DbOrTx, schoolId: number, userId: number, nonce: string, secretHash: string): Promise<void> {
  await db.execute(
    sql`insert into calendar_feeds (school_id, user_id, nonce, secret_hash) values (${schoolId}, ${userId}, ${nonce}, ${secretHash})
        on conflict (user_id) do nothing`,
  );
}

/** A new nonce (renewal): the old address stops at once. */
export async function replaceFeed(db: DbOrTx, schoolId: number, userId: number, nonce: string, secretHash: string): Promise<FeedRow> {
  const [r] = await rows<FeedRow>(
    db,
    sql`insert into calendar_feeds (school_id, user_id, nonce, secret_hash) values (${schoolId}, ${userId}, ${nonce}, ${secretHash})
        on conflict (user_id) do update set nonce = excluded.nonce, secret_hash = excluded.secret_hash, created_at = now()
        returning user_id, nonce, secret_hash, created_at`,
  );
  return r!;
}

/** After APP_SECRET changed, the address derived from the nonce is another: its hash is stored again. */
export async function updateFeedHash(db: DbOrTx, schoolId: number, userId: number, secretHash: string): Promise<void> {
  await db.execute(sql`update calendar_feeds set secret_hash = ${secretHash} where user_id = ${userId} and school_id = ${schoolId}`);
}

/**
 * The owner of an address, found by the SHA-256 of its secret across all schools (the address is
 * all a calendar app sends, like a token): it answers the owner's school, by which the tasks are read.
 */
export async function findFeedOwner(db: DbOrTx, secretHash: string): Promise<FeedOwner | undefined> {
  const [r] = await rows<FeedOwner>(
    db,
    sql`select u.id, u.school_id, u.name, u.role from calendar_feeds f join users u on u.id = f.user_id and u.school_id = f.school_id
        where f.secret_hash = ${secretHash}`,
  );
  return r;
}

export type StudentFeedTask = {
  id: number;
  title: string;
  due_date: string;
  expiration_date: string | null;
  teacher_note: string | null;
  status: SubmissionStatus;
};

/** A student's tasks with due dates in [from, to], by due date. */
export async function studentFeedTasks(
  db: DbOrTx,
  schoolId: number,
  studentId: number,
  from: string,
  to: string,
  today: string,
): Promise<StudentFeedTask[]> {
  return rows<StudentFeedTask>(
    db,
    sql`select s.id, s.exercise_title as title, s.due_date::text as due_date, s.expiration_date::text as expiration_date,
               s.teacher_note, ${statusSql(today)} as status
        from submissions s
        where s.student_id = ${studentId} and s.school_id = ${schoolId} and s.due_date >= ${from}::date and s.due_date <= ${to}::date
        order by s.due_date, s.id`,
  );
}

export type TeacherFeedGroup = {
  exercise_key: string;
  title: string;
  due_date: string;
  students: Array<{ name: string; status: SubmissionStatus; note: string | null }>;
};

/**
 * A teacher's tasks with due dates in [from, to], one group per exercise and due date (the way a
 * teacher assigns: one exercise to several students for one day), students by name.
 */
export async function teacherFeedGroups(
  db: DbOrTx,
  schoolId: number,
  teacherId: number,
  from: string,
  to: string,
  today: string,
): Promise<TeacherFeedGroup[]> {
  const found = await rows<Omit<TeacherFeedGroup, 'students'> & { students: TeacherFeedGroup['students'] | string }>(
    db,
    sql`select coalesce(s.exercise_id::text, 'title-' || md5(s.exercise_title)) as exercise_key, s.exercise_title as title,
               s.due_date::text as due_date,
               json_agg(json_build_object('name', u.name, 'status', ${statusSql(today)}, 'note', s.teacher_note) order by lower(u.name), u.id) as students
        from submissions s join users u on u.id = s.student_id and u.school_id = s.school_id
        where s.school_id = ${schoolId} and s.teacher_id = ${teacherId} and s.due_date >= ${from}::date and s.due_date <= ${to}::date
        group by 1, 2, 3
        order by 3, 2, 1`,
  );
  return found.map((g) => ({ ...g, students: typeof g.students === 'string' ? (JSON.parse(g.students) as TeacherFeedGroup['students']) : g.students }));
}
