import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../../db/client';
import type { AuditEntry, AuditLogResponse, SchoolDashboard, SchoolStudent, SchoolTeacher } from '@contract/school';
import { AUDIT_PAGE_SIZE, auditActions } from '@contract/school';
import { deleteOrphanedGuardians, guardiansOf } from '../students/students.repo';

/**
 * The SQL of the school administration (docs/decisions/schools-and-roles.md). Every statement names the school
 * (`school_id = …`, the shard key) besides the ids it is about.
 */

const idList = (ids: number[]) => sql.join(ids.map((i) => sql`${i}`), sql`, `);
/** A timestamp inside json_build_object as ISO 8601 in UTC (what toISOString gives). */
export const isoSql = (col: SQL) => sql`to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const iso = (v: Date | string) => new Date(v).toISOString();
const isoOrNull = (v: Date | string | null) => (v === null ? null : iso(v));
/** json/jsonb arrive parsed from PGlite and pg alike, but text from some paths: accept both. */
/** A take's analysis in the export (docs/decisions/listening.md). */
export type RecordingAnalysisExport = {
  computed_by: string;
  computed_at: string;
  track_version: number;
  track: string;
  analysis_version: number;
  report_at: string;
  report: unknown;
};

export function json<T>(v: unknown): T {
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
}
/** Escapes LIKE's wildcards in a user's search text. */
const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

// --- School ---------------------------------------------------------------------------------

export async function findSchool(db: DbOrTx, schoolId: number): Promise<{ id: number; name: string } | undefined> {
  const [s] = await rows<{ id: number; name: string }>(db, sql`select id, name from schools where id = ${schoolId}`);
  return s;
}

/** Renames the school; answers the name it had (locks the row). */
export async function renameSchool(db: DbOrTx, schoolId: number, name: string): Promise<string | undefined> {
  const [old] = await rows<{ name: string }>(db, sql`select name from schools where id = ${schoolId} for update`);
  if (!old) return undefined;
  await db.execute(sql`update schools set name = ${name} where id = ${schoolId}`);
  return old.name;
}

/**
 * The dashboard's figures in two statements. Counts: one pass over the school's users (index
 * users_school_role_name_idx) and one range over practice_sessions_school_started_idx for the last 7
 * local days (today included). Weeks: the SCHOOL_WEEKS Mondays in `tz`, one range each over the
 * sessions (finished, by start, like the metrics) and the completed tasks
 * (submissions_school_completed_idx), grouped by the local week.
 */
export async function dashboardFigures(db: DbOrTx, schoolId: number, today: string, tz: string, weeks: number): Promise<Omit<SchoolDashboard, 'school'>> {
  const at = (d: SQL) => sql`((${d})::timestamp at time zone ${tz})`;
  const [c] = await rows<{ teachers_active: number; teachers_deactivated: number; students_total: number; students_active: number; guardians: number }>(
    db,
    sql`select
          count(*) filter (where u.role = 'teacher' and u.deactivated_at is null)::int as teachers_active,
          count(*) filter (where u.role = 'teacher' and u.deactivated_at is not null)::int as teachers_deactivated,
          count(*) filter (where u.role = 'student')::int as students_total,
          count(*) filter (where u.role = 'guardian')::int as guardians,
          (select count(distinct p.student_id)::int from practice_sessions p
            where p.school_id = ${schoolId}
              and p.started_at >= ${at(sql`${today}::date - 6`)} and p.started_at < ${at(sql`${today}::date + 1`)}) as students_active
        from users u where u.school_id = ${schoolId}`,
  );
  const monday = sql`date_trunc('week', ${today}::date::timestamp)::date`;
  const first = sql`(${monday} - ${(weeks - 1) * 7}::int)`;
  const end = sql`(${monday} + 7)`;
  const week = (col: SQL) => sql`date_trunc('week', (${col} at time zone ${tz}))::date`;
  const series = await rows<{ week_start: string; practice_minutes: number | string; tasks_completed: number }>(
    db,
    sql`with w as (select (${first} + 7 * i) as week_start from generate_series(0, ${weeks - 1}::int) as i),
        p as (select ${week(sql`ps.started_at`)} as wk, sum(ps.duration_minutes) as minutes from practice_sessions ps
              where ps.school_id = ${schoolId} and ps.ended_at is not null
                and ps.started_at >= ${at(first)} and ps.started_at < ${at(end)}
              group by 1),
        t as (select ${week(sql`s.completed_at`)} as wk, count(*)::int as n from submissions s
              where s.school_id = ${schoolId} and s.completed_at >= ${at(first)} and s.completed_at < ${at(end)}
              group by 1)
      select to_char(w.week_start, 'YYYY-MM-DD') as week_start,
             round(coalesce(p.minutes, 0)::numeric, 2)::float8 as practice_minutes,
             coalesce(t.n, 0)::int as tasks_completed
      from w left join p on p.wk = w.week_start left join t on t.wk = w.week_start
      order by w.week_start`,
  );
  return {
    teachers: { active: Number(c?.teachers_active ?? 0), deactivated: Number(c?.teachers_deactivated ?? 0) },
    students: { total: Number(c?.students_total ?? 0), active: Number(c?.students_active ?? 0) },
    guardians: Number(c?.guardians ?? 0),
    weeks: series.map((r) => ({ week_start: r.week_start, practice_minutes: Number(r.practice_minutes), tasks_completed: Number(r.tasks_completed) })),
  };
}

// --- Teachers -------------------------------------------------------------------------------

type TeacherRow = { id: number; name: string; email: string; deactivated_at: Date | string | null; student_count: number; created_at: Date | string };

/** The school's teachers by name (deactivated ones included) with their numbers of students, in one statement. */
export async function listTeachers(db: DbOrTx, schoolId: number, ids?: number[]): Promise<SchoolTeacher[]> {
  const byIds = ids ? (ids.length ? sql` and u.id in (${idList(ids)})` : sql` and false`) : sql``;
  const found = await rows<TeacherRow>(
    db,
    sql`select u.id, u.name, u.email, u.deactivated_at, u.created_at, coalesce(sc.n, 0)::int as student_count
        from users u
        left join (select s.teacher_id, count(*)::int as n from users s
                   where s.school_id = ${schoolId} and s.role = 'student' group by s.teacher_id) sc on sc.teacher_id = u.id
        where u.school_id = ${schoolId} and u.role = 'teacher'${byIds}
        order by lower(u.name), u.id`,
  );
  return found.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    active: r.deactivated_at === null,
    deactivated_at: isoOrNull(r.deactivated_at),
    student_count: Number(r.student_count),
    created_at: iso(r.created_at),
  }));
}

export type TeacherState = { id: number; name: string; deactivated: boolean };

/** A teacher of the school (locked inside a transaction), or undefined. */
export async function findTeacher(db: DbOrTx, schoolId: number, id: number, opts: { forUpdate?: boolean } = {}): Promise<TeacherState | undefined> {
  const [t] = await rows<{ id: number; name: string; deactivated_at: Date | string | null }>(
    db,
    sql`select id, name, deactivated_at from users where id = ${id} and school_id = ${schoolId} and role = 'teacher'${opts.forUpdate ? sql` for update` : sql``}`,
  );
  return t ? { id: t.id, name: t.name, deactivated: t.deactivated_at !== null } : undefined;
}

/** Deactivates a teacher: the account stays (with students and data), its tokens and calendar address go. */
export async function deactivateTeacher(db: DbOrTx, schoolId: number, id: number): Promise<void> {
  await db.execute(sql`update users set deactivated_at = now(), updated_at = now() where id = ${id} and school_id = ${schoolId} and role = 'teacher'`);
  await db.execute(sql`delete from tokens where user_id = ${id}`);
  // The private calendar address lists the students' tasks: it ends with the account (renewable after reactivation).
  await db.execute(sql`delete from calendar_feeds where user_id = ${id} and school_id = ${schoolId}`);
}

export async function reactivateTeacher(db: DbOrTx, schoolId: number, id: number): Promise<void> {
  await db.execute(sql`update users set deactivated_at = null, updated_at = now() where id = ${id} and school_id = ${schoolId} and role = 'teacher'`);
}

// --- Students -------------------------------------------------------------------------------

type StudentRow = {
  id: number;
  name: string;
  email: string;
  created_at: Date | string;
  teacher_id: number;
  teacher_name: string;
  teacher_deactivated_at: Date | string | null;
  guardian_count: number;
};

/** The school's students by name, with their teacher and number of guardians, in one statement. */
export async function listSchoolStudents(db: DbOrTx, schoolId: number, f: { q?: string; teacherId?: number; ids?: number[] } = {}): Promise<SchoolStudent[]> {
  const where: SQL[] = [sql`u.school_id = ${schoolId}`, sql`u.role = 'student'`];
  if (f.q) where.push(sql`(lower(u.name) like lower(${likePattern(f.q)}) or lower(u.email) like lower(${likePattern(f.q)}))`);
  if (f.teacherId !== undefined) where.push(sql`u.teacher_id = ${f.teacherId}`);
  if (f.ids) where.push(f.ids.length ? sql`u.id in (${idList(f.ids)})` : sql`false`);
  const found = await rows<StudentRow>(
    db,
    sql`select u.id, u.name, u.email, u.created_at, t.id as teacher_id, t.name as teacher_name, t.deactivated_at as teacher_deactivated_at,
               coalesce(g.n, 0)::int as guardian_count
        from users u
        join users t on t.id = u.teacher_id and t.school_id = ${schoolId}
        left join (select gl.student_id, count(*)::int as n from guardian_links gl where gl.school_id = ${schoolId} group by gl.student_id) g
          on g.student_id = u.id
        where ${sql.join(where, sql` and `)}
        order by lower(u.name), u.id`,
  );
  return found.map((r) => ({
    id: r.id,
    name: r.name,
    email: r.email,
    teacher: { id: r.teacher_id, name: r.teacher_name, active: r.teacher_deactivated_at === null },
    guardian_count: Number(r.guardian_count),
    created_at: iso(r.created_at),
  }));
}

export type StudentState = { id: number; name: string; email: string; teacherId: number; teacherName: string };

/** A student of the school with their teacher (the student's row locked inside a transaction), or undefined. */
export async function findStudent(db: DbOrTx, schoolId: number, id: number, opts: { forUpdate?: boolean } = {}): Promise<StudentState | undefined> {
  const [s] = await rows<{ id: number; name: string; email: string; teacher_id: number; teacher_name: string }>(
    db,
    sql`select u.id, u.name, u.email, u.teacher_id, t.name as teacher_name
        from users u join users t on t.id = u.teacher_id and t.school_id = ${schoolId}
        where u.id = ${id} and u.school_id = ${schoolId} and u.role = 'student'${opts.forUpdate ? sql` for update of u` : sql``}`,
  );
  return s ? { id: s.id, name: s.name, email: s.email, teacherId: s.teacher_id, teacherName: s.teacher_name } : undefined;
}

/**
 * Gives the student and their whole history to another teacher of the school: the account, every
 * task (its course, the old teacher's, is cleared) and recording; the enrolments in the old
 * teacher's courses end. Run inside a transaction. Answers what moved.
 */
export async function moveStudent(db: DbOrTx, schoolId: number, studentId: number, fromTeacherId: number, toTeacherId: number): Promise<{ tasks: number; recordings: number; enrolments: number }> {
  await db.execute(sql`update users set teacher_id = ${toTeacherId}, updated_at = now() where id = ${studentId} and school_id = ${schoolId} and role = 'student'`);
  const tasks = await rows<{ id: number }>(
    db,
    sql`update submissions set teacher_id = ${toTeacherId},
          course_id = case when course_id in (select c.id from courses c where c.teacher_id = ${toTeacherId} and c.school_id = ${schoolId}) then course_id else null end,
          updated_at = now()
        where student_id = ${studentId} and school_id = ${schoolId} returning id`,
  );
  const recordings = await rows<{ id: number }>(
    db,
    sql`update recordings set teacher_id = ${toTeacherId} where student_id = ${studentId} and school_id = ${schoolId} returning id`,
  );
  const enrolments = await rows<{ course_id: number }>(
    db,
    sql`delete from enrolments where student_id = ${studentId} and school_id = ${schoolId}
          and course_id in (select c.id from courses c where c.teacher_id = ${fromTeacherId} and c.school_id = ${schoolId})
        returning course_id`,
  );
  return { tasks: tasks.length, recordings: recordings.length, enrolments: enrolments.length };
}

// --- Invitations ------------------------------------------------------------------------------

export type InviteRow = {
  id: number;
  school_id: number;
  kind: 'teacher' | 'guardian';
  name: string;
  email: string;
  student_ids: number[];
  created_by: number | null;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
};

type InviteRowRaw = Omit<InviteRow, 'student_ids' | 'created_at' | 'expires_at' | 'accepted_at' | 'revoked_at'> & {
  student_ids: unknown;
  created_at: Date | string;
  expires_at: Date | string;
  accepted_at: Date | string | null;
  revoked_at: Date | string | null;
};

const toRow = (r: InviteRowRaw): InviteRow => ({
  ...r,
  student_ids: json<number[]>(r.student_ids).map(Number),
  created_at: new Date(r.created_at),
  expires_at: new Date(r.expires_at),
  accepted_at: r.accepted_at === null ? null : new Date(r.accepted_at),
  revoked_at: r.revoked_at === null ? null : new Date(r.revoked_at),
});

const inviteColumns = sql`i.id, i.school_id, i.kind, i.name, i.email, i.student_ids, i.created_by, i.created_at, i.expires_at, i.accepted_at, i.revoked_at`;
/** Neither accepted nor revoked nor expired. */
export const OPEN_INVITE = sql`(i.accepted_at is null and i.revoked_at is null and i.expires_at > now())`;

/** Whether any account (of any school: e-mails are unique across the app) has this e-mail, regardless of case. */
export async function accountWithEmail(db: DbOrTx, email: string): Promise<boolean> {
  return (await rows<{ id: number }>(db, sql`select id from users where lower(email) = lower(${email}) limit 1`)).length > 0;
}

/** Whether the school has an open invitation for this e-mail. */
export async function openInviteWithEmail(db: DbOrTx, schoolId: number, email: string): Promise<boolean> {
  return (await rows<{ id: number }>(db, sql`select i.id from invites i where i.school_id = ${schoolId} and lower(i.email) = lower(${email}) and ${OPEN_INVITE} limit 1`)).length > 0;
}

/** Serialises invitations for one e-mail (held to the end of the transaction). */
export async function lockEmail(db: DbOrTx, email: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('uk-invite-email:' || lower(${email})))`);
}

