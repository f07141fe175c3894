import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rows } from '../../db/client';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';

/**
 * Every destructive or security-relevant change is audited, whoever makes it, and by id; deleting
 * a student (the administrator's erasure or the teacher's deletion) leaves no name or address of
 * the student or their parents anywhere in the database (docs/decisions/schools-and-roles.md,
 * "Erasure forgets names").
 */
let t: TestApp;
withTestApp((app) => {
  t = app;
});

type Call = { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; who?: TestUser | null; payload?: unknown; headers?: Record<string, string> };
const call = ({ method, url, who, payload, headers }: Call) =>
  t.app.inject({ method, url, headers: { ...(who ? who.headers : {}), ...(headers ?? {}) }, ...(payload !== undefined ? { payload: payload as string } : {}) });

type Entry = { id: number; actor_id: number | null; actor_name: string; action: string; target_type: string | null; target_id: number | null; target_name: string | null; details: unknown };
const entries = (schoolId: number, action?: string) =>
  rows<Entry>(
    t.db,
    sql`select id, actor_id, actor_name, action, target_type, target_id, target_name, details from audit_log
         where school_id = ${schoolId}${action ? sql` and action = ${action}` : sql``} order by id`,
  );

async function school() {
  const s = await t.school();
  const admin = await t.admin({ schoolId: s.id });
  const teacher = await t.teacher({ schoolId: s.id });
  const otherTeacher = await t.teacher({ schoolId: s.id });
  return { school: s, admin, teacher, otherTeacher };
}

/** Signs in through the API (the student's own token). */
async function signIn(email: string, password: string): Promise<TestUser & { token: string }> {
  const res = await call({ method: 'POST', url: '/api/login', payload: { email, password } });
  expect(res.statusCode, res.body).toBe(200);
  const b = res.json<{ token: string; user: { id: number; name: string; email: string; role: 'student' } }>();
  return { id: b.user.id, schoolId: 0, name: b.user.name, email: b.user.email, role: b.user.role, token: b.token, headers: { authorization: `Bearer ${b.token}` } };
}

describe('audited, whoever makes the change', () => {
  it("a teacher's password reset and e-mail change of a student: by id, without the password or any address; nothing for an edit without them", async () => {
    const w = await school();
    const student = await t.student(w.teacher, { name: 'Lena Audit' });
    const base = { name: 'Lena Audit', email: student.email };
    // another teacher's student: 404, nothing written
    expect((await call({ method: 'PUT', url: `/api/students/${student.id}`, who: w.otherTeacher, payload: { ...base, password: 'neues-passwort-1' } })).statusCode).toBe(404);
    // a name change alone is not security-relevant
    expect((await call({ method: 'PUT', url: `/api/students/${student.id}`, who: w.teacher, payload: { ...base, name: 'Lena Audit-Neu', password: '' } })).statusCode).toBe(200);
    expect(await entries(w.school.id)).toEqual([]);

    expect((await call({ method: 'PUT', url: `/api/students/${student.id}`, who: w.teacher, payload: { ...base, password: 'neues-passwort-1' } })).statusCode).toBe(200);
    const newEmail = `lena-neu-${randomBytes(3).toString('hex')}@example.test`;
    expect((await call({ method: 'PUT', url: `/api/students/${student.id}`, who: w.teacher, payload: { ...base, email: newEmail.toUpperCase() } })).statusCode).toBe(200);
    // the same address in other letters is no change
    expect((await call({ method: 'PUT', url: `/api/students/${student.id}`, who: w.teacher, payload: { ...base, email: newEmail } })).statusCode).toBe(200);

    const log = await entries(w.school.id);
    expect(log.map((e) => e.action)).toEqual(['student.password_reset', 'student.email_change']);
    for (const e of log) expect(e).toMatchObject({ actor_id: w.teacher.id, actor_name: w.teacher.name, target_type: 'user', target_id: student.id, target_name: null, details: null });
    const text = JSON.stringify(log).toLowerCase();
    for (const secret of ['neues-passwort-1', student.email.toLowerCase(), newEmail]) expect(text).not.toContain(secret);
    // the administrator sees the student's current name by id
    const shown = (await call({ method: 'GET', url: '/api/school/audit-log', who: w.admin })).json<{ data: Array<{ action: string; target: { name: string | null } }> }>();
    expect(shown.data.map((e) => [e.action, e.target.name])).toEqual([
      ['student.email_change', 'Lena Audit'],
      ['student.password_reset', 'Lena Audit'],
    ]);
  });

  it("a teacher's deletion of a student, with the counts and the deleted guardian accounts' ids", async () => {
    const w = await school();
    const student = await t.student(w.teacher, { name: 'Tom Weg' });
    const sibling = await t.student(w.teacher);
    const onlyChild = await t.guardian([student]);
    await t.guardian([student, sibling]);
    const exercise = await t.exercise(w.teacher);
    await t.submission(student, w.teacher, exercise);
    expect((await call({ method: 'DELETE', url: `/api/students/${student.id}`, who: w.otherTeacher })).statusCode).toBe(404);
    expect(await entries(w.school.id, 'student.delete')).toEqual([]);
    expect((await call({ method: 'DELETE', url: `/api/students/${student.id}`, who: w.teacher })).statusCode).toBe(204);
    const [e] = await entries(w.school.id, 'student.delete');
    expect(e).toMatchObject({ actor_id: w.teacher.id, actor_name: w.teacher.name, target_type: 'user', target_id: student.id, target_name: null });
    expect(e!.details).toEqual({ tasks: 1, practice_sessions: 0, recordings: 0, guardian_accounts: 1, guardian_account_ids: [onlyChild.id] });
  });

  it('a renewed calendar address, by whoever renews it (a student: by id, the name shown while the account exists)', async () => {
    const w = await school();
    const student = await t.student(w.teacher, { name: 'Kai Kalender' });
    for (const who of [student, w.teacher]) expect((await call({ method: 'POST', url: '/api/calendar-subscription/renew', who })).statusCode).toBe(200);
    // asking for the address is no change
    expect((await call({ method: 'GET', url: '/api/calendar-subscription', who: student })).statusCode).toBe(200);
    const log = await entries(w.school.id, 'calendar.renew');
    expect(log.map((e) => [e.actor_id, e.actor_name, e.target_id, e.target_name])).toEqual([
      [student.id, '', student.id, null],
      [w.teacher.id, w.teacher.name, w.teacher.id, null],
    ]);
    const shown = (await call({ method: 'GET', url: '/api/school/audit-log', who: w.admin })).json<{ data: Array<{ actor: { name: string }; target: { name: string } }> }>();
    expect(shown.data.map((e) => [e.actor.name, e.target.name])).toEqual([
      [w.teacher.name, w.teacher.name],
      ['Kai Kalender', 'Kai Kalender'],
    ]);
    expect((await call({ method: 'POST', url: '/api/calendar-subscription/renew' })).statusCode).toBe(401);
  });
});

