import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../../db/client';
import { mediaFiles } from '../../db/schema/index';
import { todayInZone } from '../../lib/time';
import { staffPng } from '../media/sample-files';
import { makeWav } from '../recordings/sample-recordings';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import type { GuardianChild, GuardianChildDetail, StudentGuardiansResponse } from '@contract/guardians';

const TZ = 'Europe/Berlin';
let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp({ APP_TIMEZONE: TZ });
});
afterAll(async () => {
  await t.close();
});

const NONEXISTENT = 2147483000;
const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 864e5).toISOString().slice(0, 10);
const today = () => todayInZone(TZ);

const call = (who: { headers: Record<string, string> } | null, o: { method?: string; url: string; payload?: unknown }) =>
  t.app.inject({ method: (o.method ?? 'GET') as 'GET', url: o.url, headers: who?.headers ?? {}, ...(o.payload !== undefined ? { payload: o.payload as string } : {}) });

const guardiansOf = (who: TestUser, studentId: number) => call(who, { url: `/api/students/${studentId}/guardians` });
const addGuardian = (who: TestUser, studentId: number, body: { name: string; email: string }, lang = 'de') =>
  call(who, { method: 'POST', url: `/api/students/${studentId}/guardians?language=${lang}`, payload: body });
const removeGuardian = (who: TestUser, studentId: number, guardianId: number) =>
  call(who, { method: 'DELETE', url: `/api/students/${studentId}/guardians/${guardianId}` });
const child = (who: TestUser, id: number) => call(who, { url: `/api/guardian/children/${id}` });

async function auditOf(schoolId: number, action: string) {
  return rows<{ actor_id: number; target_id: number; details: Record<string, unknown> }>(
    t.db,
    sql`select actor_id, target_id, details from audit_log where school_id = ${schoolId} and action = ${action} order by id`,
  );
}

/** A school with its administrator, two teachers and a student of the first. */
async function school() {
  const s = await t.school();
  const admin = await t.admin({ schoolId: s.id });
  const teacher = await t.teacher({ schoolId: s.id });
  const colleague = await t.teacher({ schoolId: s.id });
  const student = await t.student(teacher, { name: `Kind ${randomBytes(3).toString('hex')}`, notes: 'Lehrernotiz-geheim', phone: '0170 999 111' });
  return { id: s.id, admin, teacher, colleague, student };
}

