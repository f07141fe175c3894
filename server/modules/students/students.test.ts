import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { withTestApp, TEST_PASSWORD, type TestApp } from '../../test/test-app';
import { enrolments, practiceSessions, submissions, tokens, users } from '../../db/schema/index';
import { rows } from '../../db/client';

let t: TestApp;
withTestApp((app) => {
  t = app;
});

const login = (email: string, password: string) => t.app.inject({ method: 'POST', url: '/api/login', payload: { email, password } });

describe('GET /api/students', () => {
  it("lists only the teacher's own students by name, with courses, never a password", async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const c1 = await t.course(teacher, { name: 'Zither' });
    const c2 = await t.course(teacher, { name: 'Bağlama' });
    const zeynep = await t.student(teacher, { name: 'Zeynep Arslan', phone: '0170 123', notes: 'Notiz', courseIds: [c1.id, c2.id] });
    const ayse = await t.student(teacher, { name: 'ayşe Demir' });
    await t.student(other, { name: 'Aaron Fremd' });

    const res = await t.app.inject({ method: 'GET', url: '/api/students?language=de', headers: teacher.headers });
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(data.map((s: { id: number }) => s.id)).toEqual([ayse.id, zeynep.id]);
    expect(data[1]).toEqual({
      id: zeynep.id,
      name: 'Zeynep Arslan',
      email: zeynep.email,
      phone: '0170 123',
      notes: 'Notiz',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      courses: [
        { id: c2.id, name: 'Bağlama' },
        { id: c1.id, name: 'Zither' },
      ],
    });
    expect(data[0]).toMatchObject({ phone: null, notes: null, courses: [] });
    expect(res.body).not.toMatch(/password/i);
  });

  it('filters by course_id; an empty course_id means all; a foreign course gives nobody', async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const c = await t.course(teacher);
    const foreign = await t.course(other);
    const inCourse = await t.student(teacher, { courseIds: [c.id] });
    await t.student(teacher);
    await t.student(other, { courseIds: [foreign.id] });
    const filtered = await t.app.inject({ method: 'GET', url: `/api/students?course_id=${c.id}`, headers: teacher.headers });
    expect(filtered.json().data.map((s: { id: number }) => s.id)).toEqual([inCourse.id]);
    const all = await t.app.inject({ method: 'GET', url: '/api/students?course_id=', headers: teacher.headers });
    expect(all.json().data).toHaveLength(2);
    const leak = await t.app.inject({ method: 'GET', url: `/api/students?course_id=${foreign.id}`, headers: teacher.headers });
    expect(leak.statusCode).toBe(200);
    expect(leak.json().data).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/students?course_id=abc', headers: teacher.headers })).statusCode).toBe(422);
  });

  it('answers 401 to a guest and 403 to a student', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    expect((await t.app.inject({ method: 'GET', url: '/api/students' })).statusCode).toBe(401);
    const r = await t.app.inject({ method: 'GET', url: '/api/students', headers: student.headers });
    expect(r.statusCode).toBe(403);
    expect(r.json().message).toBe('Keine Berechtigung für diese Aktion.');
  });
});

