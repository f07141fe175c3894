import { z } from 'zod';
import { emailText, errorResponsesOf, languageQuery, wholeNumberText, emailInput, requiredText } from './common';
import { EMAIL_MAX, newPasswordText, STUDENT_NAME_MAX } from './students';
import { auditActions, SCHOOL_NAME_MAX } from './school-limits';

// The limits without zod (the web app imports them from there).
export * from './school-limits';

/**
 * The school and its administration (docs/decisions/schools-and-roles.md): the
 * administrator's dashboard, teachers, invitations, moving students, the audit log and the data
 * rights (export, erasure). Every call stays inside the caller's school.
 */

/** How long an invitation link can be used (days). */
export const INVITE_VALID_DAYS = 14;
/** Entries of one audit-log page. */
export const AUDIT_PAGE_SIZE = 50;

const id = z.number().int();
const email = emailInput(EMAIL_MAX);
const personName = requiredText(STUDENT_NAME_MAX);

/** GET /api/school */
export const schoolSchema = z
  .object({
    id,
    name: z.string(),
    /** The school's time zone (APP_TIMEZONE): "today", weeks and the times of the audit log are read in it. */
    time_zone: z.string(),
  })
  .meta({ id: 'School' });
export type School = z.infer<typeof schoolSchema>;

/** PATCH /api/school */
export const schoolUpdateBody = z.object({ name: requiredText(SCHOOL_NAME_MAX) });
export type SchoolUpdateBody = z.infer<typeof schoolUpdateBody>;

/**
 * GET /api/school/dashboard: the school's figures in APP_TIMEZONE. `active_students`: students
 * with at least one practice session in the last 7 days (today included); weeks Monday–Sunday,
 * oldest first, the current week last.
 */