/** Which of these ids are students of the school, with their names, by name. */
export async function studentsOfSchool(db: DbOrTx, schoolId: number, ids: number[]): Promise<Array<{ id: number; name: string }>> {
  if (ids.length === 0) return [];
  return rows<{ id: number; name: string }>(
    db,
    sql`select id, name from users where school_id = ${schoolId} and role = 'student' and id in (${idList(ids)}) order by lower(name), id`,
  );
}

export async function insertInvite(
  db: DbOrTx,
  v: { schoolId: number; kind: 'teacher' | 'guardian'; name: string; email: string; tokenHash: string; studentIds: number[]; createdBy: number; expiresAt: Date },
): Promise<InviteRow> {
  const [r] = await rows<InviteRowRaw>(
    db,
    sql`insert into invites as i (school_id, kind, name, email, token_hash, student_ids, created_by, expires_at)
        values (${v.schoolId}, ${v.kind}, ${v.name}, ${v.email}, ${v.tokenHash}, ${JSON.stringify(v.studentIds)}::jsonb, ${v.createdBy}, ${v.expiresAt})
        returning ${inviteColumns}`,
  );
  if (!r) throw new Error('insert invite returned nothing');
  return toRow(r);
}

export type InviteListRow = InviteRow & { students: Array<{ id: number; name: string }>; created_by_name: string | null };