describe('POST /api/students', () => {
  it('creates a student of the teacher (201) with courses; the student can sign in; the password is stored as argon2id', async () => {
    const teacher = await t.teacher();
    const c = await t.course(teacher, { name: 'Saz' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/students',
      headers: teacher.headers,
      payload: { name: ' Elif Kaya ', email: 'Elif.Kaya@Example.test', password: 'geheim123', phone: '', notes: ' Anfängerin ', course_ids: [c.id] },
    });
    expect(res.statusCode).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({ name: 'Elif Kaya', email: 'Elif.Kaya@Example.test', phone: null, notes: 'Anfängerin', courses: [{ id: c.id, name: 'Saz' }] });
    expect(res.body).not.toMatch(/password|geheim123/i);
    const [row] = await t.db.select().from(users).where(eq(users.id, s.id));
    expect(row).toMatchObject({ role: 'student', teacherId: teacher.id });
    expect(row?.passwordHash).toMatch(/^\$argon2id\$/);
    const signIn = await login('elif.kaya@example.test', 'geheim123');
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user).toMatchObject({ id: s.id, role: { name: 'student' } });
    // the new student counts in the course
    const courses = await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers });
    expect(courses.json()).toEqual([expect.objectContaining({ id: c.id, students_count: 1 })]);
  });

  it('refuses an e-mail already used by any user, regardless of case (422 errors.email)', async () => {
    const teacher = await t.teacher();
    const other = await t.teacher({ email: 'Lehrerin.Fremd@example.test' });
    const existing = await t.student(other, { email: 'mia.wagner@example.test' });
    for (const email of ['MIA.WAGNER@example.test', 'lehrerin.fremd@EXAMPLE.test']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/students', headers: teacher.headers, payload: { name: 'Mia', email, password: 'geheim123' } });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.email).toEqual(['Diese E-Mail-Adresse wird bereits verwendet.']);
    }
    const tr = await t.app.inject({
      method: 'POST',
      url: '/api/students?language=tr',
      headers: teacher.headers,
      payload: { name: 'Mia', email: existing.email, password: 'geheim123' },
    });
    expect(tr.json().errors.email).toEqual(['Bu e-posta adresi zaten kullanılıyor.']);
    expect(other.id).toBeGreaterThan(0);
  });

  it('two requests racing for one e-mail: one 201, one 422 errors.email, never 500', async () => {
    const teacher = await t.teacher();
    const payload = (email: string) => ({ name: 'Gleichzeitig', email, password: 'geheim123' });
    const [a, b] = await Promise.all([
      t.app.inject({ method: 'POST', url: '/api/students', headers: teacher.headers, payload: payload('race@example.test') }),
      t.app.inject({ method: 'POST', url: '/api/students', headers: teacher.headers, payload: payload('RACE@example.test') }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 422]);
    const refused = a.statusCode === 422 ? a : b;
    expect(refused.json().errors.email).toEqual(['Diese E-Mail-Adresse wird bereits verwendet.']);
  });

  it('validates name, e-mail and password (required, at least 8 characters) with errors per field', async () => {
    const teacher = await t.teacher();
    const short = await t.app.inject({ method: 'POST', url: '/api/students', headers: teacher.headers, payload: { name: 'Jonas', email: 'jonas-short@example.test', password: '1234567' } });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual({ password: ['Das Passwort muss mindestens 8 Zeichen lang sein.'] });
    const shortTr = await t.app.inject({
      method: 'POST',
      url: '/api/students',
      headers: { ...teacher.headers, 'accept-language': 'tr-TR,tr;q=0.9' },
      payload: { name: 'Jonas', email: 'jonas-short@example.test', password: 'abc' },
    });
    expect(shortTr.json().errors.password[0]).toBe('Şifre en az 8 karakter olmalıdır.');
    const missing = await t.app.inject({ method: 'POST', url: '/api/students', headers: teacher.headers, payload: { name: '', email: 'kein-email', password: '' } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.name).toEqual(['Dieses Feld ist erforderlich.']);
    expect(missing.json().errors.email).toEqual(['Bitte eine gültige E-Mail-Adresse eingeben.']);
    expect(missing.json().errors.password).toEqual(['Dieses Feld ist erforderlich.']);
    const blank = await t.app.inject({ method: 'POST', url: '/api/students', headers: teacher.headers, payload: { name: 'X', email: 'blank-pw@example.test', password: '          ' } });
    expect(blank.statusCode).toBe(422);
    expect(blank.json().errors.password).toEqual(['Bitte geben Sie ein Passwort ein.']);
    for (const payload of [{}, { name: 'X', email: 'x@example.test', password: 12345678 }, { name: 'X', email: 'x@example.test', password: 'geheim123', course_ids: ['a'] }]) {
      const r = await t.app.inject({ method: 'POST', url: '/api/students', headers: teacher.headers, payload });
      expect(r.statusCode).toBe(422);
    }
    for (const payload of ['null', '{"name":', '[]']) {
      const r = await t.app.inject({ method: 'POST', url: '/api/students', headers: { ...teacher.headers, 'content-type': 'application/json' }, payload });
      expect(r.statusCode).toBe(422);
    }
    expect(await t.db.select().from(users).where(eq(users.teacherId, teacher.id))).toHaveLength(0);
  });

  it("refuses another teacher's course in course_ids (422) and creates nothing", async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const foreign = await t.course(other);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/students',
      headers: teacher.headers,
      payload: { name: 'X', email: 'foreign-course@example.test', password: 'geheim123', course_ids: [foreign.id] },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.course_ids).toHaveLength(1);
    expect(await t.db.select().from(users).where(eq(users.email, 'foreign-course@example.test'))).toHaveLength(0);
  });

  it('refuses a guest (401) and a student (403)', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    const payload = { name: 'X', email: 'guest-made@example.test', password: 'geheim123' };
    expect((await t.app.inject({ method: 'POST', url: '/api/students', payload })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/students', headers: student.headers, payload })).statusCode).toBe(403);
    expect(await t.db.select().from(users).where(eq(users.email, 'guest-made@example.test'))).toHaveLength(0);
  });
});