describe('staff: a student’s guardians', () => {
  it('the teacher invites a parent: an invitation link (43-character token) naming the student, listed as open', async () => {
    const s = await school();
    const email = `mama-${randomBytes(3).toString('hex')}@example.test`;
    const res = await addGuardian(s.teacher, s.student.id, { name: 'Mama Demir', email });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.guardian).toBeNull();
    expect(body.invite).toMatchObject({ kind: 'guardian', name: 'Mama Demir', email, state: 'open', students: [{ id: s.student.id, name: s.student.name }] });
    expect(body.invite.url).toMatch(/^https?:\/\/[^/]+\/einladung\/[A-Za-z0-9_-]{43}$/);

    const list = await guardiansOf(s.teacher, s.student.id);
    expect(list.statusCode).toBe(200);
    const l = list.json() as StudentGuardiansResponse;
    expect(l.guardians).toEqual([]);
    expect(l.invites.map((i) => i.email)).toEqual([email]);
    expect(res.body).not.toContain('Lehrernotiz-geheim');

    // the link works: accepting it makes the guardian account that follows the student
    const token = (body.invite.url as string).split('/').pop()!;
    const accepted = await call(null, { method: 'POST', url: `/api/invites/${token}/accept`, payload: { password: 'eltern-passwort-1' } });
    expect(accepted.statusCode).toBe(200);
    const after = (await guardiansOf(s.teacher, s.student.id)).json() as StudentGuardiansResponse;
    expect(after.guardians.map((g) => g.email)).toEqual([email]);
    expect(after.invites).toEqual([]);
    const kids = await call({ headers: { authorization: `Bearer ${accepted.json().token}` } }, { url: '/api/guardian/children' });
    expect(kids.json().data.map((c: GuardianChild) => c.id)).toEqual([s.student.id]);
  });

  it('links an existing guardian of the school at once (any letter case), audited once as guardian.link', async () => {
    const s = await school();
    const sibling = await t.student(s.teacher);
    const parent = await t.guardian([sibling], { name: 'Vater Yilmaz' });
    const res = await addGuardian(s.teacher, s.student.id, { name: 'anders geschrieben', email: parent.email.toUpperCase() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      guardian: { id: parent.id, name: 'Vater Yilmaz', email: parent.email, created_at: expect.stringMatching(/Z$/) },
      invite: null,
    });
    const list = (await guardiansOf(s.teacher, s.student.id)).json() as StudentGuardiansResponse;
    expect(list.guardians.map((g) => g.id)).toEqual([parent.id]);
    expect(list.invites).toEqual([]);
    // the guardian now sees both children
    const kids = (await call(parent, { url: '/api/guardian/children' })).json().data as GuardianChild[];
    expect(kids.map((k) => k.id).sort()).toEqual([s.student.id, sibling.id].sort());
    // again: still linked, nothing new in the log
    expect((await addGuardian(s.teacher, s.student.id, { name: 'x', email: parent.email })).statusCode).toBe(201);
    const entries = await auditOf(s.id, 'guardian.link');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actor_id: s.teacher.id, target_id: parent.id, details: { student_id: s.student.id } });
    expect(await auditOf(s.id, 'invite.create')).toEqual([]);
  });

  it("answers 409 in the caller's language for the e-mail of a teacher, a student, an administrator or another school's guardian, and changes nothing", async () => {
    const s = await school();
    const other = await t.school();
    const otherTeacher = await t.teacher({ schoolId: other.id });
    const foreignGuardian = await t.guardian([await t.student(otherTeacher)]);
    for (const email of [s.colleague.email, s.teacher.email, s.student.email, s.admin.email, foreignGuardian.email]) {
      const de = await addGuardian(s.teacher, s.student.id, { name: 'Jemand', email });
      expect(de.statusCode, email).toBe(409);
      expect(de.json().message).toBe(
        'Diese E-Mail-Adresse gehört bereits zu einem anderen Konto (keinem Elternkonto dieser Schule). Bitte geben Sie eine andere E-Mail-Adresse der Eltern an.',
      );
      const tr = await addGuardian(s.teacher, s.student.id, { name: 'Jemand', email: email.toUpperCase() }, 'tr');
      expect(tr.statusCode).toBe(409);
      expect(tr.json().message).toBe('Bu e-posta adresi zaten başka bir hesaba ait (bu okulun veli hesabı değil). Lütfen velinin başka bir e-posta adresini girin.');
    }
    const [n] = await rows<{ invites: number; links: number }>(
      t.db,
      sql`select (select count(*)::int from invites where school_id = ${s.id}) as invites, (select count(*)::int from guardian_links where school_id = ${s.id}) as links`,
    );
    expect(n).toEqual({ invites: 0, links: 0 });
    // a second invitation to the same address while the first is open: 409 too
    const email = `zweimal-${randomBytes(3).toString('hex')}@example.test`;
    expect((await addGuardian(s.teacher, s.student.id, { name: 'Eins', email })).statusCode).toBe(201);
    expect((await addGuardian(s.admin, s.student.id, { name: 'Zwei', email })).statusCode).toBe(409);
  });

  it('refuses a missing name or a bad e-mail with 422', async () => {
    const s = await school();
    const bad = await addGuardian(s.teacher, s.student.id, { name: ' ', email: 'keine-adresse' });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['email', 'name']);
  });

  it("the school's administrator may do the same; another teacher of the school and another school's staff get 404 like a missing id; students and guardians 403; guests 401", async () => {
    const s = await school();
    const other = await school();
    const parent = await t.guardian([s.student]);
    // the administrator: list, add, remove
    expect((await guardiansOf(s.admin, s.student.id)).json().guardians.map((g: { id: number }) => g.id)).toEqual([parent.id]);
    const added = await addGuardian(s.admin, s.student.id, { name: 'Oma', email: `oma-${randomBytes(3).toString('hex')}@example.test` });
    expect(added.statusCode).toBe(201);
    expect(added.json().invite.url).toMatch(/\/einladung\/[A-Za-z0-9_-]{43}$/);

    const missing = (await guardiansOf(s.teacher, NONEXISTENT)).body;
    for (const who of [s.colleague, other.teacher, other.admin]) {
      const list = await guardiansOf(who, s.student.id);
      expect(list.statusCode).toBe(404);
      expect(list.body).toBe(missing);
      expect((await addGuardian(who, s.student.id, { name: 'X', email: `x-${randomBytes(3).toString('hex')}@example.test` })).statusCode).toBe(404);
      expect((await removeGuardian(who, s.student.id, parent.id)).statusCode).toBe(404);
    }
    for (const who of [s.student, parent]) {
      expect((await guardiansOf(who, s.student.id)).statusCode).toBe(403);
      expect((await removeGuardian(who, s.student.id, parent.id)).statusCode).toBe(403);
    }
    expect((await call(null, { url: `/api/students/${s.student.id}/guardians` })).statusCode).toBe(401);
    // the link survived every refused call
    expect((await child(parent, s.student.id)).statusCode).toBe(200);
    expect((await removeGuardian(s.admin, s.student.id, parent.id)).statusCode).toBe(204);
    const [entry] = await auditOf(s.id, 'guardian.remove');
    expect(entry).toMatchObject({ actor_id: s.admin.id, target_id: parent.id, details: { student_id: s.student.id, account_deleted: true } });
  });

  it("removing stops the guardian's access at once; the account goes with the last child", async () => {
    const s = await school();
    const sibling = await t.student(s.teacher);
    const parent = await t.guardian([s.student, sibling]);
    const rec = await recordingOf(s.student, s.teacher);
    expect((await child(parent, s.student.id)).statusCode).toBe(200);
    expect((await call(parent, { url: `/api/media/${encodeURIComponent(rec.path)}` })).statusCode).toBe(200);

    expect((await removeGuardian(s.teacher, s.student.id, parent.id)).statusCode).toBe(204);
    const gone = await child(parent, s.student.id);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toBe((await child(parent, NONEXISTENT)).body);
    expect((await call(parent, { url: `/api/media/${encodeURIComponent(rec.path)}` })).statusCode).toBe(404);
    expect((await call(parent, { url: '/api/guardian/children' })).json().data.map((c: GuardianChild) => c.id)).toEqual([sibling.id]);
    // removing again: the link is gone
    expect((await removeGuardian(s.teacher, s.student.id, parent.id)).statusCode).toBe(404);
    // a guardian of another student of the teacher, named on this student: 404
    expect((await removeGuardian(s.teacher, s.student.id, (await t.guardian([sibling])).id)).statusCode).toBe(404);

    expect((await removeGuardian(s.teacher, sibling.id, parent.id)).statusCode).toBe(204);
    expect(await rows(t.db, sql`select id from users where id = ${parent.id}`)).toEqual([]);
    expect((await call(parent, { url: '/api/user' })).statusCode).toBe(401);
    const entries = await auditOf(s.id, 'guardian.remove');
    expect(entries.map((e) => e.details.account_deleted)).toEqual([false, true]);
  });
});