/**
 * The school's invitations, newest first, with the names of the students they name (those still
 * students of the school) and of who made them. Optionally only some: one invitation, those naming
 * a student, only open ones.
 */
export async function listInvites(db: DbOrTx, schoolId: number, f: { id?: number; studentId?: number; open?: boolean; kind?: 'teacher' | 'guardian' } = {}): Promise<InviteListRow[]> {
  const where: SQL[] = [sql`i.school_id = ${schoolId}`];
  if (f.id !== undefined) where.push(sql`i.id = ${f.id}`);
  if (f.studentId !== undefined) where.push(sql`i.student_ids @> ${JSON.stringify([f.studentId])}::jsonb`);
  if (f.open) where.push(OPEN_INVITE);
  if (f.kind) where.push(sql`i.kind = ${f.kind}`);
  const found = await rows<InviteRowRaw & { students: unknown; created_by_name: string | null }>(
    db,
    sql`select ${inviteColumns}, c.name as created_by_name,
          coalesce((select json_agg(json_build_object('id', s.id, 'name', s.name) order by lower(s.name), s.id)
                    from users s
                    where s.school_id = ${schoolId} and s.role = 'student'
                      and s.id in (select (jsonb_array_elements_text(i.student_ids))::int)), '[]'::json) as students
        from invites i
        left join users c on c.id = i.created_by and c.school_id = ${schoolId}
        where ${sql.join(where, sql` and `)}
        order by i.created_at desc, i.id desc`,
  );
  return found.map((r) => ({ ...toRow(r), students: json<Array<{ id: number; name: string }>>(r.students), created_by_name: r.created_by_name }));
}