/** Every text and json column of every table, searched for each needle (case-insensitive). */
async function findAnywhere(needles: string[]): Promise<string[]> {
  const columns = await rows<{ table_schema: string; table_name: string; column_name: string }>(
    t.db,
    sql`select c.table_schema, c.table_name, c.column_name
          from information_schema.columns c join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name
         where c.table_schema not in ('pg_catalog', 'information_schema') and tb.table_type = 'BASE TABLE'
           and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')`,
  );
  expect(columns.length).toBeGreaterThan(20);
  const hits: string[] = [];
  for (const c of columns) {
    for (const needle of needles) {
      const [r] = await rows<{ n: number }>(
        t.db,
        sql`select count(*)::int as n from ${sql.identifier(c.table_schema)}.${sql.identifier(c.table_name)}
             where strpos(lower(${sql.identifier(c.column_name)}::text), ${needle.toLowerCase()}) > 0`,
      );
      if (r!.n > 0) hits.push(`${c.table_name}.${c.column_name}: ${needle} (${r!.n})`);
    }
  }
  return hits;
}

/**
 * A student with a life through the API: created by the teacher, an accepted parent invitation,
 * an open one for a grandparent, a parent who also follows a sibling, a new password and address,
 * an export, a failed sign-in, a renewed calendar address.
 */
