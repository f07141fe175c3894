import type { Db, DbOrTx } from '../../db/client';
import { tokens } from '../../db/schema/index';
import { conflict, invalid, notFound, type Msg } from '../../errors';
import { forgetUser, hashToken, newToken, type AuthUser, type Role } from '../../lib/auth';
import { audit, type Actor } from '../../lib/audit';
import { hashPassword } from '../../lib/passwords';
import { INVITE_TOKEN_PATTERN, INVITE_VALID_DAYS, type Invite, type InviteCreated, type InvitePublic } from '@contract/school';
import type { LoginResponse } from '@contract/auth';
import { passwordTooShort } from '@contract/students';
import { PASSWORD_MIN_LENGTH } from '@contract/constants';
import { toUser } from '../auth/auth.service';
import type { Mailer } from '../../lib/mail';
import {
  accountWithEmail,
  findInviteForUpdate,
  findOpenInviteByHash,
  findSchool,
  insertInvite,
  insertMember,
  linkGuardian,
  listInvites,
  lockEmail,
  markInviteAccepted,
  markInviteRevoked,
  openInviteWithEmail,
  studentsOfSchool,
  type InviteListRow,
  type InviteRow,
} from './school.repo';

/**
 * Invitations (docs/decisions/schools-and-roles.md): a one-time link `/einladung/{token}` that lets a new teacher or guardian
 * set a password. The token is 32 random bytes (base64url, 43 characters); only its SHA-256 is
 * stored. It is valid INVITE_VALID_DAYS days, once. Used by the school administration (teacher
 * invitations) and by the guardians module (guardian invitations).
 */

export const inviteMessages = {
  emailHasAccount: {
    de: 'Zu dieser E-Mail-Adresse gibt es bereits ein Konto.',
    tr: 'Bu e-posta adresine ait bir hesap zaten var.',
  },
  emailInvited: {
    de: 'An diese E-Mail-Adresse wurde bereits eine Einladung geschickt, die noch offen ist.',
    tr: 'Bu e-posta adresine gönderilmiş ve henüz açık olan bir davet zaten var.',
  },
  notOpen: {
    de: 'Diese Einladung ist nicht mehr offen (angenommen, abgelaufen oder zurückgezogen).',
    tr: 'Bu davet artık açık değil (kabul edilmiş, süresi dolmuş veya geri çekilmiş).',
  },
  passwordTooShort: {
    de: `Das Passwort muss mindestens ${PASSWORD_MIN_LENGTH} Zeichen lang sein.`,
    tr: `Şifre en az ${PASSWORD_MIN_LENGTH} karakter olmalıdır.`,
  },
  /** The link is unknown, used, revoked or expired (all alike: the link reveals nothing). */
  linkInvalid: {
    de: 'Dieser Einladungslink ist ungültig oder abgelaufen. Bitte bitten Sie um eine neue Einladung.',
    tr: 'Bu davet bağlantısı geçersiz veya süresi dolmuş. Lütfen yeni bir davet isteyin.',
  },
} satisfies Record<string, Msg>;

const TOKEN_RE = new RegExp(INVITE_TOKEN_PATTERN);
const DAY_MS = 24 * 60 * 60 * 1000;

export function inviteState(row: Pick<InviteRow, 'accepted_at' | 'revoked_at' | 'expires_at'>, now = new Date()): Invite['state'] {
  if (row.accepted_at) return 'accepted';
  if (row.revoked_at) return 'revoked';
  if (row.expires_at.getTime() <= now.getTime()) return 'expired';
  return 'open';
}

/** An invitation row as the API shows it (never the link: only the answer that creates it carries `url`). */
export function toInvite(row: InviteRow, students: Array<{ id: number; name: string }>, createdByName: string | null): Invite {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    email: row.email,
    students,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    state: inviteState(row),
    created_by: createdByName,
  };
}

const listed = (r: InviteListRow): Invite => toInvite(r, r.students, r.created_by_name);

/** A drizzle transaction (it can roll back), as opposed to the database handle. */
function isTransaction(db: DbOrTx): boolean {
  return typeof (db as { rollback?: unknown }).rollback === 'function';
}