/** An invitation of the school, locked for the rest of the transaction. */
export async function findInviteForUpdate(db: DbOrTx, schoolId: number, id: number): Promise<InviteRow | undefined> {
  const [r] = await rows<InviteRowRaw>(db, sql`select ${inviteColumns} from invites i where i.id = ${id} and i.school_id = ${schoolId} for update`);
  return r ? toRow(r) : undefined;
}

export async function markInviteRevoked(db: DbOrTx, schoolId: number, id: number): Promise<void> {
  await db.execute(sql`update invites set revoked_at = now() where id = ${id} and school_id = ${schoolId}`);
}

/**
 * The open invitation with this token hash and its school's name (locked inside a transaction: of two
 * accepts of one link the second waits, then finds it accepted), or undefined.
 */
export async function findOpenInviteByHash(db: DbOrTx, tokenHash: string, opts: { forUpdate?: boolean } = {}): Promise<(InviteRow & { school_name: string }) | undefined> {
  const [r] = await rows<InviteRowRaw & { school_name: string }>(
    db,
    sql`select ${inviteColumns}, sc.name as school_name
        from invites i join schools sc on sc.id = i.school_id
        where i.token_hash = ${tokenHash} and ${OPEN_INVITE}${opts.forUpdate ? sql` for update of i` : sql``}`,
  );
  return r ? { ...toRow(r), school_name: r.school_name } : undefined;
}

