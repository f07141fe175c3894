import { sql } from 'drizzle-orm';
import { rows, type Db, type DbOrTx } from '../db/client';
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

/**
 * audit() for an action a person may repeat many times in a row (a task marked done and taken
 * back in a loop): while an entry of the same actor, action and `details[key]` is younger than
 * `seconds` (by the database clock), that entry counts the repetition in `details.repeats` and no
 * row is added. So the log grows by at most one row per actor, key and window, and still says how
 * often it happened. Call it where the change's own row is locked, so two repetitions cannot both
 * find no entry. docs/decisions/done-means-practised.md.
 */
export async function auditRepeatable(
  db: DbOrTx,
  actor: Actor,
  action: AuditAction,
  target: AuditTarget,
  details: Record<string, string | number>,
  o: { key: string; seconds: number },
): Promise<void> {
  const value = details[o.key];
  if (value === undefined) throw new Error(`auditRepeatable: details.${o.key} is missing`);
  const counted = await rows<{ id: number }>(
    db,
    sql`update audit_log set details = jsonb_set(details, '{repeats}', to_jsonb(coalesce((details->>'repeats')::int, 0) + 1))
      where id = (select id from audit_log
        where school_id = ${actor.schoolId} and created_at > now() - make_interval(secs => ${o.seconds})
          and actor_id = ${actor.id} and action = ${action} and details->>(${o.key}::text) = ${String(value)}
        order by created_at desc, id desc limit 1)
      returning id`,
  );
  if (counted.length === 0) await audit(db, actor, action, target, details);
}
