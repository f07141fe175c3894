import { sql, type SQL } from 'drizzle-orm';
import { rows, type DbOrTx } from '../../db/client';
import type { AuthUser } from '../../lib/auth';
import type { Guardian, GuardianChild } from '@contract/guardians';
import { streakCtes } from '../metrics/metrics.repo';
import { NEW_FEEDBACK_SQL } from '../recordings/recordings.repo';
import { statusCondition } from '../submissions/submissions.repo';

/**
 * Guardians (parents) and their links to students (docs/decisions/schools-and-roles.md). Every statement names the caller's
 * school (`school_id`, the shard key) besides the owner check. (Whether an e-mail is taken by any
 * account is asked across schools, as e-mails are unique: school.repo's accountWithEmail.)
 */

const iso = (v: Date | string): string => new Date(v).toISOString();

export type StaffStudent = { id: number; name: string };

/**
 * The student if the staff member may manage their guardians: the student's own teacher, or the
 * administrator of the student's school (anyone else: undefined, answered like a missing id).
 * `forUpdate` locks the student's row, so adding and removing guardians of one student queue up.
 */
export async function findStaffStudent(db: DbOrTx, actor: AuthUser, studentId: number, opts: { forUpdate?: boolean } = {}): Promise<StaffStudent | undefined> {
  const mayManage = actor.role === 'admin' ? sql`true` : actor.role === 'teacher' ? sql`u.teacher_id = ${actor.id}` : sql`false`;
  const [r] = await rows<StaffStudent>(
    db,
    sql`select u.id, u.name from users u
        where u.id = ${studentId} and u.role = 'student' and u.school_id = ${actor.schoolId} and ${mayManage}
        ${opts.forUpdate ? sql`for update` : sql``}`,
  );
  return r;
}

type GuardianRow = { id: number; name: string; email: string; created_at: Date | string };
const toGuardian = (r: GuardianRow): Guardian => ({ id: r.id, name: r.name, email: r.email, created_at: iso(r.created_at) });

/** The guardians following a student, by name; `created_at` is when the guardian got access to this student. */
export async function listGuardiansOf(db: DbOrTx, schoolId: number, studentId: number): Promise<Guardian[]> {
  const found = await rows<GuardianRow>(
    db,
    sql`select g.id, g.name, g.email, l.created_at
        from guardian_links l
        join users g on g.id = l.guardian_id and g.school_id = ${schoolId} and g.role = 'guardian'
        where l.student_id = ${studentId} and l.school_id = ${schoolId}
        order by lower(g.name), g.id`,
  );
  return found.map(toGuardian);
}

/** The guardian account of this school with this e-mail (any case), locked for the rest of the transaction. */
export async function findSchoolGuardianByEmail(db: DbOrTx, schoolId: number, email: string): Promise<{ id: number; name: string; email: string } | undefined> {
  const [r] = await rows<{ id: number; name: string; email: string }>(
    db,
    sql`select u.id, u.name, u.email from users u
        where u.school_id = ${schoolId} and u.role = 'guardian' and lower(u.email) = lower(${email})
        for update`,
  );
  return r;
}

/** Links a guardian to a student (nothing when linked already); answers the link's row and whether it is new. */
export async function linkGuardian(db: DbOrTx, schoolId: number, guardianId: number, studentId: number): Promise<{ created: boolean; created_at: string }> {
  const inserted = await rows<{ created_at: Date | string }>(
    db,
    sql`insert into guardian_links (school_id, guardian_id, student_id) values (${schoolId}, ${guardianId}, ${studentId})
        on conflict do nothing returning created_at`,
  );
  if (inserted[0]) return { created: true, created_at: iso(inserted[0].created_at) };
  const [existing] = await rows<{ created_at: Date | string }>(
    db,
    sql`select created_at from guardian_links where school_id = ${schoolId} and guardian_id = ${guardianId} and student_id = ${studentId}`,
  );
  return { created: false, created_at: iso(existing!.created_at) };
}

/**
 * Removes a guardian's link to a student; when the guardian then follows nobody, the guardian's
 * account goes too (its tokens and links with it, by foreign keys). The guardian's row is locked
 * first, so a link added at the same moment (which locks it too) is either seen or waits.
 * Undefined when this guardian does not follow this student.
 */
export async function unlinkGuardian(
  db: DbOrTx,
  schoolId: number,
  guardianId: number,
  studentId: number,
): Promise<{ guardian: { id: number; name: string }; accountDeleted: boolean } | undefined> {
  const [guardian] = await rows<{ id: number; name: string }>(
    db,
    sql`select id, name from users where id = ${guardianId} and school_id = ${schoolId} and role = 'guardian' for update`,
  );
  if (!guardian) return undefined;
  const removed = await rows<{ guardian_id: number }>(
    db,
    sql`delete from guardian_links where school_id = ${schoolId} and guardian_id = ${guardianId} and student_id = ${studentId} returning guardian_id`,
  );
  if (!removed.length) return undefined;
  const [left] = await rows<{ n: number }>(db, sql`select count(*)::int as n from guardian_links where school_id = ${schoolId} and guardian_id = ${guardianId}`);
  const accountDeleted = Number(left?.n ?? 0) === 0;
  if (accountDeleted) await db.execute(sql`delete from users where id = ${guardianId} and school_id = ${schoolId} and role = 'guardian'`);
  return { guardian, accountDeleted };
}