export async function markInviteAccepted(db: DbOrTx, schoolId: number, id: number, userId: number): Promise<void> {
  await db.execute(sql`update invites set accepted_at = now(), accepted_user_id = ${userId} where id = ${id} and school_id = ${schoolId}`);
}

/** Creates the account of an accepted invitation (a teacher or a guardian of the school). */
export async function insertMember(db: DbOrTx, v: { schoolId: number; role: 'teacher' | 'guardian'; name: string; email: string; passwordHash: string }): Promise<{ id: number }> {
  const [u] = await rows<{ id: number }>(
    db,
    sql`insert into users (school_id, role, name, email, password_hash) values (${v.schoolId}, ${v.role}, ${v.name}, ${v.email}, ${v.passwordHash}) returning id`,
  );
  if (!u) throw new Error('insert user returned nothing');
  return u;
}

export async function linkGuardian(db: DbOrTx, schoolId: number, guardianId: number, studentIds: number[]): Promise<void> {
  if (studentIds.length === 0) return;
  await db.execute(
    sql`insert into guardian_links (school_id, guardian_id, student_id)
        select ${schoolId}, ${guardianId}, s.id from users s
        where s.school_id = ${schoolId} and s.role = 'student' and s.id in (${idList(studentIds)})
        on conflict do nothing`,
  );
}

// --- Audit log ------------------------------------------------------------------------------

type AuditRow = {
  id: number | string;
  created_at: Date | string;
  actor_id: number | null;
  actor_name: string;
  actor_role: string;
  action: string;
  target_type: string | null;
  target_id: number | null;
  target_name: string | null;
  details: unknown;
};

const knownActions = new Set<string>(auditActions);

/**
 * One page of the school's audit log, newest first: keyset paging on (created_at, id) after the entry
 * `before` (index audit_log_school_created_idx); an id of another school gives an empty page.
 */