export const schoolDashboardSchema = z
  .object({
    school: schoolSchema,
    teachers: z.object({ active: z.number().int(), deactivated: z.number().int() }),
    students: z.object({ total: z.number().int(), active: z.number().int() }),
    guardians: z.number().int(),
    weeks: z.array(
      z.object({
        /** Monday of the week, YYYY-MM-DD. */
        week_start: z.string(),
        practice_minutes: z.number(),
        tasks_completed: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'SchoolDashboard' });
export type SchoolDashboard = z.infer<typeof schoolDashboardSchema>;

/** One teacher of the school, for the administrator. */
export const schoolTeacherSchema = z
  .object({
    id,
    name: z.string(),
    email: emailText,
    active: z.boolean(),
    deactivated_at: z.string().nullable(),
    student_count: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: 'SchoolTeacher' });
export type SchoolTeacher = z.infer<typeof schoolTeacherSchema>;

/** GET /api/school/teachers: every teacher of the school by name, deactivated ones included. */
export const schoolTeacherListResponse = z.object({ data: z.array(schoolTeacherSchema) }).meta({ id: 'SchoolTeacherList' });
export type SchoolTeacherListResponse = z.infer<typeof schoolTeacherListResponse>;

/** One student of the school, for the administrator. */
export const schoolStudentSchema = z
  .object({
    id,
    name: z.string(),
    email: emailText,
    teacher: z.object({ id, name: z.string(), active: z.boolean() }),
    guardian_count: z.number().int(),
    created_at: z.string(),
  })
  .meta({ id: 'SchoolStudent' });
export type SchoolStudent = z.infer<typeof schoolStudentSchema>;

/** GET /api/school/students query: `q` filters by name or e-mail (case-insensitive), `teacher_id` by teacher. */
export const schoolStudentListQuery = z.strictObject({
  language: languageQuery,
  q: z.string().trim().max(120).optional(),
  teacher_id: wholeNumberText(z.number().int().positive().max(2147483647)).optional(),
});
export type SchoolStudentListQuery = z.infer<typeof schoolStudentListQuery>;

/** GET /api/school/students: the school's students by name. */
export const schoolStudentListResponse = z.object({ data: z.array(schoolStudentSchema) }).meta({ id: 'SchoolStudentList' });
export type SchoolStudentListResponse = z.infer<typeof schoolStudentListResponse>;

/** POST /api/school/students/{id}/move: the student, with all their tasks, sessions and recordings, goes to another active teacher of the school. */
export const studentMoveBody = z.object({ teacher_id: z.number().int().positive().max(2147483647) });
export type StudentMoveBody = z.infer<typeof studentMoveBody>;

/** An invitation (a one-time link to set a password). `url` is only in the answer that created it. */
export const inviteSchema = z
  .object({
    id,
    kind: z.enum(['teacher', 'guardian']),
    name: z.string(),
    email: emailText,
    /** The students a guardian invitation gives access to. */
    students: z.array(z.object({ id, name: z.string() })),
    created_at: z.string(),
    expires_at: z.string(),
    state: z.enum(['open', 'accepted', 'expired', 'revoked']),
    created_by: z.string().nullable(),
  })
  .meta({ id: 'Invite' });
export type Invite = z.infer<typeof inviteSchema>;

/** The answer that creates an invitation: the link to hand over (shown to copy; also e-mailed when SMTP is configured). */
export const inviteCreatedSchema = inviteSchema
  .extend({
    url: z.string(),
    /** True when the link was also sent by e-mail. */
    emailed: z.boolean(),
  })
  .meta({ id: 'InviteCreated' });
export type InviteCreated = z.infer<typeof inviteCreatedSchema>;

/** POST /api/school/invites: invite a teacher. */
export const teacherInviteBody = z.object({ name: personName, email });
export type TeacherInviteBody = z.infer<typeof teacherInviteBody>;

/** GET /api/school/invites: the school's invitations, newest first (teacher and guardian). */
export const inviteListResponse = z.object({ data: z.array(inviteSchema) }).meta({ id: 'InviteList' });
export type InviteListResponse = z.infer<typeof inviteListResponse>;

/** GET /api/invites/{token} (public): what the invitation is for, so that the page can greet. 404 for an unknown, used, revoked or expired link. */
export const invitePublicSchema = z
  .object({
    kind: z.enum(['teacher', 'guardian']),
    name: z.string(),
    email: emailText,
    school: z.string(),
    students: z.array(z.string()),
    expires_at: z.string(),
  })
  .meta({ id: 'InvitePublic' });
export type InvitePublic = z.infer<typeof invitePublicSchema>;

export const inviteTokenParams = z.object({ token: z.string().max(100) });

/** POST /api/invites/{token}/accept (public): sets the password and signs in (answer as POST /api/login). */
export const inviteAcceptBody = z.object({
  password: newPasswordText,
});
export type InviteAcceptBody = z.infer<typeof inviteAcceptBody>;

export type AuditAction = (typeof auditActions)[number];

export const auditEntrySchema = z
  .object({
    id,
    created_at: z.string(),
    actor: z.object({ id: id.nullable(), name: z.string(), role: z.string() }),
    action: z.enum(auditActions),
    target: z.object({ type: z.string(), id: id.nullable(), name: z.string().nullable() }).nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** GET /api/school/audit-log query: `before` (an entry id) pages back. */
export const auditLogQuery = z.strictObject({
  language: languageQuery,
  before: wholeNumberText(z.number().int().positive()).optional(),
});

/** GET /api/school/audit-log: newest first, AUDIT_PAGE_SIZE per page; `next_before` is null on the last page. */
export const auditLogResponse = z.object({ data: z.array(auditEntrySchema), next_before: id.nullable() }).meta({ id: 'AuditLog' });
export type AuditLogResponse = z.infer<typeof auditLogResponse>;

/** POST /api/school/students/{id}/erase answer: what was erased (the student row and everything hanging on it, their files, guardian accounts left without a child). */
export const studentErasedSchema = z
  .object({
    erased: z.object({
      tasks: z.number().int(),
      practice_sessions: z.number().int(),
      recordings: z.number().int(),
      files: z.number().int(),
      guardian_accounts: z.number().int(),
    }),
    /** Backups made before now still hold the student until they are deleted (docs/deploy.md). */
    backups_note: z.string(),
  })
  .meta({ id: 'StudentErased' });
export type StudentErased = z.infer<typeof studentErasedSchema>;

/** POST /api/school/students/{id}/erase body: the student's name typed again, so that an erasure is never a slip. */
export const studentEraseBody = z.object({ confirm_name: requiredText(STUDENT_NAME_MAX) });
export type StudentEraseBody = z.infer<typeof studentEraseBody>;

/**
 * GET /api/school/students/{id}/export: everything stored about the student as one zip download
 * (Content-Disposition: attachment): `student.json` (profile without the password, courses, every
 * task with feedback and scores, practice sessions, recordings' metadata and comments and what the app
 * heard in each (`analysis`: the pitch track as base64 and the report, or null; docs/decisions/listening.md), guardians,
 * the calendar address's existence; ISO 8601 dates) and `recordings/<id>-<name>` with each
 * recording's file (a recording whose file is gone has `file: null`).
 */
export const studentExportResponses = {
  200: {
    description: 'The zip: student.json and the recordings\' files.',
    content: { 'application/zip': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
  },
  ...errorResponsesOf(401, 403, 404),
};
