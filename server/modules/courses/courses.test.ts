import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { withTestApp, type TestApp } from '../../test/test-app';
import { courses, enrolments, submissions } from '../../db/schema/index';

let t: TestApp;
withTestApp((app) => {
  t = app;
});

describe('GET /api/courses', () => {
  it('gives a teacher only their own courses by name, with student counts', async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const b = await t.course(teacher, { name: 'Bağlama Fortgeschrittene', description: 'Mittwochs' });
    const a = await t.course(teacher, { name: 'anfänger' });
    const foreign = await t.course(other, { name: 'Aaa fremd' });
    await t.student(teacher, { courseIds: [b.id] });
    await t.student(teacher, { courseIds: [b.id, a.id] });
    await t.student(other, { courseIds: [foreign.id] });

    const res = await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((c: { id: number }) => c.id)).toEqual([a.id, b.id]);
    expect(list[1]).toEqual({
      id: b.id,
      name: 'Bağlama Fortgeschrittene',
      description: 'Mittwochs',
      created_at: b.createdAt.toISOString(),
      students_count: 2,
    });
    expect(list[0]).toMatchObject({ description: null, students_count: 1 });
  });

  it('gives a student the courses they are enrolled in, and a guest 401', async () => {
    const teacher = await t.teacher();
    const mine = await t.course(teacher);
    await t.course(teacher);
    const student = await t.student(teacher, { courseIds: [mine.id] });
    const res = await t.app.inject({ method: 'GET', url: '/api/courses', headers: student.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().map((c: { id: number }) => c.id)).toEqual([mine.id]);
    expect((await t.app.inject({ method: 'GET', url: '/api/courses' })).statusCode).toBe(401);
  });
});

describe('POST /api/courses', () => {
  it('creates a course for the teacher (201), trimming and turning an empty description into null', async () => {
    const teacher = await t.teacher();
    const res = await t.app.inject({ method: 'POST', url: '/api/courses', headers: teacher.headers, payload: { name: '  Gitarre 1 ', description: '   ' } });
    expect(res.statusCode).toBe(201);
    const c = res.json();
    expect(c).toMatchObject({ name: 'Gitarre 1', description: null, students_count: 0 });
    expect(new Date(c.created_at).toISOString()).toBe(c.created_at);
    const [row] = await t.db.select().from(courses).where(eq(courses.id, c.id));
    expect(row?.teacherId).toBe(teacher.id);
  });

  it('requires a name (422 errors.name, German and Turkish) and never answers 500 on odd input', async () => {
    const teacher = await t.teacher();
    const res = await t.app.inject({ method: 'POST', url: '/api/courses', headers: teacher.headers, payload: { name: '  ', description: 'x' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.name[0]).toBe('Dieses Feld ist erforderlich.');
    const tr = await t.app.inject({ method: 'POST', url: '/api/courses?language=tr', headers: teacher.headers, payload: { name: '' } });
    expect(tr.statusCode).toBe(422);
    expect(tr.json().errors.name[0]).toBe('Bu alan zorunludur.');
    for (const payload of [{}, { name: 5 }, { name: 'x'.repeat(121) }, { name: 'ok', description: 'd'.repeat(2001) }, []]) {
      const r = await t.app.inject({ method: 'POST', url: '/api/courses', headers: teacher.headers, payload });
      expect(r.statusCode).toBe(422);
    }
  });

  it('refuses a guest (401) and a student (403) before reading the body', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    expect((await t.app.inject({ method: 'POST', url: '/api/courses', payload: { name: 'X' } })).statusCode).toBe(401);
    const r = await t.app.inject({ method: 'POST', url: '/api/courses', headers: student.headers, payload: { name: 'X' } });
    expect(r.statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/courses', headers: student.headers, payload: {} })).statusCode).toBe(403);
  });
});

describe('PUT /api/courses/{id}', () => {
  it('renames the own course and keeps its count', async () => {
    const teacher = await t.teacher();
    const c = await t.course(teacher, { name: 'Alt', description: 'Beschreibung' });
    await t.student(teacher, { courseIds: [c.id] });
    const res = await t.app.inject({ method: 'PUT', url: `/api/courses/${c.id}`, headers: teacher.headers, payload: { name: 'Neu', description: '' } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: c.id, name: 'Neu', description: null, students_count: 1 });
  });

  it("answers 404 for another teacher's course and an unknown id, 403 for a student, 401 for a guest", async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const foreign = await t.course(other, { name: 'Fremd' });
    const student = await t.student(other, { courseIds: [foreign.id] });
    const res = await t.app.inject({ method: 'PUT', url: `/api/courses/${foreign.id}`, headers: teacher.headers, payload: { name: 'Gekapert' } });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('Nicht gefunden.');
    expect((await t.app.inject({ method: 'PUT', url: '/api/courses/2147483647', headers: teacher.headers, payload: { name: 'X' } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: '/api/courses/abc', headers: teacher.headers, payload: { name: 'X' } })).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'PUT', url: `/api/courses/${foreign.id}`, headers: student.headers, payload: { name: 'X' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `/api/courses/${foreign.id}`, payload: { name: 'X' } })).statusCode).toBe(401);
    const [row] = await t.db.select().from(courses).where(eq(courses.id, foreign.id));
    expect(row?.name).toBe('Fremd');
  });
});