describe('PUT /api/students/{id}', () => {
  it('a blank or missing password keeps the old one: the student still signs in with it, and stays signed in', async () => {
    const teacher = await t.teacher();
    const c = await t.course(teacher);
    const s = await t.student(teacher, { name: 'Lukas', courseIds: [c.id] });
    const before = await t.db.select().from(users).where(eq(users.id, s.id));
    for (const password of ['', '   ', null, undefined]) {
      const res = await t.app.inject({
        method: 'PUT',
        url: `/api/students/${s.id}`,
        headers: teacher.headers,
        payload: { name: 'Lukas Becker', email: s.email.toUpperCase(), password, phone: '0151', notes: '' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ id: s.id, name: 'Lukas Becker', email: s.email.toUpperCase(), phone: '0151', notes: null, courses: [{ id: c.id }] });
    }
    const after = await t.db.select().from(users).where(eq(users.id, s.id));
    expect(after[0]?.passwordHash).toBe(before[0]?.passwordHash);
    expect((await login(s.email, TEST_PASSWORD)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: s.headers })).statusCode).toBe(200);
  });

  it("a new password works, the old one no longer does, and the student's existing tokens are revoked", async () => {
    const teacher = await t.teacher();
    const s = await t.student(teacher);
    const other = await t.student(teacher);
    const second = await login(s.email, TEST_PASSWORD);
    const secondHeaders = { authorization: `Bearer ${second.json().token}` };
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/students/${s.id}`,
      headers: teacher.headers,
      payload: { name: s.name, email: s.email, password: 'neues-passwort' },
    });
    expect(res.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: s.headers })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: secondHeaders })).statusCode).toBe(401);
    expect(await t.db.select().from(tokens).where(eq(tokens.userId, s.id))).toHaveLength(0);
    expect((await login(s.email, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await login(s.email, 'neues-passwort')).statusCode).toBe(200);
    // nobody else is signed out
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: teacher.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: other.headers })).statusCode).toBe(200);
  });

  it('refuses a short new password and an e-mail of another user (422), changing nothing', async () => {
    const teacher = await t.teacher();
    const s = await t.student(teacher, { name: 'Original' });
    const taken = await t.student(await t.teacher());
    const short = await t.app.inject({ method: 'PUT', url: `/api/students/${s.id}`, headers: teacher.headers, payload: { name: 'Neu', email: s.email, password: 'kurz' } });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.password[0]).toBe('Das Passwort muss mindestens 8 Zeichen lang sein.');
    const dup = await t.app.inject({ method: 'PUT', url: `/api/students/${s.id}`, headers: teacher.headers, payload: { name: 'Neu', email: taken.email.toUpperCase() } });
    expect(dup.statusCode).toBe(422);
    expect(Object.keys(dup.json().errors)).toEqual(['email']);
    const [row] = await t.db.select().from(users).where(eq(users.id, s.id));
    expect(row?.name).toBe('Original');
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: s.headers })).statusCode).toBe(200);
  });

  it('replaces the courses when course_ids is given and keeps them when it is left out', async () => {
    const teacher = await t.teacher();
    const a = await t.course(teacher, { name: 'A' });
    const b = await t.course(teacher, { name: 'B' });
    const s = await t.student(teacher, { courseIds: [a.id] });
    const kept = await t.app.inject({ method: 'PUT', url: `/api/students/${s.id}`, headers: teacher.headers, payload: { name: s.name, email: s.email } });
    expect(kept.json().courses).toEqual([{ id: a.id, name: 'A' }]);
    const moved = await t.app.inject({ method: 'PUT', url: `/api/students/${s.id}`, headers: teacher.headers, payload: { name: s.name, email: s.email, course_ids: [b.id] } });
    expect(moved.json().courses).toEqual([{ id: b.id, name: 'B' }]);
  });

  it("answers 404 for another teacher's student or a teacher's id, 403 for a student, 401 for a guest", async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const foreign = await t.student(other, { name: 'Fremd' });
    const mine = await t.student(teacher);
    const payload = { name: 'Gekapert', email: 'gekapert@example.test', password: 'geheim1234' };
    const res = await t.app.inject({ method: 'PUT', url: `/api/students/${foreign.id}`, headers: teacher.headers, payload });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Nicht gefunden.' });
    expect((await t.app.inject({ method: 'PUT', url: `/api/students/${other.id}`, headers: teacher.headers, payload })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/api/students/${foreign.id}`, headers: mine.headers, payload })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `/api/students/${foreign.id}`, payload })).statusCode).toBe(401);
    const [row] = await t.db.select().from(users).where(eq(users.id, foreign.id));
    expect(row?.name).toBe('Fremd');
    expect((await login(foreign.email, TEST_PASSWORD)).statusCode).toBe(200);
    // the e-mail check does not reveal anything before the ownership check: a foreign id with a taken e-mail is still 404
    const probe = await t.app.inject({ method: 'PUT', url: `/api/students/${foreign.id}`, headers: teacher.headers, payload: { name: 'x', email: mine.email } });
    expect(probe.statusCode).toBe(404);
  });
});