export async function auditLogPage(db: DbOrTx, schoolId: number, before?: number): Promise<AuditLogResponse> {
  const after = before === undefined
    ? sql``
    : sql` and (a.created_at, a.id) < (select b.created_at, b.id from audit_log b where b.id = ${before} and b.school_id = ${schoolId})`;
  const found = await rows<AuditRow>(
    db,
    // A name not copied into the entry (a student's or guardian's, server/lib/audit.ts) is the
    // account's current one while it exists; after its erasure, none.
    sql`select a.id, a.created_at, a.actor_id, coalesce(nullif(a.actor_name, ''), au.name, '') as actor_name, a.actor_role, a.action,
               a.target_type, a.target_id, coalesce(a.target_name, tu.name) as target_name, a.details
        from audit_log a
        left join users au on au.id = a.actor_id and au.school_id = a.school_id
        left join users tu on a.target_type = 'user' and tu.id = a.target_id and tu.school_id = a.school_id
        where a.school_id = ${schoolId}${after}
        order by a.created_at desc, a.id desc
        limit ${AUDIT_PAGE_SIZE + 1}`,
  );
  const page = found.slice(0, AUDIT_PAGE_SIZE);
  const data: AuditEntry[] = page
    .filter((r) => knownActions.has(r.action))
    .map((r) => ({
      id: Number(r.id),
      created_at: iso(r.created_at),
      actor: { id: r.actor_id, name: r.actor_name, role: r.actor_role },
      action: r.action as AuditEntry['action'],
      target: r.target_type === null ? null : { type: r.target_type, id: r.target_id, name: r.target_name },
      details: r.details === null ? null : json<Record<string, unknown>>(r.details),
    }));
  const last = page[page.length - 1];
  return { data, next_before: found.length > AUDIT_PAGE_SIZE && last ? Number(last.id) : null };
}

// --- Data rights ----------------------------------------------------------------------------

