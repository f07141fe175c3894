import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../db/client';
import type { Spec, Status } from './authz-routes';
import type { Caller, World } from './authz-world';

/**
 * The authorization-matrix rows of the messages routes (docs/decisions/messages.md), spread into
 * `matrix` (server/test/authz-routes.ts). Student A's conversation: student A, teacher A and
 * guardian A take part. Student B and guardian B (a sibling's family in the same school), teacher
 * B (a colleague) and school C's teacher get 404 like a missing conversation; the administrators
 * take part in none (403).
 */
const conversationA = (ok: Status, o: Partial<Record<Caller, Status>> = {}): Record<Caller, Status> => ({
  guest: 401,
  studentA: ok,
  studentB: 404,
  teacherA: ok,
  teacherB: 404,
  teacherC: 404,
  adminA: 403,
  adminC: 403,
  guardianA: ok,
  guardianB: 404,
  ...o,
});
const adminOnly = (ok: number): Record<Caller, Status> => ({
  guest: 401,
  studentA: 403,
  studentB: 403,
  teacherA: 403,
  teacherB: 403,
  teacherC: 403,
  adminA: ok,
  adminC: ok,
  guardianA: 403,
  guardianB: 403,
});

/** A message in student A's conversation (by teacher A unless said), with a unique text. */
async function messageA(w: World, o: { kind?: 'message' | 'lesson_note' } = {}) {
  const body = w.marker('nachricht');
  const [m] = await rows<{ id: number }>(
    w.t.db,
    sql`insert into messages (school_id, student_id, author_id, author_role, kind, body)
        values ((select school_id from users where id = ${w.studentA.id}), ${w.studentA.id}, ${w.teacherA.id}, 'teacher', ${o.kind ?? 'message'}, ${body}) returning id`,
  );
  return { id: m!.id, body };
}

const participants: Caller[] = ['studentA', 'teacherA', 'guardianA'];
const outsiders: Caller[] = ['studentB', 'teacherB', 'teacherC', 'guardianB'];

export const messagesMatrix: Record<string, Spec> = {
  'GET /api/conversations': {
    access: 'any',
    expect: { ...conversationA(200), studentB: 200, teacherB: 200, teacherC: 200, guardianB: 200 },
    visible: participants,
    hidden: outsiders,
    build: async (w) => {
      const m = await messageA(w);
      return { url: '/api/conversations', secrets: [m.body] };
    },
  },
  'GET /api/conversations/unread': {
    access: 'any',
    expect: { ...conversationA(200), studentB: 200, teacherB: 200, teacherC: 200, guardianB: 200, adminA: 200, adminC: 200 },
    build: async (w) => {
      await messageA(w);
      return { url: '/api/conversations/unread' };
    },
    check: (_w, caller, body) => {
      const n = (body as { unread: number }).unread;
      if (outsiders.includes(caller) || caller.startsWith('admin')) expect(n).toBe(0);
      if (caller === 'studentA' || caller === 'guardianA') expect(n).toBeGreaterThan(0);
    },
  },
  'GET /api/conversations/:studentId/messages': {
    access: 'any',
    expect: conversationA(200),
    visible: participants,
    build: async (w) => {
      const m = await messageA(w);
      return { url: `/api/conversations/${w.studentA.id}/messages`, id: w.studentA.id, secrets: [m.body] };
    },
  },
  'POST /api/conversations/:studentId/messages': {
    access: 'any',
    expect: conversationA(201),
    build: async (w) => ({ method: 'POST', url: `/api/conversations/${w.studentA.id}/messages`, id: w.studentA.id, payload: { body: w.marker('antwort') } }),
  },
  'POST /api/conversations/:studentId/read': {
    access: 'any',
    expect: conversationA(204),
    build: async (w) => {
      const m = await messageA(w);
      return { method: 'POST', url: `/api/conversations/${w.studentA.id}/read`, id: w.studentA.id, payload: { up_to: m.id }, secrets: [m.body] };
    },
  },
  'PATCH /api/messages/:id': {
    access: 'any',
    expect: conversationA(200, { studentA: 403, guardianA: 403 }),
    build: async (w) => {
      const m = await messageA(w, { kind: 'lesson_note' });
      return { method: 'PATCH', url: `/api/messages/${m.id}`, id: m.id, payload: { pinned: true }, secrets: [m.body] };
    },
  },
  'DELETE /api/messages/:id': {
    access: 'any',
    expect: conversationA(204, { studentA: 403, guardianA: 403 }),
    build: async (w) => {
      const m = await messageA(w);
      return { method: 'DELETE', url: `/api/messages/${m.id}`, id: m.id, secrets: [m.body] };
    },
  },
  'GET /api/school/message-retention': {
    access: 'admin',
    expect: adminOnly(200),
    build: async () => ({ url: '/api/school/message-retention' }),
  },
  'PUT /api/school/message-retention': {
    access: 'admin',
    expect: adminOnly(200),
    build: async () => ({ method: 'PUT', url: '/api/school/message-retention', payload: { retention_days: 400 } }),
  },
};
