import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../../db/client';
import { unzip } from '../../test/unzip';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';
import type { Conversation, Message, MessagePage } from '@contract/messages';

let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp({ APP_TIMEZONE: 'Europe/Berlin' });
});
afterAll(async () => {
  await t.close();
});

const NONEXISTENT = 2147483000;

const call = (who: { headers: Record<string, string> } | null, o: { method?: string; url: string; payload?: unknown }) =>
  t.app.inject({ method: (o.method ?? 'GET') as 'GET', url: o.url, headers: who?.headers ?? {}, ...(o.payload !== undefined ? { payload: o.payload as string } : {}) });

const send = (who: TestUser, studentId: number, payload: Record<string, unknown>, lang = 'de') =>
  call(who, { method: 'POST', url: `/api/conversations/${studentId}/messages?language=${lang}`, payload });
const page = (who: TestUser, studentId: number, before?: number) =>
  call(who, { url: `/api/conversations/${studentId}/messages${before ? `?before=${before}` : ''}` });
const list = async (who: TestUser) => {
  const res = await call(who, { url: '/api/conversations' });
  expect(res.statusCode).toBe(200);
  return res.json().data as Conversation[];
};
const unread = async (who: TestUser) => (await call(who, { url: '/api/conversations/unread' })).json().unread as number;

/** A school: its administrator, a teacher with two students (each with a parent), a colleague with a student. */
async function school() {
  const s = await t.school();
  const admin = await t.admin({ schoolId: s.id });
  const teacher = await t.teacher({ schoolId: s.id });
  const colleague = await t.teacher({ schoolId: s.id });
  const tag = randomBytes(3).toString('hex');
  const ayse = await t.student(teacher, { name: `Ayşe ${tag}` });
  const ben = await t.student(teacher, { name: `Ben ${tag}` });
  const other = await t.student(colleague, { name: `Cem ${tag}` });
  const mother = await t.guardian([ayse]);
  const father = await t.guardian([ben]);
  return { id: s.id, admin, teacher, colleague, ayse, ben, other, mother, father };
}