type ChildRow = {
  id: number;
  name: string;
  teacher_name: string;
  current_streak: number;
  weekly_practice_time_minutes: number | string;
  open_submissions: number;
  overdue_submissions: number;
  new_feedback: number;
  fb_recording_id: number | null;
  fb_submission_id: number | null;
  fb_comment_id: number | null;
  fb_at_ms: number | null;
};

/**
 * The guardian's children (or the one child `childId`, if it is theirs) with the overview's
 * figures, in one statement for all children: minutes of the last 7 local days (`today` − 6 …
 * `today` in `tz`, finished sessions by start, as GET /api/my-metrics counts them), open and
 * overdue tasks (statusCondition), recordings with new feedback (NEW_FEEDBACK_SQL) and the streak
 * (the metrics' own walk, streakCtes, run per child in a lateral subquery). By name.
 */
export async function guardianChildren(db: DbOrTx, guardian: AuthUser, today: string, tz: string, childId?: number): Promise<GuardianChild[]> {
  const school = guardian.schoolId;
  const weekStart = sql`((${today}::date - 6)::timestamp at time zone ${tz})`;
  const tomorrow = sql`((${today}::date + 1)::timestamp at time zone ${tz})`;
  const onlyChild: SQL = childId === undefined ? sql`` : sql` and l.student_id = ${childId}`;
  const found = await rows<ChildRow>(
    db,
    sql`select c.id, c.name, t.name as teacher_name,
          coalesce(st.current_streak, 0)::int as current_streak,
          round(coalesce(week.minutes, 0)::numeric, 2)::float8 as weekly_practice_time_minutes,
          coalesce(tasks.open_count, 0)::int as open_submissions,
          coalesce(tasks.overdue_count, 0)::int as overdue_submissions,
          coalesce(fb.n, 0)::int as new_feedback,
          fbt.recording_id as fb_recording_id, fbt.submission_id as fb_submission_id, fbt.comment_id as fb_comment_id, fbt.at_ms as fb_at_ms
        from guardian_links l
        join users c on c.id = l.student_id and c.role = 'student' and c.school_id = ${school}
        join users t on t.id = c.teacher_id and t.school_id = ${school}
        left join lateral (
          select sum(p.duration_minutes) as minutes from practice_sessions p
          where p.student_id = c.id and p.school_id = ${school} and p.ended_at is not null
            and p.started_at >= ${weekStart} and p.started_at < ${tomorrow}
        ) week on true
        left join lateral (
          select (count(*) filter (where ${statusCondition('open', today)}))::int as open_count,
                 (count(*) filter (where ${statusCondition('overdue', today)}))::int as overdue_count
          from submissions s where s.student_id = c.id and s.school_id = ${school} and s.completed_at is null
        ) tasks on true
        left join lateral (
          select count(*)::int as n from recordings r where r.student_id = c.id and r.school_id = ${school} and ${NEW_FEEDBACK_SQL}
        ) fb on true
        left join lateral (
          -- where the badge's link lands: the recording with the newest feedback, at its newest comment
          select r.id as recording_id, r.submission_id, lc.id as comment_id, lc.at_ms from recordings r
          left join lateral (
            select rc.id, rc.at_ms from recording_comments rc where rc.recording_id = r.id and rc.school_id = r.school_id
            order by rc.updated_at desc, rc.id desc limit 1
          ) lc on true
          where r.student_id = c.id and r.school_id = ${school} and ${NEW_FEEDBACK_SQL}
          order by r.feedback_at desc, r.id desc limit 1
        ) fbt on true
        left join lateral (
          with recursive ${streakCtes(sql`c.id`, today, tz, school)} select current_streak from streak
        ) st on true
        where l.guardian_id = ${guardian.id} and l.school_id = ${school}${onlyChild}
        order by lower(c.name), c.id`,
  );
  return found.map((r) => ({
    id: r.id,
    name: r.name,
    teacher: { name: r.teacher_name },
    current_streak: r.current_streak,
    weekly_practice_time_minutes: Number(r.weekly_practice_time_minutes),
    open_submissions: r.open_submissions,
    overdue_submissions: r.overdue_submissions,
    new_feedback: r.new_feedback,
    new_feedback_latest:
      r.fb_recording_id === null || r.fb_submission_id === null
        ? null
        : { recording_id: r.fb_recording_id, submission_id: r.fb_submission_id, comment_id: r.fb_comment_id ?? null, at_ms: r.fb_at_ms ?? null },
  }));
}