/**
 * Makes an invitation of the actor's school and answers it with its link (`${origin}/einladung/${token}`;
 * the origin from publicOrigin, server/lib/public-url.ts).
 * 409 when the e-mail belongs to an account (any school: e-mails are unique) or to an open
 * invitation of the school. A guardian invitation keeps those of `studentIds` that are students of
 * the school (the caller checks that the actor may name them). Audited as 'invite.create'.
 *
 * Pass the database handle (not a transaction) and the mail, when a mailer is configured, goes
 * out after the invitation is committed; called inside a transaction of yours, the checks, the row
 * and the audit entry join it and the mail is sent before your commit. A failed send is logged and
 * answers `emailed: false`: the invitation stays, its link is shown to copy.
 */
export async function createInvite(
  tx: Db | DbOrTx,
  actor: Pick<AuthUser, 'id' | 'schoolId' | 'name' | 'role'>,
  o: { kind: 'teacher' | 'guardian'; name: string; email: string; studentIds: number[] },
  origin: string,
  mailer: Mailer | null,
): Promise<InviteCreated> {
  const token = newToken();
  const work = async (db: DbOrTx) => {
    // Two invitations for one address at once: the second waits and then sees the first.
    await lockEmail(db, o.email);
    if (await accountWithEmail(db, o.email)) throw conflict(inviteMessages.emailHasAccount);
    if (await openInviteWithEmail(db, actor.schoolId, o.email)) throw conflict(inviteMessages.emailInvited);
    const students = o.kind === 'guardian' ? await studentsOfSchool(db, actor.schoolId, [...new Set(o.studentIds)]) : [];
    const row = await insertInvite(db, {
      schoolId: actor.schoolId,
      kind: o.kind,
      name: o.name,
      email: o.email,
      tokenHash: hashToken(token),
      studentIds: students.map((s) => s.id),
      createdBy: actor.id,
      expiresAt: new Date(Date.now() + INVITE_VALID_DAYS * DAY_MS),
    });
    await audit(db, actor, 'invite.create', { type: 'invite', id: row.id, name: row.name }, {
      kind: row.kind,
      email: row.email,
      ...(o.kind === 'guardian' ? { students: students.map((s) => s.name) } : {}),
      expires_at: row.expires_at.toISOString(),
    });
    const school = (await findSchool(db, actor.schoolId))?.name ?? '';
    return { row, students, school };
  };
  const { row, students, school } = isTransaction(tx) ? await work(tx) : await (tx as Db).transaction(work);
  const url = `${origin}/einladung/${token}`;
  const emailed = mailer
    ? await mailer.sendInvite({
        to: row.email,
        name: row.name,
        kind: row.kind,
        school,
        invitedBy: actor.name,
        url,
        expiresAt: row.expires_at,
        students: students.map((s) => s.name),
      })
    : false;
  return { ...toInvite(row, students, actor.name), url, emailed };
}

/** The school's invitations (teacher and guardian), newest first; optionally only open ones or those naming a student. */
export async function schoolInvites(db: DbOrTx, schoolId: number, f: { studentId?: number; open?: boolean; kind?: 'teacher' | 'guardian' } = {}): Promise<Invite[]> {
  return (await listInvites(db, schoolId, f)).map(listed);
}

/**
 * Revokes an open invitation of the actor's school: its link answers 404 from now on. 404 for an
 * id of another school (or not matching `only`), 409 for one that is no longer open. Audited as
 * 'invite.revoke'.
 */
export async function revokeInvite(db: Db, actor: AuthUser, id: number, only: { kind?: 'teacher' | 'guardian'; studentId?: number } = {}): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await findInviteForUpdate(tx, actor.schoolId, id);
    if (!row) throw notFound();
    if (only.kind && row.kind !== only.kind) throw notFound();
    if (only.studentId !== undefined && !row.student_ids.includes(only.studentId)) throw notFound();
    if (inviteState(row) !== 'open') throw conflict(inviteMessages.notOpen);
    await markInviteRevoked(tx, actor.schoolId, id);
    await audit(tx, actor, 'invite.revoke', { type: 'invite', id: row.id, name: row.name }, { kind: row.kind, email: row.email });
  });
}