describe('messages: one conversation per student', () => {
  it('teacher, student and parent write in it and read each other; plain text stays as it was written', async () => {
    const s = await school();
    const a = await send(s.teacher, s.ayse.id, { body: '  Bitte übe die Takte 5–8 langsam.  ' });
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({ kind: 'message', body: 'Bitte übe die Takte 5–8 langsam.', author: { id: s.teacher.id, role: 'teacher' }, link: null, pinned_at: null, can_delete: true });
    const html = '<script>alert(1)</script> & <b>fett</b>';
    expect((await send(s.ayse, s.ayse.id, { body: html })).json()).toMatchObject({ body: html, author: { id: s.ayse.id, role: 'student' } });
    expect((await send(s.mother, s.ayse.id, { body: 'Danke, sie übt jeden Tag.' })).statusCode).toBe(201);

    for (const who of [s.teacher, s.ayse, s.mother]) {
      const p = (await page(who, s.ayse.id)).json() as MessagePage;
      expect(p.student_name).toBe(s.ayse.name);
      expect(p.data.map((m) => m.body)).toEqual(['Danke, sie übt jeden Tag.', html, 'Bitte übe die Takte 5–8 langsam.']);
      expect(p.data.map((m) => m.author?.role)).toEqual(['guardian', 'student', 'teacher']);
      expect(p.can_write_notes).toBe(who === s.teacher);
    }
    // the student may delete their own message but not the teacher's; the teacher may delete any here
    const p = (await page(s.ayse, s.ayse.id)).json() as MessagePage;
    expect(p.data.map((m) => m.can_delete)).toEqual([false, true, false]);
    expect(((await page(s.teacher, s.ayse.id)).json() as MessagePage).data.every((m) => m.can_delete)).toBe(true);
  });

  it('nobody else reads or writes: not another teacher, another parent, another student, the administrator, another school', async () => {
    const s = await school();
    const secret = `Geheim ${randomBytes(4).toString('hex')}`;
    const m = (await send(s.teacher, s.ayse.id, { body: secret })).json() as Message;
    const foreign = await t.school();
    const foreignTeacher = await t.teacher({ schoolId: foreign.id });
    for (const who of [s.colleague, s.father, s.ben, s.other, foreignTeacher]) {
      const r = await page(who, s.ayse.id);
      expect(r.statusCode, who.email).toBe(404);
      expect(r.body).not.toContain(secret);
      expect((await send(who, s.ayse.id, { body: 'hallo' })).statusCode).toBe(404);
      expect((await call(who, { method: 'POST', url: `/api/conversations/${s.ayse.id}/read`, payload: { up_to: m.id } })).statusCode).toBe(404);
      expect((await call(who, { method: 'DELETE', url: `/api/messages/${m.id}` })).statusCode).toBe(404);
      expect((await call(who, { method: 'PATCH', url: `/api/messages/${m.id}`, payload: { pinned: true } })).statusCode).toBe(404);
      expect((await list(who)).map((c) => c.student_id)).not.toContain(s.ayse.id);
      expect(await unread(who)).toBe(0);
    }
    // the administrator is no participant: 403 on every conversation route, 0 unread
    expect((await page(s.admin, s.ayse.id)).statusCode).toBe(403);
    expect((await call(s.admin, { url: '/api/conversations' })).statusCode).toBe(403);
    expect((await send(s.admin, s.ayse.id, { body: 'x' })).statusCode).toBe(403);
    expect((await call(s.admin, { method: 'DELETE', url: `/api/messages/${m.id}` })).statusCode).toBe(403);
    expect(await unread(s.admin)).toBe(0);
    // signed out: 401
    expect((await call(null, { url: `/api/conversations/${s.ayse.id}/messages` })).statusCode).toBe(401);
    expect((await call(null, { url: '/api/conversations/unread' })).statusCode).toBe(401);
    // a missing student, a teacher's id: the same 404
    expect((await page(s.teacher, NONEXISTENT)).statusCode).toBe(404);
    expect((await page(s.teacher, s.colleague.id)).statusCode).toBe(404);
    const [n] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from messages where student_id = ${s.ayse.id}`);
    expect(n!.n).toBe(1);
  });

  it('refuses an empty or too long message, an unknown field, and a link to someone else’s task or take, in the caller’s language', async () => {
    const s = await school();
    const empty = await send(s.ayse, s.ayse.id, { body: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.body).toEqual(['Die Nachricht ist leer.']);
    const long = await send(s.ayse, s.ayse.id, { body: 'x'.repeat(2001) }, 'tr');
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.body).toEqual(['Bir mesaj en fazla 2000 karakter olabilir.']);
    expect((await send(s.ayse, s.ayse.id, { body: 'x'.repeat(2000) })).statusCode).toBe(201);
    expect((await send(s.ayse, s.ayse.id, { body: 'x', html: '<b>' })).statusCode).toBe(422);
    expect((await send(s.ayse, s.ayse.id, { body: 'x', kind: 'alarm' })).statusCode).toBe(422);

    const ex = await t.exercise(s.teacher, { title: 'Hicaz-Etüde' });
    const bensTask = await t.submission(s.ben, s.teacher, ex);
    const bad = await send(s.teacher, s.ayse.id, { body: 'Schau hier', link: { task_id: bensTask.id } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.link).toEqual(['Die verknüpfte Aufgabe oder Aufnahme gehört nicht zu diesem Schüler.']);
    const aysesTask = await t.submission(s.ayse, s.teacher, ex);
    const take = await takeOf(s.ayse, s.teacher, aysesTask.id);
    // a take of another task than the one named: refused too
    const otherTask = await t.submission(s.ayse, s.teacher, ex);
    expect((await send(s.teacher, s.ayse.id, { body: 'x', link: { task_id: otherTask.id, recording_id: take } })).statusCode).toBe(422);
    const [n] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from messages where student_id = ${s.ayse.id}`);
    expect(n!.n).toBe(1);
  });

  it('links a task, or a take at a moment; a link whose task is deleted goes away with it', async () => {
    const s = await school();
    const ex = await t.exercise(s.teacher, { title: 'Uşşak-Tonleiter' });
    const task = await t.submission(s.ayse, s.teacher, ex);
    const take = await takeOf(s.ayse, s.teacher, task.id);
    const toTask = (await send(s.mother, s.ayse.id, { body: 'Frage zur Aufgabe', link: { task_id: task.id } })).json() as Message;
    expect(toTask.link).toEqual({ kind: 'task', task_id: task.id, recording_id: null, at_ms: null, title: 'Uşşak-Tonleiter' });
    const toTake = (await send(s.teacher, s.ayse.id, { body: 'Hier ab 0:12', link: { task_id: task.id, recording_id: take, at_ms: 12_000 } })).json() as Message;
    expect(toTake.link).toEqual({ kind: 'take', task_id: task.id, recording_id: take, at_ms: 12_000, title: 'Uşşak-Tonleiter' });
    await t.db.execute(sql`delete from submissions where id = ${task.id}`);
    const p = (await page(s.ayse, s.ayse.id)).json() as MessagePage;
    expect(p.data.map((m) => m.link)).toEqual([null, null]);
  });

  it('pages back 30 at a time, newest first', async () => {
    const s = await school();
    await t.db.execute(
      sql`insert into messages (school_id, student_id, author_id, author_role, body)
          select ${s.id}, ${s.ayse.id}, ${s.teacher.id}, 'teacher', 'Nachricht ' || n from generate_series(1, 65) n`,
    );
    const first = (await page(s.ayse, s.ayse.id)).json() as MessagePage;
    expect(first.data).toHaveLength(30);
    expect(first.data[0]!.body).toBe('Nachricht 65');
    const second = (await page(s.ayse, s.ayse.id, first.next_before!)).json() as MessagePage;
    expect(second.data[0]!.body).toBe('Nachricht 35');
    expect(second.pinned).toEqual([]);
    const third = (await page(s.ayse, s.ayse.id, second.next_before!)).json() as MessagePage;
    expect(third.data.map((m) => m.body)).toEqual(['Nachricht 5', 'Nachricht 4', 'Nachricht 3', 'Nachricht 2', 'Nachricht 1']);
    expect(third.next_before).toBeNull();
    expect((await call(s.ayse, { url: `/api/conversations/${s.ayse.id}/messages?before=abc` })).statusCode).toBe(422);
  });
});