describe('GET /api/students/{id}', () => {
  it("answers the own student and 404 for another teacher's", async () => {
    const teacher = await t.teacher();
    const s = await t.student(teacher, { name: 'Meine' });
    const foreign = await t.student(await t.teacher());
    expect((await t.app.inject({ method: 'GET', url: `/api/students/${s.id}`, headers: teacher.headers })).json()).toMatchObject({ id: s.id, name: 'Meine' });
    expect((await t.app.inject({ method: 'GET', url: `/api/students/${foreign.id}`, headers: teacher.headers })).statusCode).toBe(404);
  });
});

describe('PUT /api/students/{id}/courses', () => {
  it("replaces the enrolments with the teacher's own courses; [] removes all", async () => {
    const teacher = await t.teacher();
    const a = await t.course(teacher, { name: 'A' });
    const b = await t.course(teacher, { name: 'B' });
    const c = await t.course(teacher, { name: 'C' });
    const s = await t.student(teacher, { courseIds: [a.id, b.id] });
    const res = await t.app.inject({ method: 'PUT', url: `/api/students/${s.id}/courses`, headers: teacher.headers, payload: { course_ids: [c.id, b.id, c.id] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().courses).toEqual([
      { id: b.id, name: 'B' },
      { id: c.id, name: 'C' },
    ]);
    const none = await t.app.inject({ method: 'PUT', url: `/api/students/${s.id}/courses`, headers: teacher.headers, payload: { course_ids: [] } });
    expect(none.json().courses).toEqual([]);
    expect(await t.db.select().from(enrolments).where(eq(enrolments.studentId, s.id))).toHaveLength(0);
  });

  it("refuses another teacher's course (422) and another teacher's student (404), a student (403), a guest (401)", async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const mine = await t.course(teacher);
    const foreignCourse = await t.course(other);
    const s = await t.student(teacher, { courseIds: [mine.id] });
    const foreign = await t.student(other);
    const bad = await t.app.inject({ method: 'PUT', url: `/api/students/${s.id}/courses`, headers: teacher.headers, payload: { course_ids: [mine.id, foreignCourse.id] } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.course_ids).toEqual(['Mindestens ein gewählter Kurs existiert nicht.']);
    expect((await t.db.select().from(enrolments).where(eq(enrolments.studentId, s.id))).map((e) => e.courseId)).toEqual([mine.id]);
    expect((await t.app.inject({ method: 'PUT', url: `/api/students/${foreign.id}/courses`, headers: teacher.headers, payload: { course_ids: [mine.id] } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `/api/students/${s.id}/courses`, headers: s.headers, payload: { course_ids: [] } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `/api/students/${s.id}/courses`, payload: { course_ids: [] } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'PUT', url: `/api/students/${s.id}/courses`, headers: teacher.headers, payload: { course_ids: 'x' } })).statusCode).toBe(422);
    expect(await t.db.select().from(enrolments).where(eq(enrolments.studentId, foreign.id))).toHaveLength(0);
  });
});

describe('DELETE /api/students/{id}', () => {
  it('removes the account with its tokens, enrolments, submissions and practice sessions; others stay', async () => {
    const teacher = await t.teacher();
    const c = await t.course(teacher);
    const s = await t.student(teacher, { courseIds: [c.id] });
    const keep = await t.student(teacher, { courseIds: [c.id] });
    const ex = await t.exercise(teacher);
    const sub = await t.submission(s, teacher, ex, { courseId: c.id });
    const keptSub = await t.submission(keep, teacher, ex, { courseId: c.id });
    await t.db.insert(practiceSessions).values({ submissionId: sub.id, studentId: s.id, startedAt: new Date(Date.now() - 600000), endedAt: new Date(), durationMinutes: 10 });

    const res = await t.app.inject({ method: 'DELETE', url: `/api/students/${s.id}`, headers: teacher.headers });
    expect(res.statusCode).toBe(204);
    expect(await t.db.select().from(users).where(eq(users.id, s.id))).toHaveLength(0);
    expect(await t.db.select().from(tokens).where(eq(tokens.userId, s.id))).toHaveLength(0);
    expect(await t.db.select().from(enrolments).where(eq(enrolments.studentId, s.id))).toHaveLength(0);
    expect(await t.db.select().from(submissions).where(eq(submissions.studentId, s.id))).toHaveLength(0);
    expect(await t.db.select().from(practiceSessions).where(eq(practiceSessions.studentId, s.id))).toHaveLength(0);
    expect(await t.db.select().from(submissions).where(eq(submissions.id, keptSub.id))).toHaveLength(1);
    expect((await t.app.inject({ method: 'GET', url: '/api/user', headers: s.headers })).statusCode).toBe(401);
    expect((await login(s.email, TEST_PASSWORD)).statusCode).toBe(401);
    const list = await t.app.inject({ method: 'GET', url: '/api/students', headers: teacher.headers });
    expect(list.json().data.map((x: { id: number }) => x.id)).toEqual([keep.id]);
    const [count] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from enrolments where course_id = ${c.id}`);
    expect(count?.n).toBe(1);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/students/${s.id}`, headers: teacher.headers })).statusCode).toBe(404);
  });

  it("refuses another teacher's student or a teacher's id (404), a student (403), a guest (401), deleting nothing", async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const foreign = await t.student(other);
    const mine = await t.student(teacher);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/students/${foreign.id}`, headers: teacher.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/students/${other.id}`, headers: teacher.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/students/${teacher.id}`, headers: teacher.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/students/${mine.id}`, headers: mine.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/students/${mine.id}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/students/0', headers: teacher.headers })).statusCode).toBe(422);
    expect(await t.db.select().from(users).where(eq(users.id, foreign.id))).toHaveLength(1);
    expect(await t.db.select().from(users).where(eq(users.id, mine.id))).toHaveLength(1);
    expect(await t.db.select().from(users).where(eq(users.id, other.id))).toHaveLength(1);
  });
});