/** Everything stored about a student, for the export (student.json); dates as ISO 8601. */
export async function studentExportData(db: DbOrTx, schoolId: number, studentId: number) {
  const [profile] = await rows<{
    id: number;
    name: string;
    email: string;
    phone: string | null;
    notes: string | null;
    created_at: Date | string;
    updated_at: Date | string;
    teacher_id: number;
    teacher_name: string;
    teacher_email: string;
  }>(
    db,
    sql`select u.id, u.name, u.email, u.phone, u.notes, u.created_at, u.updated_at, t.id as teacher_id, t.name as teacher_name, t.email as teacher_email
        from users u join users t on t.id = u.teacher_id and t.school_id = ${schoolId}
        where u.id = ${studentId} and u.school_id = ${schoolId} and u.role = 'student'`,
  );
  if (!profile) return undefined;
  const courses = await rows<{ id: number; name: string; description: string | null; enrolled_at: Date | string }>(
    db,
    sql`select c.id, c.name, c.description, e.created_at as enrolled_at
        from enrolments e join courses c on c.id = e.course_id and c.school_id = ${schoolId}
        where e.student_id = ${studentId} and e.school_id = ${schoolId}
        order by lower(c.name), c.id`,
  );
  const tasks = await rows<{
    id: number;
    exercise_id: number | null;
    exercise_title: string;
    course_id: number | null;
    course_name: string | null;
    due_date: string;
    expiration_date: string | null;
    completed_at: Date | string | null;
    teacher_note: string | null;
    teacher_feedback: string | null;
    accuracy_score: number | null;
    competency_level: string | null;
    time_spent_minutes: number;
    created_at: Date | string;
    updated_at: Date | string;
  }>(
    db,
    sql`select s.id, s.exercise_id, s.exercise_title, s.course_id, c.name as course_name, s.due_date::text as due_date,
               s.expiration_date::text as expiration_date, s.completed_at, s.teacher_note, s.teacher_feedback, s.accuracy_score,
               s.competency_level, s.time_spent_minutes, s.created_at, s.updated_at
        from submissions s left join courses c on c.id = s.course_id and c.school_id = ${schoolId}
        where s.student_id = ${studentId} and s.school_id = ${schoolId}
        order by s.due_date, s.id`,
  );
  const sessions = await rows<{
    id: number;
    task_id: number;
    started_at: Date | string;
    ended_at: Date | string | null;
    duration_minutes: number | null;
    tempo_bpm: number | null;
    recorded_offline: boolean;
  }>(
    db,
    sql`select p.id, p.submission_id as task_id, p.started_at, p.ended_at, p.duration_minutes, p.tempo_bpm, p.recorded_offline
        from practice_sessions p where p.student_id = ${studentId} and p.school_id = ${schoolId}
        order by p.started_at, p.id`,
  );
  const recordings = await rows<{
    id: number;
    task_id: number;
    kind: string;
    mime_type: string;
    path: string;
    filename: string;
    size: number | string;
    duration_ms: number;
    message: string | null;
    created_at: Date | string;
    answered_at: Date | string | null;
    seen_at: Date | string | null;
    feedback_at: Date | string | null;
    comments: unknown;
    analysis: unknown;
  }>(
    db,
    sql`select r.id, r.submission_id as task_id, r.kind, r.mime_type, r.path, r.filename, r.size, r.duration_ms, r.message,
               r.created_at, r.answered_at, r.seen_at, r.feedback_at,
               -- what the app heard in the take (docs/decisions/listening.md): the track as base64, the report
               (select json_build_object('computed_by', a.computed_by, 'computed_at', ${isoSql(sql`a.computed_at`)},
                                         'track_version', a.track_version, 'track', replace(encode(a.track, 'base64'), chr(10), ''),
                                         'analysis_version', a.analysis_version, 'report_at', ${isoSql(sql`a.report_at`)}, 'report', a.report)
                  from recording_analyses a where a.recording_id = r.id and a.school_id = ${schoolId}) as analysis,
               coalesce((select json_agg(json_build_object('id', rc.id, 'at_ms', rc.at_ms, 'text', rc.text, 'teacher', t.name,
                                 'audio_path', rc.audio_path, 'audio_mime_type', rc.audio_mime_type, 'audio_size', rc.audio_size,
                                 'audio_duration_ms', rc.audio_duration_ms,
                                 'created_at', ${isoSql(sql`rc.created_at`)}, 'updated_at', ${isoSql(sql`rc.updated_at`)})
                                 order by rc.at_ms nulls first, rc.id)
                         from recording_comments rc left join users t on t.id = rc.teacher_id
                         where rc.recording_id = r.id and rc.school_id = ${schoolId}), '[]'::json) as comments
        from recordings r where r.student_id = ${studentId} and r.school_id = ${schoolId}
        order by r.created_at, r.id`,
  );
  const guardians = await rows<{ name: string; email: string; linked_at: Date | string }>(
    db,
    sql`select g.name, g.email, gl.created_at as linked_at
        from guardian_links gl join users g on g.id = gl.guardian_id and g.school_id = ${schoolId}
        where gl.student_id = ${studentId} and gl.school_id = ${schoolId}
        order by lower(g.name), g.id`,
  );
  // the student's conversation (docs/decisions/messages.md), oldest first; authors by name and role
  const messages = await rows<{
    id: number;
    kind: string;
    body: string;
    author_role: string;
    author_name: string | null;
    link_task_id: number | null;
    link_recording_id: number | null;
    link_at_ms: number | null;
    pinned_at: Date | string | null;
    created_at: Date | string;
  }>(
    db,
    sql`select m.id, m.kind, m.body, m.author_role, a.name as author_name, m.link_task_id, m.link_recording_id, m.link_at_ms, m.pinned_at, m.created_at
        from messages m left join users a on a.id = m.author_id
        where m.student_id = ${studentId} and m.school_id = ${schoolId}
        order by m.id`,
  );
  const [feed] = await rows<{ created_at: Date | string }>(
    db,
    sql`select created_at from calendar_feeds where user_id = ${studentId} and school_id = ${schoolId}`,
  );
  return {
    student: {
      id: profile.id,
      name: profile.name,
      email: profile.email,
      phone: profile.phone,
      notes: profile.notes,
      created_at: iso(profile.created_at),
      updated_at: iso(profile.updated_at),
      teacher: { id: profile.teacher_id, name: profile.teacher_name, email: profile.teacher_email },
    },
    courses: courses.map((c) => ({ id: c.id, name: c.name, description: c.description, enrolled_at: iso(c.enrolled_at) })),
    tasks: tasks.map((s) => ({
      id: s.id,
      exercise_id: s.exercise_id,
      exercise_title: s.exercise_title,
      course: s.course_id === null ? null : { id: s.course_id, name: s.course_name },
      due_date: s.due_date,
      expiration_date: s.expiration_date,
      completed_at: isoOrNull(s.completed_at),
      teacher_note: s.teacher_note,
      teacher_feedback: s.teacher_feedback,
      accuracy_score: s.accuracy_score === null ? null : Number(s.accuracy_score),
      competency_level: s.competency_level,
      time_spent_minutes: Number(s.time_spent_minutes),
      created_at: iso(s.created_at),
      updated_at: iso(s.updated_at),
    })),
    practice_sessions: sessions.map((p) => ({
      id: p.id,
      task_id: p.task_id,
      started_at: iso(p.started_at),
      ended_at: isoOrNull(p.ended_at),
      duration_minutes: p.duration_minutes === null ? null : Number(p.duration_minutes),
      tempo_bpm: p.tempo_bpm,
      recorded_offline: p.recorded_offline,
    })),
    recordings: recordings.map((r) => ({
      id: r.id,
      task_id: r.task_id,
      kind: r.kind,
      mime_type: r.mime_type,
      path: r.path,
      filename: r.filename,
      size: Number(r.size),
      duration_ms: r.duration_ms,
      message: r.message,
      created_at: iso(r.created_at),
      answered_at: isoOrNull(r.answered_at),
      seen_at: isoOrNull(r.seen_at),
      feedback_at: isoOrNull(r.feedback_at),
      comments: json<
        Array<{
          id: number;
          at_ms: number | null;
          text: string;
          teacher: string | null;
          /** A spoken comment's clip (docs/decisions/spoken-comments-and-quick-replies.md). */
          audio_path: string | null;
          audio_mime_type: string | null;
          audio_size: number | null;
          audio_duration_ms: number | null;
          created_at: string;
          updated_at: string;
        }>
      >(r.comments),
      analysis: r.analysis === null || r.analysis === undefined ? null : json<RecordingAnalysisExport>(r.analysis),
    })),
    guardians: guardians.map((g) => ({ name: g.name, email: g.email, linked_at: iso(g.linked_at) })),
    calendar_feed: { exists: feed !== undefined, created_at: feed ? iso(feed.created_at) : null },
    messages: messages.map((m) => ({
      id: m.id,
      kind: m.kind,
      body: m.body,
      author_role: m.author_role,
      author_name: m.author_name,
      link: m.link_task_id === null ? null : { task_id: m.link_task_id, recording_id: m.link_recording_id, at_ms: m.link_at_ms },
      pinned_at: isoOrNull(m.pinned_at),
      created_at: iso(m.created_at),
    })),
  };
}
export type StudentExportData = NonNullable<Awaited<ReturnType<typeof studentExportData>>>;