describe('GET /api/courses/{id}', () => {
  it("answers the own course and 404 for another teacher's", async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const c = await t.course(teacher, { name: 'Meins' });
    const foreign = await t.course(other);
    expect((await t.app.inject({ method: 'GET', url: `/api/courses/${c.id}`, headers: teacher.headers })).json()).toMatchObject({ name: 'Meins' });
    expect((await t.app.inject({ method: 'GET', url: `/api/courses/${foreign.id}`, headers: teacher.headers })).statusCode).toBe(404);
  });
});

describe('DELETE /api/courses/{id}', () => {
  it('deletes the course and its enrolments but keeps its submissions with course_id null', async () => {
    const teacher = await t.teacher();
    const c = await t.course(teacher);
    const keep = await t.course(teacher);
    const student = await t.student(teacher, { courseIds: [c.id, keep.id] });
    const ex = await t.exercise(teacher, { courseIds: [c.id] });
    const sub = await t.submission(student, teacher, ex, { courseId: c.id });

    const res = await t.app.inject({ method: 'DELETE', url: `/api/courses/${c.id}`, headers: teacher.headers });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await t.db.select().from(courses).where(eq(courses.id, c.id))).toHaveLength(0);
    const [s] = await t.db.select().from(submissions).where(eq(submissions.id, sub.id));
    expect(s).toBeDefined();
    expect(s?.courseId).toBeNull();
    expect(s?.exerciseTitle).toBe(ex.title);
    const left = await t.db.select().from(enrolments).where(eq(enrolments.studentId, student.id));
    expect(left.map((e) => e.courseId)).toEqual([keep.id]);
    // gone from the list; a second delete is 404
    const list = await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.headers });
    expect(list.json().map((x: { id: number }) => x.id)).toEqual([keep.id]);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/courses/${c.id}`, headers: teacher.headers })).statusCode).toBe(404);
  });

  it("refuses another teacher's course (404), a student (403) and a guest (401), deleting nothing", async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const foreign = await t.course(other);
    const student = await t.student(other, { courseIds: [foreign.id] });
    const tr = await t.app.inject({ method: 'DELETE', url: `/api/courses/${foreign.id}`, headers: { ...teacher.headers, 'accept-language': 'tr' } });
    expect(tr.statusCode).toBe(404);
    expect(tr.json().message).toBe('Bulunamadı.');
    expect((await t.app.inject({ method: 'DELETE', url: `/api/courses/${foreign.id}`, headers: student.headers })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/courses/${foreign.id}` })).statusCode).toBe(401);
    expect(await t.db.select().from(courses).where(eq(courses.id, foreign.id))).toHaveLength(1);
  });
});

describe('OpenAPI', () => {
  it('describes the course and student calls from the same schemas', async () => {
    const docs = (await t.app.inject({ method: 'GET', url: '/api/docs' })).json();
    for (const path of ['/api/courses', '/api/courses/{id}', '/api/students', '/api/students/{id}', '/api/students/{id}/courses']) {
      expect(docs.paths[path], path).toBeDefined();
    }
    expect(docs.paths['/api/students'].post.requestBody.content['application/json'].schema.required).toEqual(['name', 'email', 'password']);
    expect(JSON.stringify(docs.paths['/api/students'].get.responses['200'])).not.toMatch(/password/);
  });
});
