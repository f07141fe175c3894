import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../db/client';
import { audit } from '../lib/audit';
import { createInvite } from '../modules/school/invites';
import type { Spec } from './authz-routes';
import type { Caller, World } from './authz-world';

/**
 * The authorization-matrix rows of the school routes (docs/decisions/schools-and-roles.md), spread into `matrix` (server/test/authz-routes.ts).
 * Only school A's administrator reaches school A's people and data; school C's administrator gets
 * 404 for A's ids (exactly like an unknown id) and lists without A's rows; every other role 403,
 * a guest 401. The invitation links are public: the 43-character secret is the permission.
 */

type Status = number | number[];
/** A route of the administrator: `cross` is what school C's administrator gets for school A's fixture. */
const adminOnly = (ok: Status, cross: Status): Record<Caller, Status> => ({
  guest: 401,
  studentA: 403,
  studentB: 403,
  teacherA: 403,
  teacherB: 403,
  teacherC: 403,
  guardianA: 403,
  guardianB: 403,
  adminA: ok,
  adminC: cross,
});
/**
 * A public route: every caller gets `ok`. (Spelled out here, not taken from `shapes`: authz-routes.ts
 * imports this file, so its values do not exist yet while this one loads.)
 */
const everyone = (ok: Status): Record<Caller, Status> => ({ ...adminOnly(ok, ok), guest: ok, studentA: ok, studentB: ok, teacherA: ok, teacherB: ok, teacherC: ok, guardianA: ok, guardianB: ok });

async function schoolName(w: World): Promise<string> {
  const [s] = await rows<{ name: string }>(w.t.db, sql`select name from schools where id = ${w.adminA.schoolId}`);
  return s!.name;
}

/** A fresh teacher of school A (named by a marker), optionally deactivated. */
async function teacherOfA(w: World, o: { deactivated?: boolean } = {}) {
  return w.t.teacher({ name: w.marker('lehrkraft'), email: `${w.marker('lehrkraft')}@example.test`, ...(o.deactivated ? { deactivatedAt: new Date() } : {}) });
}

/** A fresh open invitation of school A (made by its administrator) with its link's token. */
async function inviteOfA(w: World) {
  const name = w.marker('eingeladen');
  const email = `${w.marker('einladung')}@example.test`;
  const inv = await createInvite(w.t.db, w.adminA, { kind: 'teacher', name, email, studentIds: [] }, 'http://localhost', null);
  return { ...inv, token: inv.url.split('/einladung/')[1]! };
}

const dashboardCheck = (_w: World, caller: Caller, body: unknown) => {
  const b = body as { teachers: { active: number; deactivated: number }; weeks: unknown[] };
  expect(b.weeks).toHaveLength(8);
  // school A has a deactivated teacher (the fixture); school C none
  if (caller === 'adminA') expect(b.teachers.deactivated).toBeGreaterThan(0);
  if (caller === 'adminC') expect(b.teachers.deactivated).toBe(0);
};