async function family(w: Awaited<ReturnType<typeof school>>) {
  const tag = randomBytes(4).toString('hex');
  const p = {
    student: `Zora Vergessen ${tag}`,
    firstEmail: `zora-erst-${tag}@example.test`,
    email: `zora-${tag}@example.test`,
    parent: `Paul Elternteil ${tag}`,
    parentEmail: `paul-${tag}@example.test`,
    grandma: `Oma Offen ${tag}`,
    grandmaEmail: `oma-${tag}@example.test`,
    both: `Berta Beide ${tag}`,
    bothEmail: `berta-${tag}@example.test`,
  };
  const created = await call({ method: 'POST', url: '/api/students', who: w.teacher, payload: { name: p.student, email: p.firstEmail, password: 'zora-passwort-1' } });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json<{ id: number }>().id;
  const sibling = await t.student(w.teacher, { name: `Geschwister ${tag}` });
  // the parent: invited by the teacher, accepted
  const invited = await call({ method: 'POST', url: `/api/students/${id}/guardians`, who: w.teacher, payload: { name: p.parent, email: p.parentEmail } });
  expect(invited.statusCode, invited.body).toBe(201);
  const token = invited.json<{ invite: { url: string } }>().invite.url.split('/einladung/')[1]!;
  const accepted = await call({ method: 'POST', url: `/api/invites/${token}/accept`, payload: { password: 'paul-passwort-1' } });
  expect(accepted.statusCode, accepted.body).toBe(200);
  const parentId = accepted.json<{ user: { id: number } }>().user.id;
  // a grandmother invited, never accepted
  expect((await call({ method: 'POST', url: `/api/students/${id}/guardians`, who: w.teacher, payload: { name: p.grandma, email: p.grandmaEmail } })).statusCode).toBe(201);
  // a parent of both children, linked through the invitation for the sibling and then this one
  const bothInvite = await call({ method: 'POST', url: `/api/students/${sibling.id}/guardians`, who: w.teacher, payload: { name: p.both, email: p.bothEmail } });
  const bothToken = bothInvite.json<{ invite: { url: string } }>().invite.url.split('/einladung/')[1]!;
  expect((await call({ method: 'POST', url: `/api/invites/${bothToken}/accept`, payload: { password: 'berta-passwort-1' } })).statusCode).toBe(200);
  expect((await call({ method: 'POST', url: `/api/students/${id}/guardians`, who: w.teacher, payload: { name: p.both, email: p.bothEmail } })).statusCode).toBe(201);
  // the teacher sets a new password and address
  expect((await call({ method: 'PUT', url: `/api/students/${id}`, who: w.teacher, payload: { name: p.student, email: p.email, password: 'zora-passwort-2' } })).statusCode).toBe(200);
  // the student signs in (once wrongly), practises, renews the calendar address
  expect((await call({ method: 'POST', url: '/api/login', payload: { email: p.email, password: 'falsch-falsch' } })).statusCode).toBe(401);
  const me = await signIn(p.email, 'zora-passwort-2');
  const exercise = await t.exercise(w.teacher);
  const task = await t.submission({ id }, w.teacher, exercise);
  expect((await call({ method: 'POST', url: `/api/submissions/${task.id}/practice-sessions/start`, who: me, headers: { 'idempotency-key': `k-${tag}` } })).statusCode).toBe(201);
  expect((await call({ method: 'POST', url: '/api/calendar-subscription/renew', who: me })).statusCode).toBe(200);
  // the administrator moves and exports the student
  expect((await call({ method: 'POST', url: `/api/school/students/${id}/move`, who: w.admin, payload: { teacher_id: w.otherTeacher.id } })).statusCode).toBe(200);
  expect((await call({ method: 'POST', url: `/api/school/students/${id}/move`, who: w.admin, payload: { teacher_id: w.teacher.id } })).statusCode).toBe(200);
  expect((await call({ method: 'GET', url: `/api/school/students/${id}/export`, who: w.admin })).statusCode).toBe(200);
  const needles = [p.student, p.firstEmail, p.email, p.parent, p.parentEmail, p.grandma, p.grandmaEmail];
  // the test can fail: before the deletion every needle is found
  expect((await findAnywhere(needles)).length).toBeGreaterThanOrEqual(needles.length);
  return { id, parentId, sibling, p, needles };
}

describe('deleting a student forgets their names and addresses', () => {
  it("the administrator's erasure: nothing of the student or their parents' names and addresses remains; who erased which ids, when, does", async () => {
    const w = await school();
    const f = await family(w);
    const before = await entries(w.school.id);
    const res = await call({ method: 'POST', url: `/api/school/students/${f.id}/erase`, who: w.admin, payload: { confirm_name: f.p.student } });
    expect(res.statusCode, res.body).toBe(200);
    expect(await findAnywhere(f.needles)).toEqual([]);

    const after = await entries(w.school.id);
    // every earlier entry is still there, with its action, ids and time
    expect(after.slice(0, before.length).map((e) => [e.id, e.action, e.target_type, e.target_id])).toEqual(before.map((e) => [e.id, e.action, e.target_type, e.target_id]));
    const erase = after.at(-1)!;
    expect(erase).toMatchObject({ action: 'student.erase', actor_id: w.admin.id, actor_name: w.admin.name, target_type: 'user', target_id: f.id, target_name: null });
    expect(erase.details).toMatchObject({ guardian_accounts: 1, guardian_account_ids: [f.parentId] });
    // the parent of both children keeps their account, name and the sibling
    expect((await findAnywhere([f.p.both, f.p.bothEmail])).length).toBeGreaterThan(0);
    // the administrator's lists: no invitation of the family left but the other parent's
    const invites = (await call({ method: 'GET', url: '/api/school/invites', who: w.admin })).json<{ data: Array<{ name: string; state: string }> }>().data;
    expect(invites.map((i) => i.name)).toEqual([f.p.both]);
    const log = (await call({ method: 'GET', url: '/api/school/audit-log', who: w.admin })).json<{ data: Array<{ action: string; target: { id: number | null; name: string | null } | null }> }>();
    expect(log.data[0]).toMatchObject({ action: 'student.erase', target: { id: f.id, name: null } });
  });

  it("the teacher's deletion forgets them the same way", async () => {
    const w = await school();
    const f = await family(w);
    expect((await call({ method: 'DELETE', url: `/api/students/${f.id}`, who: w.teacher })).statusCode).toBe(204);
    expect(await findAnywhere(f.needles)).toEqual([]);
    const [del] = await entries(w.school.id, 'student.delete');
    expect(del).toMatchObject({ actor_id: w.teacher.id, target_id: f.id, target_name: null, details: expect.objectContaining({ guardian_account_ids: [f.parentId] }) });
  });
});
