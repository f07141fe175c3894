import type { Db } from '../db/client';
import { auditLog } from '../db/schema/index';
import type { AuditAction } from '../../contract/school';

/** Who did it: a signed-in user (AuthUser) or a users row. */
export type Actor = { id: number; schoolId: number; name: string; role: string };
export type AuditTarget = { type: 'user' | 'invite' | 'school'; id: number | null; name: string | null } | null;

/**
 * Writes one entry of the school's audit log (issue 19): who (copied, so it outlives the account),
 * what, on whom, when. Call it inside the transaction of the change it records, so that an entry
 * exists exactly when the change does.
 */
export async function audit(db: Pick<Db, 'insert'>, actor: Actor, action: AuditAction, target: AuditTarget, details: Record<string, unknown> | null = null): Promise<void> {
  await db.insert(auditLog).values({
    schoolId: actor.schoolId,
    actorId: actor.id,
    actorName: actor.name,
    actorRole: actor.role,
    action,
    targetType: target?.type ?? null,
    targetId: target?.id ?? null,
    targetName: target?.name ?? null,
    details,
  });
}