export const schoolMatrix: Record<string, Spec> = {
  'GET /api/school': {
    access: 'admin',
    expect: adminOnly(200, 200),
    hidden: ['adminC'],
    visible: ['adminA'],
    build: async (w) => ({ url: '/api/school', secrets: [await schoolName(w)] }),
  },
  'PATCH /api/school': {
    access: 'admin',
    expect: adminOnly(200, 200),
    hidden: ['adminC'],
    visible: ['adminA'],
    // school A keeps its name (other rows name it); school C's administrator renames their own school only
    build: async (w, caller) => {
      const name = await schoolName(w);
      return { url: '/api/school', payload: { name: caller === 'adminC' ? 'Andere Musikschule' : name }, secrets: [name] };
    },
  },
  'GET /api/school/dashboard': {
    access: 'admin',
    expect: adminOnly(200, 200),
    hidden: ['adminC'],
    visible: ['adminA'],
    build: async (w) => {
      await teacherOfA(w, { deactivated: true });
      return { url: '/api/school/dashboard', secrets: [await schoolName(w)] };
    },
    check: dashboardCheck,
  },
  'GET /api/school/storage': {
    access: 'admin',
    expect: adminOnly(200, 200),
    hidden: ['adminC'],
    visible: ['adminA'],
    // the largest students of school A are named to A's administrator only
    build: async (w) => {
      const s = await w.student();
      await w.t.db.execute(sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms)
        select id, student_id, teacher_id, 'audio', 'audio/wav', ${`recordings/authz/${w.marker('p')}.wav`}, 'a.wav', 5000000, 1000
        from submissions where id = ${(await w.t.submission(s, w.teacherA, await w.t.exercise(w.teacherA))).id}`);
      w.t.forgetReads();
      return { url: '/api/school/storage', secrets: [s.name] };
    },
  },
  'PUT /api/school/storage': {
    access: 'admin',
    expect: adminOnly(200, 200),
    // each administrator sets their own school's quotas (the defaults again: nothing else changes)
    build: async () => ({ url: '/api/school/storage', payload: { quota_bytes: null, student_quota_bytes: null } }),
  },
  'GET /api/school/teachers': {
    access: 'admin',
    expect: adminOnly(200, 200),
    hidden: ['adminC'],
    visible: ['adminA'],
    build: async (w) => {
      const teacher = await teacherOfA(w);
      return { url: '/api/school/teachers', secrets: [teacher.name, teacher.email] };
    },
  },
  'POST /api/school/teachers/:id/deactivate': {
    access: 'admin',
    expect: adminOnly(200, 404),
    build: async (w) => {
      const teacher = await teacherOfA(w);
      return { url: `/api/school/teachers/${teacher.id}/deactivate`, id: teacher.id, secrets: [teacher.name, teacher.email] };
    },
  },
  'POST /api/school/teachers/:id/reactivate': {
    access: 'admin',
    expect: adminOnly(200, 404),
    build: async (w) => {
      const teacher = await teacherOfA(w, { deactivated: true });
      return { url: `/api/school/teachers/${teacher.id}/reactivate`, id: teacher.id, secrets: [teacher.name, teacher.email] };
    },
  },
  'GET /api/school/students': {
    access: 'admin',
    expect: adminOnly(200, 200),
    hidden: ['adminC'],
    visible: ['adminA'],
    build: async (w) => {
      const s = await w.student();
      return { url: `/api/school/students?teacher_id=${w.teacherA.id}`, secrets: [s.name, s.email] };
    },
  },
  'POST /api/school/students/:id/move': {
    access: 'admin',
    expect: adminOnly(200, 404),
    build: async (w) => {
      const s = await w.student();
      return { url: `/api/school/students/${s.id}/move`, id: s.id, payload: { teacher_id: w.teacherB.id }, secrets: [s.name, s.email] };
    },
  },
  'GET /api/school/students/:id/export': {
    access: 'admin',
    expect: adminOnly(200, 404),
    build: async (w) => {
      const s = await w.student();
      return { url: `/api/school/students/${s.id}/export`, id: s.id, secrets: [s.name, s.email] };
    },
  },
  'POST /api/school/students/:id/erase': {
    access: 'admin',
    expect: adminOnly(200, 404),
    build: async (w) => {
      const s = await w.student();
      return { url: `/api/school/students/${s.id}/erase`, id: s.id, payload: { confirm_name: s.name }, secrets: [s.email] };
    },
  },
  'POST /api/school/invites': {
    access: 'admin',
    expect: adminOnly(201, 201),
    build: async (w) => ({ url: '/api/school/invites', payload: { name: w.marker('neue-lehrkraft'), email: `${w.marker('neu')}@example.test` } }),
  },
  'GET /api/school/invites': {
    access: 'admin',
    expect: adminOnly(200, 200),
    hidden: ['adminC'],
    visible: ['adminA'],
    build: async (w) => {
      const inv = await inviteOfA(w);
      return { url: '/api/school/invites', secrets: [inv.name, inv.email, inv.token] };
    },
    check: (_w, _caller, body) => {
      // the link is only in the answer that made it
      expect(JSON.stringify(body)).not.toContain('/einladung/');
    },
  },
  'DELETE /api/school/invites/:id': {
    access: 'admin',
    expect: adminOnly(204, 404),
    build: async (w) => {
      const inv = await inviteOfA(w);
      return { url: `/api/school/invites/${inv.id}`, id: inv.id, secrets: [inv.name, inv.email] };
    },
  },
  'GET /api/invites/:token': {
    // the secret in the link is the permission: whoever holds it sees whom it invites
    access: 'public',
    expect: everyone(200),
    visible: ['guest', 'studentA', 'studentB', 'teacherA', 'teacherB', 'teacherC', 'adminA', 'adminC', 'guardianA', 'guardianB'],
    build: async (w) => {
      const inv = await inviteOfA(w);
      return { url: `/api/invites/${inv.token}`, secrets: [inv.name] };
    },
  },
  'POST /api/invites/:token/accept': {
    access: 'public',
    expect: everyone(200),
    build: async (w) => {
      const inv = await inviteOfA(w);
      return { url: `/api/invites/${inv.token}/accept`, payload: { password: 'einladung-1234' } };
    },
    check: (_w, _caller, body) => {
      expect((body as { user: { role: { name: string } } }).user.role.name).toBe('teacher');
    },
  },
  'GET /api/school/audit-log': {
    access: 'admin',
    expect: adminOnly(200, 200),
    hidden: ['adminC'],
    visible: ['adminA'],
    build: async (w) => {
      const name = w.marker('protokoll');
      await audit(w.t.db, { id: w.adminA.id, schoolId: w.adminA.schoolId, name: w.adminA.name, role: 'admin' }, 'teacher.reactivate', { type: 'user', id: null, name });
      return { url: '/api/school/audit-log', secrets: [name] };
    },
  },
};
