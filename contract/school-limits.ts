/**
 * The school administration's limits and audit actions (contract/school.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

export const SCHOOL_NAME_MAX = 120;

/** `/einladung/{token}`: the secret of an invitation link (32 random bytes, base64url). */
export const INVITE_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';

/** Weeks of the dashboard's practice-minutes series. */
export const SCHOOL_WEEKS = 8;

/** The actions of the audit log. */
export const auditActions = [
  'admin.sign_in',
  'invite.create',
  'invite.revoke',
  'invite.accept',
  'teacher.deactivate',
  'teacher.reactivate',
  'student.move',
  'student.export',
  'student.erase',
  'student.delete',
  'student.password_reset',
  'student.email_change',
  'calendar.renew',
  'guardian.link',
  'guardian.remove',
  'task.reopen',
  'school.rename',
  'school.storage_quota',
  'account.password_reset',
  'message.delete',
  'school.message_retention',
] as const;
