import { expect } from 'vitest';
import type { Access } from '../lib/auth';
import { hashToken, issueToken } from '../lib/auth';
import { signMediaUrl } from '../modules/media/media.service';
import { CalendarFeedService } from '../modules/calendar-feed/calendar-feed.service';
import { unsubscribeToken } from '../modules/reminders/reminders.service';
import { staffPng } from '../modules/media/sample-files';
import { makeWav } from '../modules/recordings/sample-recordings';
import { storeTrack } from '@contract/listening/analyze';
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { rows } from '../db/client';
import { multipart, type Caller, type World } from './authz-world';
import { TEST_PASSWORD } from './test-app';
import { schoolMatrix } from './authz-routes-school';
import { guardianMatrix } from './authz-routes-guardians';
import { messagesMatrix } from './authz-routes-messages';

/**
 * One row per route of the app: who may call it (the declared access), what each kind of caller
 * gets, and how to build a fresh, valid request on data owned by teacher A / student A.
 * Used by the authorization matrix and by the hostile-input tests (as the valid base to mutate).
 */

export type Status = number | number[];
export type Req = {
  method?: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  /** Texts of the fixture that refused and `hidden` callers must never see. */
  secrets?: string[];
  /** The id in the URL (number or encoded path): refused 404s must equal the answer for a non-existent one. */
  id?: string | number;
  nonexistentUrl?: string;
};
export type Spec = {
  access: Access;
  expect: Record<Caller, Status>;
  build: (w: World, caller: Caller) => Promise<Req>;
  /** Allowed callers whose answer must not contain the fixture's secrets (lists, filters). */
  hidden?: Caller[];
  /** Allowed callers whose answer must contain the first secret (proves the leak check can see). */
  visible?: Caller[];
  check?: (w: World, caller: Caller, body: unknown) => void;
};

// Shapes of the usual rows. Outside school A (teacherC, adminC) nothing of A's exists: a route of
// the caller's own role answers 404 (or its filtered list), another role's 403. An administrator or
// a guardian calling a teacher's or a student's route gets 403 (docs/decisions/schools-and-roles.md).
const newcomers = { adminA: 403, guardianA: 403, guardianB: 403, adminC: 403 } as const;
const teacherOwned = (ok: number): Record<Caller, Status> => ({ guest: 401, studentA: 403, studentB: 403, teacherA: ok, teacherB: 404, teacherC: 404, ...newcomers });
/** Builds of the attention card so far: each one's student registered two days before the previous one's. */
let quietBuilds = 0;

const teacherAny = (ok: number, b: Status = ok): Record<Caller, Status> => ({ guest: 401, studentA: 403, studentB: 403, teacherA: ok, teacherB: b, teacherC: b, ...newcomers });
const studentOwned = (ok: number): Record<Caller, Status> => ({ guest: 401, studentA: ok, studentB: 404, teacherA: 403, teacherB: 403, teacherC: 403, ...newcomers });
const sharedTask = (ok: number): Record<Caller, Status> => ({ guest: 401, studentA: ok, studentB: 404, teacherA: ok, teacherB: 404, teacherC: 404, ...newcomers });
/** A route of the practice app (access `user`): teachers and students. */
const anyUser = (ok: number, b: Status = ok): Record<Caller, Status> => ({ guest: 401, studentA: ok, studentB: b, teacherA: ok, teacherB: b, teacherC: b, ...newcomers });
/** A route of every signed-in account (access `any`). */
const anyAccount = (ok: number): Record<Caller, Status> => ({ guest: 401, studentA: ok, studentB: ok, teacherA: ok, teacherB: ok, teacherC: ok, adminA: ok, guardianA: ok, guardianB: ok, adminC: ok });
const everyone = (ok: number): Record<Caller, Status> => ({ ...anyAccount(ok), guest: ok });
/** A route of one student role: every student gets their own answer. */
const anyStudent = (ok: number): Record<Caller, Status> => ({ guest: 401, studentA: ok, studentB: ok, teacherA: 403, teacherB: 403, teacherC: 403, ...newcomers });
/** A foreign filter value may be ignored (200 without the rows), or refused. */
const FILTERED: Status = [200, 404, 422];

export const NONEXISTENT = 2147483000;
const pngBytes = staffPng(30, 20);
const wavBytes = makeWav(2000);

