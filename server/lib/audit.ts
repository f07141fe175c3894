import type { Db } from '../db/client';
import { auditLog } from '../db/schema/index';
import type { AuditAction } from '@contract/school';

/** Who did it: a signed-in user (AuthUser) or a users row. */
export type Actor = { id: number; schoolId: number; name: string; role: string };
export type AuditTarget = { type: 'user' | 'invite' | 'school'; id: number | null; name: string | null } | null;

/**
 * Writes one entry of the school's audit log (docs/decisions/schools-and-roles.md): who, what, on whom, when. Call it inside
 * the transaction of the change it records, so that an entry exists exactly when the change does.
 *
 * The name of a staff actor (administrator, teacher) is copied, so that it outlives the account; a
 * student's or guardian's is not: their accounts are erased with their data, and the log shows
 * their current name by id while they exist (docs/decisions/schools-and-roles.md, "Erasure forgets
 * names"). New entries about a student or guardian name them by id only (`target.name` null).
 */
export async function audit(db: Pick<Db, 'insert'>, actor: Actor, action: AuditAction, target: AuditTarget, details: Record<string, unknown> | null = null): Promise<void> {
  await db.insert(auditLog).values({
    schoolId: actor.schoolId,
    actorId: actor.id,
    actorName: actor.role === 'student' || actor.role === 'guardian' ? '' : actor.name,
    actorRole: actor.role,
    action,
    targetType: target?.type ?? null,
    targetId: target?.id ?? null,
    targetName: target?.name ?? null,
    details,
  });
}