describe('a flood', () => {
  it('is stopped after 60 messages of one author in an hour (429, Retry-After); others still write', async () => {
    const s = await school();
    await t.db.execute(
      sql`insert into messages (school_id, student_id, author_id, author_role, body)
          select ${s.id}, ${s.ayse.id}, ${s.ayse.id}, 'student', 'Spam ' || n from generate_series(1, 60) n`,
    );
    const refused = await send(s.ayse, s.ayse.id, { body: 'Noch eine' });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('600');
    expect(refused.json().message).toBe('Höchstens 60 Nachrichten in einer Stunde. Später geht es weiter.');
    expect((await send(s.teacher, s.ayse.id, { body: 'Bitte langsamer.' })).statusCode).toBe(201);
    await t.db.execute(sql`update messages set created_at = now() - interval '61 minutes' where author_id = ${s.ayse.id}`);
    expect((await send(s.ayse, s.ayse.id, { body: 'Jetzt wieder' })).statusCode).toBe(201);
  });

  it('holds for messages sent at the same moment: of 90 at once, 60 are stored and 30 refused', async () => {
    const s = await school();
    const answers = await Promise.all(Array.from({ length: 90 }, (_, i) => send(s.ayse, s.ayse.id, { body: `Gleichzeitig ${i}` })));
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(60);
    expect(codes.filter((c) => c === 429)).toHaveLength(30);
    const [stored] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from messages where author_id = ${s.ayse.id}`);
    expect(stored!.n).toBe(60);
  });
});

describe('unread counts and the teacher’s list', () => {
  it('counts what others wrote since the caller last read; the teacher’s list puts what waits longest first', async () => {
    const s = await school();
    expect((await list(s.teacher)).map((c) => c.student_id)).toEqual([s.ayse.id, s.ben.id]); // by name, nothing waiting
    const first = (await send(s.ayse, s.ayse.id, { body: 'Ich komme nicht weiter.' })).json() as Message;
    await t.db.execute(sql`update messages set created_at = now() - interval '2 hours' where id = ${first.id}`);
    await send(s.father, s.ben.id, { body: 'Ben ist krank.' });
    await send(s.ayse, s.ayse.id, { body: 'Takt 7?' });
    expect(await unread(s.teacher)).toBe(3);
    const l = await list(s.teacher);
    expect(l.map((c) => [c.student_id, c.unread])).toEqual([
      [s.ayse.id, 2],
      [s.ben.id, 1],
    ]);
    expect(l[0]!.waiting_since).toBe(new Date(Date.parse(l[0]!.waiting_since!)).toISOString());
    expect(l[0]!.last_message).toMatchObject({ body: 'Takt 7?', author_role: 'student' });
    // one's own messages never count; the mother sees the two of her child, the father none of them
    expect(await unread(s.ayse)).toBe(0);
    expect(await unread(s.mother)).toBe(2);
    expect(await unread(s.father)).toBe(0);

    // reading Ayşe's conversation: Ben's waits now; read_up_to tells where "new" began
    const p = (await page(s.teacher, s.ayse.id)).json() as MessagePage;
    expect(p.read_up_to).toBe(0);
    expect((await call(s.teacher, { method: 'POST', url: `/api/conversations/${s.ayse.id}/read`, payload: { up_to: p.data[0]!.id } })).statusCode).toBe(204);
    expect(await unread(s.teacher)).toBe(1);
    expect((await list(s.teacher)).map((c) => [c.student_id, c.unread])).toEqual([
      [s.ben.id, 1],
      [s.ayse.id, 0],
    ]);
    // never back, never past the newest message
    await call(s.teacher, { method: 'POST', url: `/api/conversations/${s.ayse.id}/read`, payload: { up_to: 0 } });
    await call(s.teacher, { method: 'POST', url: `/api/conversations/${s.ayse.id}/read`, payload: { up_to: 2147483000 } });
    expect(((await page(s.teacher, s.ayse.id)).json() as MessagePage).read_up_to).toBe(p.data[0]!.id);
    await send(s.ayse, s.ayse.id, { body: 'Noch eine Frage' });
    expect(await unread(s.teacher)).toBe(2);
    // answering counts as reading
    await send(s.teacher, s.ayse.id, { body: 'Gern, morgen.' });
    expect(await unread(s.teacher)).toBe(1);
  });

  it('a student and a parent list only their own conversations', async () => {
    const s = await school();
    expect((await list(s.ayse)).map((c) => c.student_id)).toEqual([s.ayse.id]);
    const both = await t.guardian([s.ayse, s.ben]);
    expect((await list(both)).map((c) => c.student_id).sort()).toEqual([s.ayse.id, s.ben.id].sort());
    expect((await list(s.mother)).map((c) => c.student_id)).toEqual([s.ayse.id]);
  });
});

describe('lesson notes', () => {
  it('only the student’s teacher writes and pins them; at most five pinned; the pinned ones come first', async () => {
    const s = await school();
    for (const who of [s.ayse, s.mother]) {
      const r = await send(who, s.ayse.id, { body: 'Notiz', kind: 'lesson_note' });
      expect(r.statusCode).toBe(403);
      expect(r.json().message).toBe('Unterrichtsnotizen schreibt nur die Lehrkraft.');
    }
    const note = (await send(s.teacher, s.ayse.id, { body: 'Heute: Rast-Taksim, Bogen ruhiger.', kind: 'lesson_note' })).json() as Message;
    expect(note.kind).toBe('lesson_note');
    const plain = (await send(s.teacher, s.ayse.id, { body: 'Bis Dienstag!' })).json() as Message;

    const pin = (id: number, who: TestUser = s.teacher, pinned = true) => call(who, { method: 'PATCH', url: `/api/messages/${id}`, payload: { pinned } });
    expect((await pin(plain.id)).statusCode).toBe(409);
    expect((await pin(note.id, s.ayse)).statusCode).toBe(403);
    expect((await pin(note.id, s.mother)).statusCode).toBe(403);
    const pinned = await pin(note.id);
    expect(pinned.statusCode).toBe(200);
    expect(pinned.json().pinned_at).toMatch(/Z$/);
    const p = (await page(s.ayse, s.ayse.id)).json() as MessagePage;
    expect(p.pinned.map((m) => m.id)).toEqual([note.id]);

    for (let i = 0; i < 4; i++) {
      const n = (await send(s.teacher, s.ayse.id, { body: `Notiz ${i}`, kind: 'lesson_note' })).json() as Message;
      expect((await pin(n.id)).statusCode).toBe(200);
    }
    const sixth = (await send(s.teacher, s.ayse.id, { body: 'Notiz 6', kind: 'lesson_note' })).json() as Message;
    const refused = await pin(sixth.id);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Es können höchstens 5 Unterrichtsnotizen angeheftet sein; zuerst muss eine gelöst werden.');
    expect((await pin(note.id, s.teacher, false)).json().pinned_at).toBeNull();
    expect((await pin(sixth.id)).statusCode).toBe(200);
    expect(((await page(s.teacher, s.ayse.id)).json() as MessagePage).pinned).toHaveLength(5);
  });
});

describe('deleting, retention, export and erasure', () => {
  it('its author or the teacher deletes a message, audited without its text; others cannot', async () => {
    const s = await school();
    const byMother = (await send(s.mother, s.ayse.id, { body: 'Privat: Telefonnummer 0170…' })).json() as Message;
    const byTeacher = (await send(s.teacher, s.ayse.id, { body: 'Übe Takt 3.' })).json() as Message;
    const del = (who: TestUser, id: number) => call(who, { method: 'DELETE', url: `/api/messages/${id}` });
    expect((await del(s.ayse, byMother.id)).statusCode).toBe(403);
    expect((await del(s.mother, byTeacher.id)).statusCode).toBe(403);
    expect((await del(s.mother, byMother.id)).statusCode).toBe(204);
    expect((await del(s.mother, byMother.id)).statusCode).toBe(404);
    expect((await del(s.teacher, byTeacher.id)).statusCode).toBe(204);
    const entries = await rows<{ actor_id: number; target_id: number; details: Record<string, unknown> }>(
      t.db,
      sql`select actor_id, target_id, details from audit_log where school_id = ${s.id} and action = 'message.delete' order by id`,
    );
    expect(entries).toEqual([
      { actor_id: s.mother.id, target_id: s.ayse.id, details: expect.objectContaining({ message_id: byMother.id, author_role: 'guardian', own: true }) },
      { actor_id: s.teacher.id, target_id: s.ayse.id, details: expect.objectContaining({ message_id: byTeacher.id, author_role: 'teacher', own: true }) },
    ]);
    expect(JSON.stringify(entries)).not.toContain('Telefonnummer');
    // the administrator sees the deletions in the school's log
    const log = await call(s.admin, { url: '/api/school/audit-log' });
    expect(log.json().data.filter((e: { action: string }) => e.action === 'message.delete')).toHaveLength(2);
  });

  it('the school sets the retention; the job deletes older messages of that school only', async () => {
    const s = await school();
    const other = await school();
    expect((await call(s.admin, { url: '/api/school/message-retention' })).json()).toEqual({ retention_days: 365 });
    expect((await call(s.teacher, { url: '/api/school/message-retention' })).statusCode).toBe(403);
    expect((await call(s.admin, { method: 'PUT', url: '/api/school/message-retention', payload: { retention_days: 10 } })).statusCode).toBe(422);
    expect((await call(s.admin, { method: 'PUT', url: '/api/school/message-retention', payload: { retention_days: 30 } })).json()).toEqual({ retention_days: 30 });
    const old = (await send(s.ayse, s.ayse.id, { body: 'alt' })).json() as Message;
    const fresh = (await send(s.ayse, s.ayse.id, { body: 'neu' })).json() as Message;
    const otherOld = (await send(other.ayse, other.ayse.id, { body: 'alt, andere Schule' })).json() as Message;
    await t.db.execute(sql`update messages set created_at = now() - interval '31 days' where id in (${old.id}, ${otherOld.id})`);
    const { MessagesService } = await import('./messages.service');
    const gone = await new MessagesService(t.db, t.app.log).prune();
    expect(gone).toBeGreaterThanOrEqual(1);
    const left = await rows<{ id: number }>(t.db, sql`select id from messages where id in (${old.id}, ${fresh.id}, ${otherOld.id}) order by id`);
    expect(left.map((r) => r.id)).toEqual([fresh.id, otherOld.id]);
    const [entry] = await rows<{ details: unknown }>(t.db, sql`select details from audit_log where school_id = ${s.id} and action = 'school.message_retention'`);
    expect(entry!.details).toEqual({ from: 365, to: 30 });
  });

  it('the export holds the conversation; the erasure removes it, and a parent’s erased account leaves their messages without a name', async () => {
    const s = await school();
    await send(s.teacher, s.ayse.id, { body: 'Exportiere mich', kind: 'lesson_note' });
    await send(s.father, s.ben.id, { body: 'Von Bens Vater' });
    const exp = await call(s.admin, { url: `/api/school/students/${s.ayse.id}/export` });
    expect(exp.statusCode).toBe(200);
    const json = unzip(exp.rawPayload).get('student.json')!.toString('utf8');
    const doc = JSON.parse(json) as { messages: Array<{ body: string; kind: string; author_role: string }> };
    expect(doc.messages).toEqual([expect.objectContaining({ body: 'Exportiere mich', kind: 'lesson_note', author_role: 'teacher' })]);

    // the father's account goes with Ben: Ben's conversation goes; Ayşe's stays
    const erase = await call(s.admin, { method: 'POST', url: `/api/school/students/${s.ben.id}/erase`, payload: { confirm_name: s.ben.name } });
    expect(erase.statusCode).toBe(200);
    const [n] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from messages where student_id = ${s.ben.id}`);
    expect(n!.n).toBe(0);
    const [m] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from message_reads where student_id = ${s.ben.id} or user_id = ${s.father.id}`);
    expect(m!.n).toBe(0);
    // a parent of two whose one child stays: their message in the other child's conversation keeps its text, loses nothing else
    const both = await t.guardian([s.ayse], { name: 'Zweitelternteil' });
    await send(both, s.ayse.id, { body: 'Von einem Elternteil' });
    await t.db.execute(sql`delete from users where id = ${both.id}`);
    const p = (await page(s.teacher, s.ayse.id)).json() as MessagePage;
    expect(p.data[0]).toMatchObject({ body: 'Von einem Elternteil', author: null });
  });
});

/** A take of the task (no file needed for a link). */
async function takeOf(student: TestUser, teacher: TestUser, taskId: number): Promise<number> {
  const [r] = await rows<{ id: number }>(
    t.db,
    sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms)
        values (${taskId}, ${student.id}, ${teacher.id}, 'audio', 'audio/wav', ${`recordings/${taskId}/${randomBytes(8).toString('hex')}.wav`}, 'take.wav', 10, 1000)
        returning id`,
  );
  return r!.id;
}