/** A finished practice session of `minutes` starting at local noon (APP_TIMEZONE) of `day`, or a running one. */
async function session(student: { id: number }, taskId: number, day: string, minutes: number | null) {
  await t.db.execute(
    sql`insert into practice_sessions (submission_id, student_id, started_at, ended_at, duration_minutes)
        values (${taskId}, ${student.id}, (${day}::date + time '12:00') at time zone ${TZ},
                ${minutes === null ? null : sql`(${day}::date + time '12:00') at time zone ${TZ} + (${minutes})::float8 * interval '1 minute'`}, ${minutes})`,
  );
}

/** A recording of the student on a fresh task (its file stored), with a comment of the teacher when asked. */
async function recordingOf(student: TestUser, teacher: TestUser, o: { comment?: string; feedback?: boolean; createdAt?: string } = {}) {
  const ex = await t.exercise(teacher);
  const task = await t.submission(student, teacher, ex, { dueDate: today() });
  const path = `recordings/${task.id}/${randomBytes(16).toString('hex')}.wav`;
  const wav = makeWav(1500);
  await t.app.deps.storage.putBytes(path, wav);
  const [r] = await rows<{ id: number }>(
    t.db,
    sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms, message, created_at, feedback_at)
        values (${task.id}, ${student.id}, ${teacher.id}, 'audio', 'audio/wav', ${path}, 'take.wav', ${wav.length}, 1500, 'mein Versuch',
                ${o.createdAt ?? new Date().toISOString()}::timestamptz, ${o.feedback ? sql`now()` : null}) returning id`,
  );
  if (o.comment) await t.db.execute(sql`insert into recording_comments (recording_id, teacher_id, at_ms, text) values (${r!.id}, ${teacher.id}, 700, ${o.comment})`);
  return { id: r!.id, path, task };
}

describe('deleting a student', () => {
  it("the teacher deleting a student deletes the guardian accounts that followed only this child, and keeps a sibling's parent", async () => {
    const s = await school();
    const sibling = await t.student(s.teacher);
    const onlyThis = await t.guardian([s.student]);
    const both = await t.guardian([s.student, sibling]);
    const del = await call(s.teacher, { method: 'DELETE', url: `/api/students/${s.student.id}` });
    expect(del.statusCode).toBe(204);
    const left = await rows<{ id: number }>(t.db, sql`select id from users where id in (${onlyThis.id}, ${both.id}) order by id`);
    expect(left.map((r) => r.id)).toEqual([both.id]);
    expect((await call(onlyThis, { url: '/api/guardian/children' })).statusCode).toBe(401);
    const kept = await call(both, { url: '/api/guardian/children' });
    expect(kept.json().data.map((c: GuardianChild) => c.id)).toEqual([sibling.id]);
  });
});

describe('guardian: the children', () => {
  it("sees both children with figures that match a hand count, and each child's tasks in the window, feedback and recordings", async () => {
    const s = await school();
    const d = today();
    const anna = await t.student(s.teacher, { name: 'Anna Kaya', notes: 'nur-fuer-die-lehrerin', phone: '0171 222 333' });
    const berk = await t.student(s.colleague, { name: 'Berk Kaya' });
    const parent = await t.guardian([berk, anna]);
    const ex = await t.exercise(s.teacher, { title: 'Tonleiter G-Dur' });
    const task = (dueDate: string, o: Record<string, unknown> = {}) =>
      t.submission(anna, s.teacher, ex, { dueDate, exerciseTitle: `Aufgabe ${dueDate}`, ...o });
    const open = await task(addDays(d, 2), { teacherNote: 'langsam beginnen' });
    const overdue = await task(addDays(d, -1));
    await task(addDays(d, -5), { expirationDate: addDays(d, -2) }); // expired
    const done = await task(d, { completedAt: new Date(), teacherFeedback: 'Schön gleichmäßig!', accuracyScore: 85, competencyLevel: 'intermediate' });
    await task(addDays(d, -40)); // overdue, outside the window
    await task(addDays(d, 35)); // open, outside the window
    // sessions: today 12.5, yesterday 20, two days ago 7.25 (streak 3); ten days ago and a running one do not count this week
    await session(anna, open.id, d, 12.5);
    await session(anna, overdue.id, addDays(d, -1), 20);
    await session(anna, overdue.id, addDays(d, -2), 7.25);
    await session(anna, overdue.id, addDays(d, -10), 30);
    await session(anna, done.id, d, null);
    const older = await recordingOf(anna, s.teacher, { createdAt: new Date(Date.now() - 3600_000).toISOString() });
    const newer = await recordingOf(anna, s.teacher, { comment: 'Takt 3 etwas ruhiger', feedback: true });

    const list = await call(parent, { url: '/api/guardian/children' });
    expect(list.statusCode).toBe(200);
    const kids = list.json().data as GuardianChild[];
    expect(kids).toEqual([
      {
        id: anna.id,
        name: 'Anna Kaya',
        teacher: { name: s.teacher.name },
        current_streak: 3,
        weekly_practice_time_minutes: 39.75,
        open_submissions: 2 + 2, // due in 2 days, due in 35 days, and the two tasks of the recordings (due today)
        overdue_submissions: 2,
        new_feedback: 1,
        // where the badge's link lands: the take and the comment's moment (docs/decisions/spoken-comments-and-quick-replies.md)
        new_feedback_latest: { submission_id: expect.any(Number), recording_id: expect.any(Number), comment_id: expect.any(Number), at_ms: 700 },
      },
      {
        id: berk.id,
        name: 'Berk Kaya',
        teacher: { name: s.colleague.name },
        current_streak: 0,
        weekly_practice_time_minutes: 0,
        open_submissions: 0,
        overdue_submissions: 0,
        new_feedback: 0,
        new_feedback_latest: null,
      },
    ]);

    const res = await child(parent, anna.id);
    expect(res.statusCode).toBe(200);
    const detail = res.json() as GuardianChildDetail;
    expect(detail.child).toEqual(kids[0]);
    expect(detail.metrics.current_streak).toBe(3);
    expect(detail.metrics.weekly_practice_time_minutes).toBe(39.75);
    expect(detail.metrics.total_practice_time_minutes).toBe(69.75);
    expect(detail.metrics.progress_data).toHaveLength(30);
    expect(detail.metrics.progress_data.at(-1)).toEqual({ date: d, practice_time_minutes: 12.5 });
    // the tasks due from 30 days ago to 30 days ahead, newest first, with status and the teacher's words
    const inWindow = detail.submissions.filter((x) => x.exercise_title.startsWith('Aufgabe '));
    expect(inWindow.map((x) => [x.due_date, x.status])).toEqual([
      [addDays(d, 2), 'open'],
      [d, 'completed'],
      [addDays(d, -1), 'overdue'],
      [addDays(d, -5), 'expired'],
    ]);
    expect(detail.submissions.map((x) => x.due_date)).toEqual([...detail.submissions.map((x) => x.due_date)].sort().reverse());
    expect(detail.submissions).toHaveLength(6);
    const doneRow = detail.submissions.find((x) => x.id === done.id)!;
    expect(doneRow).toMatchObject({ teacher_feedback: 'Schön gleichmäßig!', accuracy_score: 85, competency_level: 'intermediate' });
    expect(detail.submissions.find((x) => x.id === open.id)!.teacher_note).toBe('langsam beginnen');
    // recordings newest first, with the teacher's comments
    expect(detail.recordings.map((r) => r.id)).toEqual([newer.id, older.id]);
    expect(detail.recordings[0]!.comments).toEqual([expect.objectContaining({ text: 'Takt 3 etwas ruhiger', at_ms: 700, teacher: { id: s.teacher.id, name: s.teacher.name } })]);
    expect(detail.recordings[0]!.new_feedback).toBe(true);
    // nothing of the teacher's own student record
    for (const hidden of ['nur-fuer-die-lehrerin', '0171 222 333', anna.email]) expect(res.body).not.toContain(hidden);
  });

  it('a guardian with no child left sees an empty list', async () => {
    const s = await school();
    const lonely = await t.guardian([], { schoolId: s.id });
    const res = await call(lonely, { url: '/api/guardian/children' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: [] });
  });

  it("a sibling's guardian and another school's guardian get 404 for the child and for its recordings and attachments, exactly like a missing one", async () => {
    const s = await school();
    const sibling = await t.student(s.teacher);
    const parentA = await t.guardian([s.student]);
    const parentB = await t.guardian([sibling]);
    const other = await school();
    const stranger = await t.guardian([other.student]);
    const rec = await recordingOf(s.student, s.teacher, { comment: 'gut' });
    // an attachment of an exercise assigned to the child only
    const ex = await t.exercise(s.teacher);
    const png = staffPng(20, 10);
    const attachment = `exercises/${ex.id}/media/${randomBytes(16).toString('hex')}.png`;
    await t.app.deps.storage.putBytes(attachment, png);
    await t.db.insert(mediaFiles).values({ exerciseId: ex.id, type: 'image', path: attachment, filename: 'noten.png', size: png.length, mimeType: 'image/png' });
    await t.submission(s.student, s.teacher, ex);

    // the child's guardian: the child, and signed links that fetch the bytes
    expect((await child(parentA, s.student.id)).statusCode).toBe(200);
    for (const path of [rec.path, attachment]) {
      const link = await call(parentA, { url: `/api/media/${encodeURIComponent(path)}` });
      expect(link.statusCode, path).toBe(200);
      const file = await t.app.inject({ method: 'GET', url: link.json().url });
      expect(file.statusCode).toBe(200);
    }

    const missingChild = (await child(parentB, NONEXISTENT)).body;
    const missingRec = await call(parentB, { url: `/api/media/${encodeURIComponent(`recordings/${NONEXISTENT}/${'0'.repeat(32)}.wav`)}` });
    const missingMedia = await call(parentB, { url: `/api/media/${encodeURIComponent(`exercises/${NONEXISTENT}/media/${'0'.repeat(32)}.png`)}` });
    expect(missingRec.statusCode).toBe(404);
    for (const who of [parentB, stranger]) {
      const c = await child(who, s.student.id);
      expect(c.statusCode).toBe(404);
      expect(c.body).toBe(missingChild);
      const r = await call(who, { url: `/api/media/${encodeURIComponent(rec.path)}` });
      expect(r.statusCode).toBe(404);
      expect(r.body).toBe(missingRec.body);
      const m = await call(who, { url: `/api/media/${encodeURIComponent(attachment)}` });
      expect(m.statusCode).toBe(404);
      expect(m.body).toBe(missingMedia.body);
      expect((await call(who, { url: '/api/guardian/children' })).body).not.toContain(s.student.name);
    }
    // an administrator opens no one's files
    expect((await call(s.admin, { url: `/api/media/${encodeURIComponent(rec.path)}` })).statusCode).toBe(403);
  });

  it("a guardian calling a teacher's, a student's or the staff's routes gets 403", async () => {
    const s = await school();
    const parent = await t.guardian([s.student]);
    const task = await t.submission(s.student, s.teacher, await t.exercise(s.teacher));
    for (const [method, url] of [
      ['GET', '/api/students'],
      ['GET', `/api/students/${s.student.id}`],
      ['GET', `/api/students/${s.student.id}/metrics`],
      ['GET', `/api/students/${s.student.id}/guardians`],
      ['POST', `/api/students/${s.student.id}/guardians`],
      ['PATCH', `/api/submissions/${task.id}/review`],
      ['GET', '/api/my-metrics'],
      ['GET', '/api/recordings/inbox'],
      ['GET', '/api/school/students'],
    ] as const) {
      const res = await call(parent, { method, url, ...(method === 'POST' ? { payload: { name: 'X', email: 'x@example.test' } } : method === 'PATCH' ? { payload: { accuracy_score: 90, competency_level: 'expert' } } : {}) });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    // and the staff get 403 on the guardian's routes
    for (const who of [s.teacher, s.admin, s.student]) {
      expect((await call(who, { url: '/api/guardian/children' })).statusCode).toBe(403);
      expect((await child(who, s.student.id)).statusCode).toBe(403);
    }
  });
});