/** The open invitation of a link, or 404 (unknown, used, revoked, expired, or not a token at all). */
async function openInvite(db: DbOrTx, token: string, opts: { forUpdate?: boolean } = {}) {
  if (!TOKEN_RE.test(token)) throw notFound(inviteMessages.linkInvalid);
  const row = await findOpenInviteByHash(db, hashToken(token), opts);
  if (!row) throw notFound(inviteMessages.linkInvalid);
  return row;
}

/**
 * The students a guardian invitation still gives access to (those still students of the school). A
 * guardian invitation none of whose children is left has lost its purpose: its link answers 404.
 */
async function childrenOf(db: DbOrTx, row: InviteRow): Promise<Array<{ id: number; name: string }>> {
  if (row.kind !== 'guardian') return [];
  const students = await studentsOfSchool(db, row.school_id, row.student_ids);
  if (students.length === 0) throw notFound(inviteMessages.linkInvalid);
  return students;
}

/** GET /api/invites/{token}: what the link is for, so that the page can greet. */
export async function publicInvite(db: DbOrTx, token: string): Promise<InvitePublic> {
  const row = await openInvite(db, token);
  const students = await childrenOf(db, row);
  return {
    kind: row.kind,
    name: row.name,
    email: row.email,
    school: row.school_name,
    students: students.map((s) => s.name),
    expires_at: row.expires_at.toISOString(),
  };
}

/** A unique-index violation on users.email (an account with the address appeared meanwhile). */
function isEmailUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const pg = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (pg.code === '23505' && (pg.constraint === 'users_email_lower_key' || String(pg.message).includes('users_email_lower_key'))) return true;
  }
  return false;
}

/**
 * POST /api/invites/{token}/accept: sets the password, creates the account with the invitation's
 * role (a guardian also follows the invitation's students that are still students of the school),
 * marks the invitation accepted, audits 'invite.accept' and signs in, all in one transaction. The
 * invitation row is locked: of two accepts of one link exactly one creates an account, the other
 * answers 404 like any used link.
 */
export async function acceptInvite(db: Db, token: string, password: string): Promise<LoginResponse> {
  // Cheap checks first: an unknown link is 404 whatever the password.
  await openInvite(db, token);
  if (passwordTooShort(password)) throw invalid({ password: inviteMessages.passwordTooShort });
  const passwordHash = await hashPassword(password);
  const signIn = newToken();
  let created: { id: number; name: string; email: string; role: Role };
  try {
    created = await db.transaction(async (tx) => {
      const row = await openInvite(tx, token, { forUpdate: true });
      await lockEmail(tx, row.email);
      if (await accountWithEmail(tx, row.email)) throw conflict(inviteMessages.emailHasAccount);
      const role: Role = row.kind;
      const user = await insertMember(tx, { schoolId: row.school_id, role: row.kind, name: row.name, email: row.email, passwordHash });
      const students = await childrenOf(tx, row);
      await linkGuardian(tx, row.school_id, user.id, students.map((s) => s.id));
      await markInviteAccepted(tx, row.school_id, row.id, user.id);
      const actor: Actor = { id: user.id, schoolId: row.school_id, name: row.name, role };
      await audit(tx, actor, 'invite.accept', { type: 'user', id: user.id, name: row.name }, {
        invite_id: row.id,
        role,
        email: row.email,
        ...(row.kind === 'guardian' ? { students: students.map((s) => s.name) } : {}),
      });
      await tx.insert(tokens).values({ userId: user.id, tokenHash: hashToken(signIn) });
      return { id: user.id, name: row.name, email: row.email, role };
    });
  } catch (err) {
    if (isEmailUniqueViolation(err)) throw conflict(inviteMessages.emailHasAccount);
    throw err;
  }
  // A fresh account has nothing cached; said anyway, so that no process keeps an old answer for the id.
  await forgetUser(db, created.id);
  return { token: signIn, user: toUser(created) };
}