/** The stored files of a student's recordings and of the spoken comments on them, with the tasks they hang on (their folders). */
export async function recordingFilesOf(db: DbOrTx, schoolId: number, studentId: number): Promise<Array<{ id: number; path: string; task_id: number }>> {
  return rows<{ id: number; path: string; task_id: number }>(
    db,
    sql`select id, path, submission_id as task_id from recordings where student_id = ${studentId} and school_id = ${schoolId}
        union all
        select r.id, c.audio_path as path, r.submission_id as task_id from recording_comments c
          join recordings r on r.id = c.recording_id and r.school_id = c.school_id
          where r.student_id = ${studentId} and r.school_id = ${schoolId} and c.audio_path is not null
        order by id, path`,
  );
}

/** What an erasure removes with the student's row, counted before it goes. */
export async function eraseCounts(db: DbOrTx, schoolId: number, studentId: number): Promise<{ tasks: number; practice_sessions: number; recordings: number; task_ids: number[] }> {
  const [c] = await rows<{ tasks: number; practice_sessions: number; recordings: number; task_ids: unknown }>(
    db,
    sql`select (select count(*)::int from submissions where student_id = ${studentId} and school_id = ${schoolId}) as tasks,
               (select count(*)::int from practice_sessions where student_id = ${studentId} and school_id = ${schoolId}) as practice_sessions,
               (select count(*)::int from recordings where student_id = ${studentId} and school_id = ${schoolId}) as recordings,
               (select coalesce(json_agg(id order by id), '[]'::json) from submissions where student_id = ${studentId} and school_id = ${schoolId}) as task_ids`,
  );
  return {
    tasks: Number(c?.tasks ?? 0),
    practice_sessions: Number(c?.practice_sessions ?? 0),
    recordings: Number(c?.recordings ?? 0),
    task_ids: json<number[]>(c?.task_ids ?? []).map(Number),
  };
}

/**
 * Deletes the student's row; the foreign keys take everything hanging on it (tasks, practice
 * sessions, recordings and their comments, enrolments, tokens, guardian links, idempotency keys, the
 * calendar address). Then the guardian accounts of the school that followed the student and follow
 * nobody any more. Run inside a transaction; answers the ids of the deleted guardian accounts.
 */
export async function eraseStudent(db: DbOrTx, schoolId: number, studentId: number): Promise<number[]> {
  const guardians = await guardiansOf(db, schoolId, studentId);
  await db.execute(sql`delete from users where id = ${studentId} and school_id = ${schoolId} and role = 'student'`);
  return deleteOrphanedGuardians(db, schoolId, guardians);
}
