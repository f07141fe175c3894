import { sql, type SQL } from 'drizzle-orm';
import { rows, type DbOrTx } from '../../db/client';
import { json } from './school.repo';

/**
 * What a deleted student leaves behind besides their rows (docs/decisions/schools-and-roles.md,
 * "Erasure forgets names"): the names and e-mail addresses of the student and of the guardian
 * accounts that go with them, copied into invitations, audit entries and the sign-in limiter.
 * Accountability stays: who deleted which account id, and when (the entry of the deletion itself,
 * and every other entry's ids, actions and times).
 */

type Person = { id: number; name: string; email: string };

/** `col in (…ids)`, false for none. */
const inIds = (col: SQL, ids: number[]) => (ids.length ? sql`${col} in (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})` : sql`false`);

/** A text equal to a forgotten name or address (trimmed, case-insensitive). */
function matcher(texts: string[]): (v: string) => boolean {
  const set = new Set(texts.map((t) => t.trim().toLowerCase()).filter((t) => t !== ''));
  return (v) => set.has(v.trim().toLowerCase());
}

/** The value without the forgotten texts: in an object they become null, from a list they go. */
function scrub(value: unknown, forgotten: (v: string) => boolean): unknown {
  if (typeof value === 'string') return forgotten(value) ? null : value;
  if (Array.isArray(value)) return value.filter((v) => !(typeof v === 'string' && forgotten(v))).map((v) => scrub(v, forgotten));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v, forgotten)]));
  return value;
}

/**
 * Called in the transaction that deletes a student (the administrator's erasure or the teacher's
 * deletion), **before** the rows go (the audit log's actor ids and the invitations' accepting
 * user are set null with them). Answers the ids of the guardian accounts that follow only this
 * student (the caller's deletion removes them too). Then:
 * - invitations: the guardian invitations accepted by those accounts, and those naming the student
 *   and no other student of the school that are not accepted, are deleted (their name and address
 *   are the parent's; the open ones could not be accepted any more anyway);
 * - audit entries about any of them (as actor, as target, naming the student's id or one of those
 *   invitations): the actor's name becomes '' and the target's name null (the log shows
 *   "(gelöscht)"), and every text in the details equal to one of their names or addresses goes;
 * - the sign-in limiter's failures counted for their addresses.
 */
export async function forgetStudent(tx: DbOrTx, schoolId: number, studentId: number): Promise<{ guardianIds: number[] }> {
  const people = await rows<Person & { role: string }>(
    tx,
    sql`select u.id, u.name, u.email, u.role from users u
        where u.school_id = ${schoolId}
          and (u.id = ${studentId}
               or (u.role = 'guardian'
                   and exists (select 1 from guardian_links gl where gl.school_id = ${schoolId} and gl.guardian_id = u.id and gl.student_id = ${studentId})
                   and not exists (select 1 from guardian_links gl where gl.school_id = ${schoolId} and gl.guardian_id = u.id and gl.student_id <> ${studentId})))`,
  );
  const ids = people.map((p) => Number(p.id));
  const guardianIds = people.filter((p) => p.role === 'guardian').map((p) => Number(p.id));
  // Invitations of the family: every one naming the student (their ids in audit entries point
  // here), and of those the ones that go.
  const invites = await rows<{ id: number; name: string; email: string; goes: boolean }>(
    tx,
    sql`select i.id, i.name, i.email,
               (${inIds(sql`i.accepted_user_id`, ids)}
                or (i.accepted_at is null
                    and not exists (select 1 from jsonb_array_elements(i.student_ids) x(sid)
                                    join users s on s.id = (x.sid)::int and s.school_id = i.school_id and s.role = 'student'
                                    where (x.sid)::int <> ${studentId}))) as goes
          from invites i
         where i.school_id = ${schoolId} and i.kind = 'guardian'
           and (i.student_ids @> ${JSON.stringify([studentId])}::jsonb or ${inIds(sql`i.accepted_user_id`, ids)})`,
  );
  const inviteIds = invites.map((i) => Number(i.id));
  const going = invites.filter((i) => i.goes);
  const goingIds = new Set(going.map((i) => Number(i.id)));
  const forgotten = matcher([...people.flatMap((p) => [p.name, p.email]), ...going.flatMap((i) => [i.name, i.email])]);

  const entries = await rows<{ id: number | string; actor_id: number | null; actor_name: string; target_type: string | null; target_id: number | null; target_name: string | null; details: unknown }>(
    tx,
    sql`select a.id, a.actor_id, a.actor_name, a.target_type, a.target_id, a.target_name, a.details
          from audit_log a
         where a.school_id = ${schoolId}
           and (${inIds(sql`a.actor_id`, ids)}
                or (a.target_type = 'user' and ${inIds(sql`a.target_id`, ids)})
                or (a.target_type = 'invite' and ${inIds(sql`a.target_id`, inviteIds)})
                or a.details->>'student_id' = ${String(studentId)}
                or ${inviteIds.length ? sql`a.details->>'invite_id' in (${sql.join(inviteIds.map((i) => sql`${String(i)}`), sql`, `)})` : sql`false`})`,
  );
  for (const e of entries) {
    const actorGone = e.actor_id !== null && ids.includes(Number(e.actor_id));
    const targetGone =
      (e.target_type === 'user' && e.target_id !== null && ids.includes(Number(e.target_id))) ||
      (e.target_type === 'invite' && e.target_id !== null && goingIds.has(Number(e.target_id)));
    const details = e.details === null ? null : scrub(json<unknown>(e.details), forgotten);
    // By id: a namesake (another teacher, a sibling's guardian) keeps their name.
    const actorName = actorGone ? '' : e.actor_name;
    const targetName = targetGone ? null : e.target_name;
    await tx.execute(
      sql`update audit_log set actor_name = ${actorName}, target_name = ${targetName}, details = ${details === null ? null : JSON.stringify(details)}::jsonb
           where id = ${Number(e.id)} and school_id = ${schoolId}`,
    );
  }
  if (going.length) await tx.execute(sql`delete from invites where school_id = ${schoolId} and ${inIds(sql`id`, [...goingIds])}`);
  // The limiter's key of an address: 'e|{ip}|{lower(email)}' (server/modules/auth/auth.service.ts).
  for (const p of people) {
    const email = p.email.toLowerCase();
    await tx.execute(sql`delete from sign_in_failures where key like 'e|%' and right(key, ${email.length + 1}) = ${`|${email}`}`);
  }
  return { guardianIds };
}
