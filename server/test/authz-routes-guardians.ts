import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Spec, Status } from './authz-routes';
import type { Caller } from './authz-world';

/**
 * The authorization-matrix rows of the guardians routes (docs/decisions/schools-and-roles.md), spread into `matrix`
 * (server/test/authz-routes.ts). The shapes are spelled out here: this file is loaded while
 * authz-routes.ts is, so its `shapes` do not exist yet.
 *
 * Staff routes on a student of teacher A: teacher A and the administrator of school A may; teacher
 * B (same school, not the student's teacher), teacher C and the administrator of school C (another
 * school) get 404 like a missing id; students and guardians 403. Guardian routes: guardian A reads
 * student A, guardian B (of student B, a sibling in the same school and course) gets 404 for A.
 */
const staffOnStudentA = (ok: number): Record<Caller, Status> => ({
  guest: 401,
  studentA: 403,
  studentB: 403,
  teacherA: ok,
  teacherB: 404,
  teacherC: 404,
  adminA: ok,
  adminC: 404,
  guardianA: 403,
  guardianB: 403,
});
const guardianOnly = (a: Status, b: Status): Record<Caller, Status> => ({
  guest: 401,
  studentA: 403,
  studentB: 403,
  teacherA: 403,
  teacherB: 403,
  teacherC: 403,
  adminA: 403,
  adminC: 403,
  guardianA: a,
  guardianB: b,
});

export const guardianMatrix: Record<string, Spec> = {
  'GET /api/students/:id/guardians': {
    access: 'staff',
    expect: staffOnStudentA(200),
    visible: ['teacherA', 'adminA'],
    build: async (w) => {
      const s = await w.student();
      const g = await w.t.guardian([s], { name: w.marker('elternteil') });
      return { url: `/api/students/${s.id}/guardians`, id: s.id, secrets: [g.email, g.name, s.name] };
    },
    check: (_w, _caller, body) => {
      expect((body as { guardians: unknown[] }).guardians).toHaveLength(1);
    },
  },
  'POST /api/students/:id/guardians': {
    access: 'staff',
    expect: staffOnStudentA(201),
    build: async (w) => {
      const s = await w.student();
      return {
        url: `/api/students/${s.id}/guardians`,
        id: s.id,
        payload: { name: w.marker('mutter'), email: `${w.marker('eltern')}@example.test` },
        secrets: [s.name],
      };
    },
    check: (_w, _caller, body) => {
      const b = body as { guardian: unknown; invite: { url: string } | null };
      expect(b.guardian).toBeNull();
      expect(b.invite?.url).toMatch(/\/einladung\/[A-Za-z0-9_-]{43}$/);
    },
  },
  'DELETE /api/students/:id/guardians/:guardianId': {
    access: 'staff',
    expect: staffOnStudentA(204),
    build: async (w) => {
      const s = await w.student();
      const g = await w.t.guardian([s], { name: w.marker('vater') });
      return { url: `/api/students/${s.id}/guardians/${g.id}`, id: s.id, secrets: [g.name, g.email] };
    },
  },
  'GET /api/guardian/weekly-note': {
    access: 'guardian',
    expect: guardianOnly(200, 200),
    build: async () => ({ url: '/api/guardian/weekly-note' }),
  },
  'PUT /api/guardian/weekly-note': {
    access: 'guardian',
    expect: guardianOnly(200, 200),
    build: async () => ({ method: 'PUT', url: '/api/guardian/weekly-note', payload: { weekly_note: true } }),
  },
  'GET /api/guardian/children': {
    access: 'guardian',
    expect: guardianOnly(200, 200),
    hidden: ['guardianB'],
    visible: ['guardianA'],
    build: async (w) => ({ url: '/api/guardian/children', secrets: [w.studentA.name, `"id":${w.studentA.id},`] }),
    check: (w, caller, body) => {
      const own = caller === 'guardianA' ? w.studentA : w.studentB;
      expect((body as { data: Array<{ id: number }> }).data.map((c) => c.id)).toEqual([own.id]);
    },
  },
  'GET /api/guardian/children/:id': {
    access: 'guardian',
    expect: guardianOnly(200, 404),
    visible: ['guardianA'],
    build: async (w) => {
      const task = await w.task();
      const feedback = w.marker('rueckmeldung');
      await w.t.db.execute(sql`update submissions set teacher_feedback = ${feedback} where id = ${task.id}`);
      w.t.forgetReads();
      return { url: `/api/guardian/children/${w.studentA.id}`, id: w.studentA.id, secrets: [feedback, task.teacherNote!, task.exercise.title, w.studentA.name] };
    },
    check: (w, _caller, body) => {
      expect((body as { child: { id: number } }).child.id).toBe(w.studentA.id);
    },
  },
};