/** A recording of student A on a fresh task of theirs (row and file), optionally with a comment of teacher A. */
async function recording(w: World, o: { comment?: boolean } = {}) {
  const task = await w.task();
  const path = `recordings/${task.id}/${randomBytes(16).toString('hex')}.wav`;
  await mkdir(join(w.t.deps.mediaDir, 'recordings', String(task.id)), { recursive: true });
  await writeFile(join(w.t.deps.mediaDir, path), wavBytes);
  const message = w.marker('aufnahme');
  const [r] = await rows<{ id: number }>(
    w.t.db,
    sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms, message)
      values (${task.id}, ${w.studentA.id}, ${w.teacherA.id}, 'audio', 'audio/wav', ${path}, 'take.wav', ${wavBytes.length}, 2000, ${message}) returning id`,
  );
  let commentId: number | null = null;
  const commentText = w.marker('kommentar');
  if (o.comment) {
    const [c] = await rows<{ id: number }>(w.t.db, sql`insert into recording_comments (recording_id, teacher_id, at_ms, text) values (${r!.id}, ${w.teacherA.id}, 500, ${commentText}) returning id`);
    commentId = c!.id;
  }
  w.t.forgetReads();
  return { id: r!.id, task, path, message, commentId, commentText };
}

/** A fresh "Passwort vergessen?" link of this user (as the mail would carry it). */
async function resetLink(w: World, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await w.t.db.execute(sql`insert into password_resets (user_id, token_hash, expires_at) values (${userId}, ${hashToken(token)}, now() + interval '1 hour')`);
  return token;
}

/** Two seconds of a held A3 (the recordings of `recording` last 2 s). */
const authzTrack = () => ({ hopMs: 20, f0: new Float32Array(90).fill(220), onsetsMs: [40] });

/**
 * A minute in the past for an offline session of student A that overlaps no other (each build takes
 * its own slot, counted back from a fixed base an hour before the file was loaded).
 */
const OFFLINE_BASE_MS = Date.now() - 60 * 60_000;
let offlineSlot = 0;
function offlineTimes(): { started_at: string; ended_at: string } {
  const ended = OFFLINE_BASE_MS - (offlineSlot++ % 4000) * 90_000;
  return { started_at: new Date(ended - 60_000).toISOString(), ended_at: new Date(ended).toISOString() };
}

export const matrix: Record<string, Spec> = {
  ...schoolMatrix,
  ...guardianMatrix,
  ...messagesMatrix,
  'GET /api/health': { access: 'public', expect: everyone(200), build: async () => ({ url: '/api/health' }) },
  'GET /api/docs': { access: 'public', expect: everyone(200), build: async () => ({ url: '/api/docs' }) },
  'POST /api/login': {
    access: 'public',
    expect: everyone(200),
    build: async (w) => {
      const u = await w.t.teacher();
      return { url: '/api/login', payload: { email: u.email, password: TEST_PASSWORD } };
    },
  },
  'POST /api/password-reset': {
    // the same answer for every caller and every address (the link, if any, goes by mail)
    access: 'public',
    expect: everyone(200),
    build: async (w) => ({ url: '/api/password-reset', payload: { email: w.studentA.email } }),
    check: (_w, _caller, body) => {
      expect(body).toMatchObject({ mailed: false });
    },
  },
  'GET /api/password-reset/:token': {
    // the secret in the link (mailed to the account's address) is the permission
    access: 'public',
    expect: everyone(200),
    visible: ['guest', 'studentA', 'studentB', 'teacherA', 'teacherB', 'teacherC', 'adminA', 'adminC', 'guardianA', 'guardianB'],
    build: async (w) => {
      const u = await w.t.teacher({ name: w.marker('vergessen') });
      const token = await resetLink(w, u.id);
      return { url: `/api/password-reset/${token}`, secrets: [u.name] };
    },
  },
  'POST /api/password-reset/:token': {
    access: 'public',
    expect: everyone(200),
    build: async (w) => {
      const u = await w.t.teacher();
      return { url: `/api/password-reset/${await resetLink(w, u.id)}`, payload: { password: 'neu-gesetzt-1234' } };
    },
    check: (_w, _caller, body) => {
      expect((body as { user: { role: { name: string } } }).user.role.name).toBe('teacher');
    },
  },
  'GET /api/notification-settings': {
    access: 'any',
    expect: { ...anyStudent(200), guardianA: 200, guardianB: 200 },
    build: async () => ({ url: '/api/notification-settings' }),
  },
  'PUT /api/notification-settings': {
    access: 'any',
    expect: { ...anyStudent(200), guardianA: 200, guardianB: 200 },
    build: async () => ({ method: 'PUT', url: '/api/notification-settings', payload: { reminder_time: '17:00' } }),
  },
  'GET /api/notification-settings/digest': {
    access: 'any',
    expect: { ...anyStudent(200), guardianA: 200, guardianB: 200 },
    build: async () => ({ url: '/api/notification-settings/digest' }),
  },
  'PUT /api/notification-settings/digest': {
    access: 'any',
    expect: { ...anyStudent(200), guardianA: 200, guardianB: 200 },
    build: async () => ({ method: 'PUT', url: '/api/notification-settings/digest', payload: { feedback_digest: true } }),
  },
  'GET /api/push': {
    access: 'any',
    expect: { ...anyStudent(200), guardianA: 200, guardianB: 200 },
    build: async () => ({ url: '/api/push' }),
  },
  'PUT /api/push/subscription': {
    access: 'any',
    expect: { ...anyStudent(200), guardianA: 200, guardianB: 200 },
    build: async (w) => ({
      method: 'PUT',
      url: '/api/push/subscription',
      payload: { endpoint: `https://fcm.googleapis.com/fcm/send/${w.marker('geraet')}`, keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) } },
    }),
  },
  'DELETE /api/push/subscription': {
    access: 'any',
    expect: { ...anyStudent(200), guardianA: 200, guardianB: 200 },
    build: async (w) => ({ method: 'DELETE', url: '/api/push/subscription', payload: { endpoint: `https://fcm.googleapis.com/fcm/send/${w.marker('geraet')}` } }),
  },
  'GET /api/unsubscribe/:token': {
    // the signed token of a reminder mail is the permission (for its user and kind only)
    access: 'public',
    expect: everyone(200),
    visible: ['guest', 'studentA', 'studentB', 'teacherA', 'teacherB', 'teacherC', 'adminA', 'adminC', 'guardianA', 'guardianB'],
    build: async (w) => ({ url: `/api/unsubscribe/${unsubscribeToken(w.t.deps.secret, w.studentA.id)}`, secrets: [w.studentA.name] }),
  },
  'POST /api/unsubscribe/:token': {
    access: 'public',
    expect: everyone(200),
    build: async (w) => ({ url: `/api/unsubscribe/${unsubscribeToken(w.t.deps.secret, w.studentA.id)}` }),
  },
  'GET /api/user': {
    access: 'any',
    expect: anyAccount(200),
    build: async () => ({ url: '/api/user' }),
    check: (w, caller, body) => {
      if (caller !== 'guest') expect((body as { id: number }).id).toBe(w.users[caller].id);
    },
  },
  'POST /api/logout': {
    access: 'any',
    expect: anyAccount(204),
    // a fresh token of the caller: logging out must not end the session the other cells use
    build: async (w, caller) =>
      caller === 'guest' ? { url: '/api/logout' } : { url: '/api/logout', headers: { authorization: `Bearer ${await issueToken(w.t.db, w.users[caller].id)}` } },
  },

  // Courses
  'GET /api/courses': {
    access: 'user',
    expect: anyUser(200),
    hidden: ['studentB', 'teacherB'],
    visible: ['studentA', 'teacherA'],
    build: async (w) => {
      const c = await w.course();
      return { url: '/api/courses', secrets: [c.name, c.description!] };
    },
  },
  'GET /api/courses/:id': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const c = await w.course();
      return { url: `/api/courses/${c.id}`, id: c.id, secrets: [c.name] };
    },
  },
  'POST /api/courses': { access: 'teacher', expect: teacherAny(201), build: async (w) => ({ url: '/api/courses', payload: { name: w.marker('neu') } }) },
  'PUT /api/courses/:id': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const c = await w.course();
      return { url: `/api/courses/${c.id}`, id: c.id, payload: { name: 'Übernommen', description: '' }, secrets: [c.name] };
    },
  },
  'DELETE /api/courses/:id': {
    access: 'teacher',
    expect: teacherOwned(204),
    build: async (w) => {
      const c = await w.course();
      return { url: `/api/courses/${c.id}`, id: c.id };
    },
  },

  // Students
  'GET /api/students': {
    access: 'teacher',
    expect: teacherAny(200, FILTERED),
    hidden: ['teacherB'],
    visible: ['teacherA'],
    build: async (w) => {
      const s = await w.student();
      const courseId = (await w.t.db.query.enrolments.findFirst({ where: (e, { eq }) => eq(e.studentId, s.id) }))!.courseId;
      return { url: `/api/students?course_id=${courseId}`, secrets: [s.name, s.email] };
    },
  },
  'GET /api/students/progress': {
    access: 'teacher',
    expect: teacherAny(200, FILTERED),
    hidden: ['teacherB'],
    visible: ['teacherA'],
    build: async (w) => {
      const s = await w.student();
      const courseId = (await w.t.db.query.enrolments.findFirst({ where: (e, { eq }) => eq(e.studentId, s.id) }))!.courseId;
      // the answer names students by id only: the id is what must not reach another teacher
      return { url: `/api/students/progress?course_id=${courseId}`, secrets: [`"student_id":${s.id},`] };
    },
  },
  'GET /api/students/:id': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const s = await w.student();
      return { url: `/api/students/${s.id}`, id: s.id, secrets: [s.name, s.email] };
    },
  },
  'POST /api/students': {
    access: 'teacher',
    expect: teacherAny(201, [404, 422]),
    build: async (w) => {
      const c = await w.course();
      return {
        url: '/api/students',
        payload: { name: w.marker('neuer'), email: `${w.marker('mail')}@example.test`, password: 'geheim-1234', course_ids: [c.id] },
        secrets: [c.name],
      };
    },
  },
  'PUT /api/students/:id': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const s = await w.student();
      return { url: `/api/students/${s.id}`, id: s.id, payload: { name: 'Übernommen', email: s.email, password: 'uebernommen-123' }, secrets: [s.name] };
    },
  },
  'PUT /api/students/:id/courses': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const s = await w.student();
      const c = await w.course();
      return { url: `/api/students/${s.id}/courses`, id: s.id, payload: { course_ids: [c.id] }, secrets: [s.name, c.name] };
    },
  },
  'DELETE /api/students/:id': {
    access: 'teacher',
    expect: teacherOwned(204),
    build: async (w) => {
      const s = await w.student();
      return { url: `/api/students/${s.id}`, id: s.id };
    },
  },

  // Exercises
  'GET /api/exercises': {
    access: 'teacher',
    expect: teacherAny(200, FILTERED),
    hidden: ['teacherB'],
    visible: ['teacherA'],
    build: async (w) => {
      const e = await w.exercise();
      return { url: `/api/exercises?course_id=${e.course.id}`, secrets: [e.title, e.description!] };
    },
  },
  'GET /api/exercises/:id': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const e = await w.exercise();
      return { url: `/api/exercises/${e.id}`, id: e.id, secrets: [e.title, e.mediaPath!] };
    },
  },
  'POST /api/exercises': {
    access: 'teacher',
    expect: teacherAny(201, [404, 422]),
    build: async (w) => {
      const c = await w.course();
      const body = await multipart([
        ['title', w.marker('neue')],
        ['course_ids[0]', String(c.id)],
        ['media_files[0]', pngBytes, 'bild.png', 'image/png'],
      ]);
      return { url: '/api/exercises', payload: body.payload, headers: body.headers, secrets: [c.name] };
    },
  },
  'POST /api/exercises/:id': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const e = await w.exercise();
      const body = await multipart([
        ['title', 'Übernommen'],
        ['media_files[0]', pngBytes, 'fremd.png', 'image/png'],
      ]);
      return { url: `/api/exercises/${e.id}`, id: e.id, payload: body.payload, headers: body.headers, secrets: [e.title] };
    },
  },
  'DELETE /api/exercises/:id': {
    access: 'teacher',
    expect: teacherOwned(204),
    build: async (w) => {
      const e = await w.exercise();
      return { url: `/api/exercises/${e.id}`, id: e.id };
    },
  },
  'GET /api/exercise-categories': { access: 'user', expect: anyUser(200), build: async () => ({ url: '/api/exercise-categories?language=tr' }) },

  // Media
  'GET /api/media/*': {
    // docs/decisions/schools-and-roles.md: also a guardian of the task's student (guardianB follows student B: 404); an administrator 403
    access: 'any',
    expect: { ...sharedTask(200), guardianA: 200, guardianB: 404 },
    build: async (w) => {
      const s = await w.task();
      const path = s.exercise.mediaPath!;
      return {
        url: `/api/media/${encodeURIComponent(path)}`,
        nonexistentUrl: `/api/media/${encodeURIComponent(`exercises/${NONEXISTENT}/media/${'0'.repeat(32)}.png`)}`,
        secrets: [path],
      };
    },
  },
  'GET /api/media-file/*': {
    // the signed link is the capability: whoever holds it may fetch the bytes for an hour
    access: 'public',
    expect: everyone(200),
    build: async (w) => {
      const e = await w.exercise();
      return { url: signMediaUrl(w.t.deps.secret, e.mediaPath!) };
    },
  },

  // Submissions (tasks)
  'GET /api/submissions': {
    access: 'user',
    expect: anyUser(200, FILTERED),
    hidden: ['studentB', 'teacherB'],
    visible: ['studentA', 'teacherA'],
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/submissions?course_id=${s.exercise.course.id}`, secrets: [s.teacherNote!, s.exercise.title] };
    },
  },
  'GET /api/submissions/counts': {
    access: 'user',
    expect: anyUser(200, FILTERED),
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/submissions/counts?course_id=${s.exercise.course.id}` };
    },
    // numbers, no texts: whoever is not A counts none of A's tasks
    check: (_w, caller, body) => {
      const total = (body as { total: number }).total;
      if (caller === 'studentA' || caller === 'teacherA') expect(total).toBeGreaterThan(0);
      else expect(total).toBe(0);
    },
  },
  'GET /api/submissions/series': {
    access: 'user',
    // a student reads their own series whatever `student_id` says; a teacher only their students'
    expect: { guest: 401, studentA: 200, studentB: 200, teacherA: 200, teacherB: 404, teacherC: 404, ...newcomers },
    hidden: ['studentB'],
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/submissions/series?student_id=${w.studentA.id}`, secrets: [s.exercise.title] };
    },
  },
  'GET /api/submissions/:id': {
    access: 'user',
    expect: sharedTask(200),
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/submissions/${s.id}`, id: s.id, secrets: [s.teacherNote!, s.exercise.title] };
    },
  },
  'PATCH /api/submissions/:id/complete': {
    access: 'student',
    expect: studentOwned(200),
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/submissions/${s.id}/complete`, id: s.id, secrets: [s.teacherNote!] };
    },
  },
  'DELETE /api/submissions/:id/complete': {
    access: 'student',
    // taking back 'done' (a task not done stays as it is: 200); another student's task is not found
    expect: studentOwned(200),
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/submissions/${s.id}/complete`, id: s.id, secrets: [s.teacherNote!] };
    },
  },
  'POST /api/submissions': {
    access: 'teacher',
    expect: teacherAny(201, [404, 422]),
    build: async (w) => {
      const e = await w.exercise();
      return {
        url: '/api/submissions',
        payload: { exercise_id: e.id, due_date: w.inDays(2), course_id: e.course.id, assignees: { users: [w.studentA.id] }, expiration_days: 2 },
        secrets: [e.title],
      };
    },
  },
  'DELETE /api/submissions/:id': {
    access: 'teacher',
    expect: teacherOwned(204),
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/submissions/${s.id}`, id: s.id };
    },
  },
  'PATCH /api/submissions/:id/review': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/submissions/${s.id}/review`, id: s.id, payload: { accuracy_score: 80, competency_level: 'advanced', teacher_feedback: 'gut' }, secrets: [s.teacherNote!] };
    },
  },
  'GET /api/calendar-events': {
    access: 'user',
    expect: anyUser(200, FILTERED),
    hidden: ['studentB', 'teacherB'],
    visible: ['studentA', 'teacherA'],
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/calendar-events?course_id=${s.exercise.course.id}&start=${w.inDays(-5)}&end=${w.inDays(20)}`, secrets: [s.exercise.title] };
    },
  },

  // Practice
  'POST /api/submissions/:id/practice-sessions/start': {
    access: 'student',
    expect: studentOwned(201),
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/submissions/${s.id}/practice-sessions/start`, id: s.id };
    },
  },
  'POST /api/submissions/:id/practice-sessions/offline': {
    access: 'student',
    expect: studentOwned(201),
    build: async (w) => {
      const s = await w.task();
      return { url: `/api/submissions/${s.id}/practice-sessions/offline`, id: s.id, payload: offlineTimes() };
    },
  },
  'POST /api/practice-sessions/:id/stop': {
    access: 'student',
    expect: studentOwned(200),
    build: async (w) => {
      const p = await w.runningSession();
      return { url: `/api/practice-sessions/${p.id}/stop`, id: p.id };
    },
  },
  'GET /api/submissions/:id/practice-sessions/active': {
    access: 'user',
    expect: sharedTask(200),
    build: async (w) => {
      const p = await w.runningSession();
      return { url: `/api/submissions/${p.task.id}/practice-sessions/active`, id: p.task.id, secrets: [p.startedAt.toISOString()] };
    },
  },
  'GET /api/submissions/:id/practice-sessions': {
    access: 'user',
    expect: sharedTask(200),
    build: async (w) => {
      const p = await w.runningSession();
      return { url: `/api/submissions/${p.task.id}/practice-sessions`, id: p.task.id, secrets: [p.startedAt.toISOString()] };
    },
  },

  // Metrics and dashboards
  'GET /api/my-metrics': { access: 'student', expect: anyStudent(200), build: async () => ({ url: '/api/my-metrics' }) },
  'GET /api/students/:id/metrics': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const s = await w.student();
      return { url: `/api/students/${s.id}/metrics`, id: s.id };
    },
  },
  'GET /api/students/:id/overview': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const s = await w.student();
      return { url: `/api/students/${s.id}/overview`, id: s.id, secrets: [s.name, s.email] };
    },
  },
  'GET /api/dashboard': {
    access: 'teacher',
    expect: teacherAny(200, FILTERED),
    hidden: ['teacherB'],
    visible: ['teacherA'],
    build: async (w) => {
      const s = await w.student();
      const courseId = (await w.t.db.query.enrolments.findFirst({ where: (e, { eq }) => eq(e.studentId, s.id) }))!.courseId;
      return { url: `/api/dashboard?course_id=${courseId}`, secrets: [s.name, s.email] };
    },
  },
  'GET /api/dashboard/attention': {
    access: 'teacher',
    expect: teacherAny(200, FILTERED),
    hidden: ['teacherB'],
    visible: ['teacherA'],
    build: async (w) => {
      // Never practised and registered before every earlier one: first on teacher A's list of quiet students.
      quietBuilds += 2;
      const s = await w.t.student(w.teacherA, { name: w.marker('still'), createdAt: new Date(Date.now() - (30 + quietBuilds) * 86_400_000) });
      return { url: '/api/dashboard/attention', secrets: [s.name, s.email] };
    },
  },
  // Recordings (docs/decisions/recordings.md)
  'POST /api/submissions/:id/recordings': {
    access: 'student',
    expect: studentOwned(201),
    build: async (w) => {
      const s = await w.task();
      const body = await multipart([
        ['message', w.marker('nachricht')],
        ['file', wavBytes, 'take.wav', 'audio/wav'],
      ]);
      return { url: `/api/submissions/${s.id}/recordings`, id: s.id, payload: body.payload, headers: body.headers, secrets: [s.teacherNote!] };
    },
  },
  'GET /api/submissions/:id/recordings': {
    access: 'user',
    expect: sharedTask(200),
    build: async (w) => {
      const r = await recording(w, { comment: true });
      return { url: `/api/submissions/${r.task.id}/recordings`, id: r.task.id, secrets: [r.message, r.commentText, r.path] };
    },
  },
  'GET /api/recordings/inbox': {
    access: 'teacher',
    expect: teacherAny(200, FILTERED),
    hidden: ['teacherB'],
    visible: ['teacherA'],
    build: async (w) => {
      const r = await recording(w);
      return { url: `/api/recordings/inbox?course_id=${r.task.exercise.course.id}`, secrets: [r.message, r.path] };
    },
  },
  'GET /api/recordings/inbox/count': {
    access: 'teacher',
    expect: teacherAny(200, FILTERED),
    build: async (w) => {
      const r = await recording(w);
      return { url: `/api/recordings/inbox/count?course_id=${r.task.exercise.course.id}` };
    },
    check: (_w, caller, body) => {
      const count = (body as { count: number }).count;
      if (caller === 'teacherA') expect(count).toBeGreaterThan(0);
      else expect(count).toBe(0);
    },
  },
  'GET /api/storage/usage': {
    access: 'student',
    expect: anyStudent(200),
    // every student their own bytes: student A has a recording, student B none of A's
    build: async (w) => {
      await recording(w);
      return { url: '/api/storage/usage' };
    },
    check: (_w, caller, body) => {
      const used = (body as { used_bytes: number }).used_bytes;
      if (caller === 'studentA') expect(used).toBeGreaterThan(0);
      else expect(used).toBe(0);
    },
  },
  'GET /api/recordings/new-feedback/count': {
    access: 'student',
    expect: anyStudent(200),
    build: async (w) => {
      const r = await recording(w, { comment: true });
      await w.t.db.execute(sql`update recordings set feedback_at = now() where id = ${r.id}`);
      w.t.forgetReads();
      return { url: `/api/recordings/new-feedback/count?course_id=${r.task.exercise.course.id}` };
    },
    check: (_w, caller, body) => {
      const count = (body as { count: number }).count;
      if (caller === 'studentA') expect(count).toBeGreaterThan(0);
      else expect(count).toBe(0);
    },
  },
  'GET /api/recordings/:id': {
    access: 'user',
    expect: sharedTask(200),
    build: async (w) => {
      const r = await recording(w, { comment: true });
      return { url: `/api/recordings/${r.id}`, id: r.id, secrets: [r.message, r.commentText, r.path] };
    },
  },
  'DELETE /api/recordings/:id': {
    access: 'student',
    expect: studentOwned(204),
    build: async (w) => {
      const r = await recording(w);
      return { url: `/api/recordings/${r.id}`, id: r.id };
    },
  },
  'POST /api/recordings/:id/answer': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const r = await recording(w);
      return { url: `/api/recordings/${r.id}/answer`, id: r.id, secrets: [r.message] };
    },
  },
  'POST /api/recordings/:id/seen': {
    access: 'student',
    expect: studentOwned(200),
    build: async (w) => {
      const r = await recording(w, { comment: true });
      return { url: `/api/recordings/${r.id}/seen`, id: r.id, secrets: [r.message, r.commentText] };
    },
  },
  'POST /api/recordings/:id/comments': {
    access: 'teacher',
    expect: teacherOwned(201),
    build: async (w) => {
      const r = await recording(w);
      return { url: `/api/recordings/${r.id}/comments`, id: r.id, payload: { at_ms: 1000, text: 'hier eilst du' }, secrets: [r.message] };
    },
  },
  'POST /api/recordings/:id/voice-comments': {
    // docs/decisions/spoken-comments-and-quick-replies.md
    access: 'teacher',
    expect: teacherOwned(201),
    build: async (w) => {
      const r = await recording(w);
      const body = await multipart([
        ['at_ms', '1000'],
        ['file', wavBytes, 'kommentar.wav', 'audio/wav'],
      ]);
      return { url: `/api/recordings/${r.id}/voice-comments`, id: r.id, payload: body.payload, headers: body.headers, secrets: [r.message] };
    },
  },
  // A take's analysis (docs/decisions/listening.md): read by the student, their teacher and their
  // guardians; sent by the student or the teacher; an administrator opens no one's takes (403)
  'GET /api/recordings/:id/analysis': {
    access: 'any',
    expect: { guest: 401, studentA: 200, studentB: 404, teacherA: 200, teacherB: 404, teacherC: 404, adminA: 403, adminC: 403, guardianA: 200, guardianB: 404 },
    build: async (w) => {
      const r = await recording(w);
      const res = await w.t.app.inject({ method: 'PUT', url: `/api/recordings/${r.id}/analysis`, headers: w.studentA.headers, payload: { track: storeTrack(authzTrack()) } });
      expect(res.statusCode, res.body).toBe(201);
      w.t.forgetReads();
      return { url: `/api/recordings/${r.id}/analysis`, id: r.id, secrets: [`"recording_id":${r.id}`] };
    },
  },
  'PUT /api/recordings/:id/analysis': {
    access: 'user',
    expect: { guest: 401, studentA: 201, studentB: 404, teacherA: 201, teacherB: 404, teacherC: 404, adminA: 403, adminC: 403, guardianA: 403, guardianB: 403 },
    build: async (w) => {
      const r = await recording(w);
      return { method: 'PUT', url: `/api/recordings/${r.id}/analysis`, id: r.id, payload: { track: storeTrack(authzTrack()) } };
    },
  },
  // Saved quick replies: only their owner reads and changes them
  'GET /api/quick-replies': {
    access: 'teacher',
    expect: teacherAny(200),
    hidden: ['teacherB', 'teacherC'],
    visible: ['teacherA'],
    build: async (w) => {
      const text = w.marker('schnellantwort');
      await w.t.db.execute(sql`insert into quick_replies (teacher_id, text) values (${w.teacherA.id}, ${text})`);
      return { url: '/api/quick-replies', secrets: [text] };
    },
  },
  'POST /api/quick-replies': { access: 'teacher', expect: teacherAny(201), build: async () => ({ url: '/api/quick-replies', payload: { text: 'Schöner Ton!' } }) },
  'PATCH /api/quick-replies/:id': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const text = w.marker('schnellantwort');
      const [q] = await rows<{ id: number }>(w.t.db, sql`insert into quick_replies (teacher_id, text) values (${w.teacherA.id}, ${text}) returning id`);
      return { url: `/api/quick-replies/${q!.id}`, id: q!.id, payload: { text: 'Achte auf den Bogen.' }, secrets: [text] };
    },
  },
  'DELETE /api/quick-replies/:id': {
    access: 'teacher',
    expect: teacherOwned(204),
    build: async (w) => {
      const text = w.marker('schnellantwort');
      const [q] = await rows<{ id: number }>(w.t.db, sql`insert into quick_replies (teacher_id, text) values (${w.teacherA.id}, ${text}) returning id`);
      return { url: `/api/quick-replies/${q!.id}`, id: q!.id, secrets: [text] };
    },
  },
  'PATCH /api/recording-comments/:id': {
    access: 'teacher',
    expect: teacherOwned(200),
    build: async (w) => {
      const r = await recording(w, { comment: true });
      return { url: `/api/recording-comments/${r.commentId}`, id: r.commentId!, payload: { text: 'genauer' }, secrets: [r.commentText] };
    },
  },
  'DELETE /api/recording-comments/:id': {
    access: 'teacher',
    expect: teacherOwned(204),
    build: async (w) => {
      const r = await recording(w, { comment: true });
      return { url: `/api/recording-comments/${r.commentId}`, id: r.commentId!, secrets: [r.commentText] };
    },
  },
  // Calendar subscription (docs/decisions/schools-and-roles.md)
  'GET /api/calendar-subscription': {
    access: 'user',
    expect: anyUser(200),
    build: async () => ({ url: '/api/calendar-subscription' }),
    check: (_w, _caller, body) => {
      expect((body as { webcal_url: string }).webcal_url).toMatch(/^webcal:\/\/[^/]+\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    },
  },
  'POST /api/calendar-subscription/renew': { access: 'user', expect: anyUser(200), build: async () => ({ url: '/api/calendar-subscription/renew' }) },
  'GET /calendar/:file': {
    // the secret in the address is the capability: whoever holds it reads that one calendar
    access: 'public',
    expect: everyone(200),
    build: async (w) => {
      const task = await w.task();
      const sub = await new CalendarFeedService(w.t.db, w.t.deps.secret).get(w.studentA);
      return { url: `/calendar/${sub.secret}.ics`, secrets: [task.exercise.title] };
    },
    visible: ['guest', 'studentA', 'studentB', 'teacherA', 'teacherB', 'teacherC', 'adminA', 'adminC', 'guardianA', 'guardianB'],
  },

  // Reports (docs/decisions/schools-and-roles.md)
  'GET /api/courses/:id/progress.csv': {
    access: 'teacher',
    expect: teacherOwned(200),
    visible: ['teacherA'],
    build: async (w) => {
      const c = await w.course();
      return { url: `/api/courses/${c.id}/progress.csv`, id: c.id, secrets: [w.studentA.email] };
    },
  },
};

/** The shapes, for the rows of the issue-19 routes (authz-routes-school.ts, authz-routes-guardians.ts). */
export const shapes = { teacherOwned, teacherAny, studentOwned, sharedTask, anyUser, anyAccount, everyone, anyStudent };
