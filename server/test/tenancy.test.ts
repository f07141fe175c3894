import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrolments, mediaFiles, practiceSessions, recordingComments, submissions, users } from '../db/schema/index';
import { todayInZone } from '../lib/time';
import { addDays } from '@contract/recurrence';
import { staffPng } from '../modules/media/sample-files';
import { makeWav } from '../modules/recordings/sample-recordings';
import { dbDigest, holdScheduledJobs, multipart } from './authz-world';
import { setupTestApp, TEST_PASSWORD, type TestApp, type TestUser } from './test-app';

/**
 * docs/decisions/schools-and-roles.md: a school is the unit of tenancy and `school_id` the shard key; every statement of the
 * practice app stays inside the caller's school. Two schools, A and C, hold the same shapes of data
 * (a teacher, two students, a course, an exercise with a file, repeating tasks, practice sessions
 * online and offline, a review, a recording with a teacher's comment, calendar addresses), all made
 * through the API. Then:
 *  (a) school C's teacher and student call every GET route of the practice app: none of school A's
 *      names or texts comes back (and school A's callers do see each of them, so the check can fail);
 *  (b) school C forges school A's ids in bodies, filters and paths: refused or ignored, nothing changes
 *      (a digest of every table before and after);
 *  (c) the database itself refuses a row that mixes schools (migration 0009's trigger, 0010's checks
 *      of every parent);
 *  (d) every SQL statement the app ran for (a) and (b) and for building school C through the API
 *      names `school_id` for each tenant table it reads or writes. Chosen over grepping the repos'
 *      source: it checks the statements as they really run (the SQL built from fragments, drizzle's
 *      generated statements, the statements of transactions), for every route called, and it cannot
 *      miss a file. The few statements that are global by design are named below.
 */

let t: TestApp;

// ---- (d): the statements the app runs, captured through drizzle's logger --------------------------

const TENANT_TABLES = [
  'users',
  'courses',
  'enrolments',
  'exercises',
  'exercise_courses',
  'media_files',
  'submissions',
  'practice_sessions',
  'recordings',
  'recording_comments',
  'recording_analyses',
  'calendar_feeds',
  'guardian_links',
  'invites',
  'audit_log',
];

/** Words that may follow a table name without being its alias. */
const NOT_ALIAS = new Set(
  'where on set join left right inner outer full cross natural group order limit offset returning values select and or for union lateral using as having window default except intersect with do when then else end'.split(' '),
);

/**
 * Statements that stay global on purpose (docs/decisions/schools-and-roles.md): the token check in
 * front of every call and the owner of a calendar address (found by the hash of a secret, which
 * names no school before it is found; what is then read is read inside the owner's school), the
 * e-mail check (an address names one account across all schools: sign-in finds the school by it).
 */
const GLOBAL_BY_DESIGN: Array<[string, RegExp]> = [
  ['token lookup by its hash', /tokens\.token_hash\s*=/],
  ['calendar address lookup by its hash', /from calendar_feeds f join users u on .* where f\.secret_hash = \$1$/],
  ['e-mail unique across schools', /from users where lower\(email\) = lower\(/],
];

/** The values of the first tuple after `values (`, split at top-level commas. */
function firstTuple(rest: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of rest) {
    if (ch === '(') depth++;
    if (ch === ')') {
      if (depth === 0) break;
      depth--;
    }
    if (ch === ',' && depth === 0) {
      out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur.trim());
  return out;
}

/**
 * What a statement leaves unscoped: each tenant table it reads, joins, updates or deletes from must
 * be filtered by its own `school_id`, compared with a parameter (`alias.school_id = $1`, or a bare
 * `school_id = $1` where the table has no alias) or joined on school_id to a table that is
 * (`e.school_id = c.school_id`, as Citus needs to keep a join on one shard); each insert into one
 * must name school_id with a value (not null/default, which would leave it to the trigger).
 */
function unscoped(text: string): string[] {
  const s = text.replace(/"/g, '').toLowerCase().replace(/\s+/g, ' ');
  if (GLOBAL_BY_DESIGN.some(([, re]) => re.test(s))) return [];
  const problems: string[] = [];
  // Which names' school_id is bound to a parameter, directly or through joins on school_id.
  const param = String.raw`\$\d+(?:::[a-z]+)?`;
  const anchored = new Set<string>();
  for (const m of s.matchAll(new RegExp(String.raw`(?:([a-z_][a-z0-9_]*)\.)?school_id = ${param}|${param} = (?:([a-z_][a-z0-9_]*)\.)?school_id`, 'g')))
    anchored.add(m[1] ?? m[2] ?? '');
  const links = [...s.matchAll(/\b([a-z_][a-z0-9_]*)\.school_id = ([a-z_][a-z0-9_]*)\.school_id\b/g)].map((m) => [m[1]!, m[2]!] as const);
  for (let grown = true; grown; ) {
    grown = false;
    for (const [x, y] of links) {
      if (anchored.has(x) !== anchored.has(y)) {
        anchored.add(x);
        anchored.add(y);
        grown = true;
      }
    }
  }
  const ref = new RegExp(`\\b(from|join|update|into|using) (${TENANT_TABLES.join('|')})\\b(?: (?:as )?([a-z_][a-z0-9_]*))?`, 'g');
  for (const m of s.matchAll(ref)) {
    const [, kind, table, word] = m;
    const alias = word && !NOT_ALIAS.has(word) ? word : undefined;
    if (kind === 'into') {
      const rest = s.slice(m.index + m[0].length);
      const cols = /^\s*\(([^)]*)\)/.exec(rest);
      const list = (cols?.[1] ?? '').split(',').map((c) => c.trim().replace(/^.*\./, ''));
      const at = list.indexOf('school_id');
      if (at < 0) {
        problems.push(`insert into ${table} names no school_id`);
        continue;
      }
      const values = /^\s*\([^)]*\)\s*values\s*\(/.exec(rest);
      const value = values ? firstTuple(rest.slice(values[0].length))[at] : undefined;
      if (value !== undefined && /^(null|default)$/.test(value)) problems.push(`insert into ${table} leaves school_id ${value}`);
      continue;
    }
    const name = alias ?? table!;
    // an unaliased table is named by its own name (drizzle) or not at all (a bare school_id)
    if (!anchored.has(name) && !(alias === undefined && anchored.has(''))) problems.push(`${kind} ${table}${alias ? ` ${alias}` : ''} without ${name}.school_id`);
  }
  return problems;
}

type Captured = { text: string; call: string };
const captured: Captured[] = [];
let currentCall: string | null = null;

/** Every statement drizzle runs on the test's database while `currentCall` is set (inside app.inject). */
function installCapture(db: unknown): () => void {
  const session = (db as { session: { logger: unknown; options: { logger?: unknown } } }).session;
  const before = { logger: session.logger, options: session.options.logger };
  const logger = {
    logQuery(text: string) {
      if (currentCall) captured.push({ text, call: currentCall });
    },
  };
  session.logger = logger;
  session.options.logger = logger;
  return () => {
    session.logger = before.logger;
    session.options.logger = before.options;
  };
}

type Inject = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; headers?: Record<string, string>; payload?: unknown };

/** app.inject, fresh from the database (no kept answer), with its statements captured under its name. */
async function call(o: Inject) {
  currentCall = `${o.method} ${o.url}`;
  try {
    return await t.app.inject({ ...o, headers: { 'cache-control': 'no-cache', ...(o.headers ?? {}) } } as never);
  } finally {
    currentCall = null;
  }
}

// ---- two schools of the same shape, made through the API ------------------------------------------

type School = Awaited<ReturnType<typeof makeSchool>>;

async function makeSchool(tag: string) {
  const school = await t.school(`Musikschule ${tag}`);
  const secrets: string[] = [];
  /** A text that names this school's data and must never reach the other school. */
  const mark = (what: string) => {
    const m = `${tag}${what}${randomBytes(3).toString('hex')}`;
    secrets.push(m);
    return m;
  };
  const teacher = await t.teacher({ schoolId: school.id, name: mark('Lehrerin') });
  const student = await t.student(teacher, { name: mark('Schuelerin'), notes: mark('Notiz'), phone: null });
  const student2 = await t.student(teacher, { name: mark('Schueler') });
  secrets.push(teacher.email, student.email, student2.email);
  const as = (u: TestUser) => ({ authorization: u.headers.authorization });
  const ok = async (o: Inject, status: number) => {
    const res = await call(o);
    expect(res.statusCode, `${o.method} ${o.url}: ${res.body.slice(0, 300)}`).toBe(status);
    return res.json();
  };

  const course = await ok({ method: 'POST', url: '/api/courses', headers: as(teacher), payload: { name: mark('Kurs'), description: mark('Kursinfo') } }, 201);
  for (const s of [student, student2]) await ok({ method: 'PUT', url: `/api/students/${s.id}/courses`, headers: as(teacher), payload: { course_ids: [course.id] } }, 200);
  const form = await multipart([
    ['title', mark('Uebung')],
    ['description', mark('Beschreibung')],
    ['course_ids[0]', String(course.id)],
    ['media_files[0]', staffPng(30, 20), `${mark('Noten')}.png`, 'image/png'],
  ]);
  const exercise = await ok({ method: 'POST', url: '/api/exercises', headers: { ...as(teacher), ...form.headers }, payload: form.payload }, 201);
  const media = exercise.media_files[0] as { id: number; path: string };

  const today = todayInZone(t.deps.config.APP_TIMEZONE);
  const assigned = await ok(
    {
      method: 'POST',
      url: '/api/submissions',
      headers: as(teacher),
      payload: {
        exercise_id: exercise.id,
        course_id: course.id,
        due_date: today,
        recurrence_type: 'daily',
        recurrence_end_date: addDays(today, 2),
        expiration_days: 5,
        teacher_note: mark('Hinweis'),
        assignees: { users: [student.id, student2.id] },
      },
    },
    201,
  );
  const tasks = (assigned.submissions as Array<{ id: number; student: { id: number }; due_date: string }>).filter((s) => s.student.id === student.id);
  const task = tasks[0]!;
  const later = tasks[1]!;

  // practice: a timed session (stopped), one timed offline, then the task is done and reviewed
  const session = await ok({ method: 'POST', url: `/api/submissions/${task.id}/practice-sessions/start`, headers: as(student) }, 201);
  await ok({ method: 'POST', url: `/api/practice-sessions/${session.id}/stop`, headers: as(student), payload: { tempo_bpm: 72 } }, 200);
  const ended = Date.now() - 3 * 60 * 60_000;
  await ok(
    {
      method: 'POST',
      url: `/api/submissions/${task.id}/practice-sessions/offline`,
      headers: as(student),
      payload: { started_at: new Date(ended - 20 * 60_000).toISOString(), ended_at: new Date(ended).toISOString() },
    },
    201,
  );
  const running = await ok({ method: 'POST', url: `/api/submissions/${later.id}/practice-sessions/start`, headers: as(student) }, 201);
  await ok({ method: 'PATCH', url: `/api/submissions/${task.id}/complete`, headers: as(student) }, 200);
  await ok(
    {
      method: 'PATCH',
      url: `/api/submissions/${task.id}/review`,
      headers: as(teacher),
      payload: { accuracy_score: 85, competency_level: 'advanced', teacher_feedback: mark('Rueckmeldung') },
    },
    200,
  );

  // a recording of the task with the teacher's comment (left unanswered: it waits in the inbox)
  const take = await multipart([
    ['message', mark('Nachricht')],
    ['file', makeWav(1500), 'take.wav', 'audio/wav'],
  ]);
  const recording = await ok({ method: 'POST', url: `/api/submissions/${task.id}/recordings`, headers: { ...as(student), ...take.headers }, payload: take.payload }, 201);
  const comment = await ok(
    { method: 'POST', url: `/api/recordings/${recording.id}/comments`, headers: as(teacher), payload: { at_ms: 500, text: mark('Kommentar') } },
    201,
  );

  // private calendar addresses
  const teacherFeed = await ok({ method: 'GET', url: '/api/calendar-subscription', headers: as(teacher) }, 200);
  const studentFeed = await ok({ method: 'GET', url: '/api/calendar-subscription', headers: as(student) }, 200);

  return {
    tag,
    school,
    secrets,
    teacher,
    student,
    student2,
    course: course as { id: number },
    exercise: exercise as { id: number },
    media,
    task,
    later,
    running: running as { id: number },
    recording: recording as { id: number; path: string },
    comment: comment as { id: number },
    feeds: [teacherFeed.url as string, studentFeed.url as string],
  };
}

let A: School;
let C: School;
let restoreCapture: () => void;

beforeAll(async () => {
  // one process: the statements are captured on this app's own database handle
  t = await setupTestApp({}, { balanced: false });
  await holdScheduledJobs(t);
  restoreCapture = installCapture(t.db);
  A = await makeSchool('Alpha');
  C = await makeSchool('Gamma');
});

afterAll(async () => {
  restoreCapture?.();
  await t?.close();
});

/** The first path segment of a route names the kind of id it takes. */
function idsOf(s: School): Record<string, string> {
  return {
    courses: String(s.course.id),
    exercises: String(s.exercise.id),
    students: String(s.student.id),
    submissions: String(s.task.id),
    recordings: String(s.recording.id),
    'recording-comments': String(s.comment.id),
    'practice-sessions': String(s.running.id),
  };
}

/** Every GET route of the practice app a teacher or a student may call, with its path filled with `s`'s ids. */
function practiceGets(role: 'teacher' | 'student', s: School): string[] {
  const ids = idsOf(s);
  const allowed = role === 'teacher' ? ['user', 'teacher', 'staff', 'any'] : ['user', 'student', 'any'];
  const urls = new Set<string>();
  for (const r of t.app.routeTable) {
    if (r.method !== 'GET' || !r.url.startsWith('/api/') || !r.access || !allowed.includes(r.access)) continue;
    if (r.url === '/api/media/*') {
      urls.add(`/api/media/${s.media.path}`);
      urls.add(`/api/media/${s.recording.path}`);
      continue;
    }
    const segment = r.url.split('/')[2] ?? '';
    if (r.url.includes(':') && !ids[segment]) continue; // a route of another part (administration, guardians)
    urls.add(r.url.replace(/:[A-Za-z]+/g, ids[segment] ?? ''));
  }
  return [...urls].sort();
}

describe('(a) school C lists nothing of school A', () => {
  it('every GET route of the practice app, for school C\'s teacher and student, with school A\'s ids in the paths', async () => {
    const leaks: string[] = [];
    const ownSeen = new Set<string>();
    for (const [who, user] of [
      ['teacher', C.teacher],
      ['student', C.student],
    ] as const) {
      const urls = practiceGets(who, A);
      expect(urls.length).toBeGreaterThan(who === 'teacher' ? 20 : 10);
      for (const url of urls) {
        const res = await call({ method: 'GET', url, headers: user.headers });
        const withIds = /\/\d+(\/|$)|\/api\/media\//.test(url);
        if (withIds) {
          if (![403, 404].includes(res.statusCode)) leaks.push(`${who} ${url}: ${res.statusCode} for school A's id`);
        } else if (![200, 403].includes(res.statusCode)) leaks.push(`${who} ${url}: ${res.statusCode}`);
        for (const secret of A.secrets) if (res.body.includes(secret)) leaks.push(`${who} ${url}: shows ${secret}`);
        for (const secret of C.secrets) if (res.body.includes(secret)) ownSeen.add(secret);
      }
    }
    expect(leaks).toEqual([]);
    // the lists did answer school C's own data (so an empty answer is not an error)
    for (const own of [C.teacher.name, C.student.name, C.student2.name]) expect(ownSeen).toContain(own);
  });

  it('school A sees each of its own texts through the same routes (the check above can fail)', async () => {
    const seen = new Set<string>();
    for (const [who, user] of [
      ['teacher', A.teacher],
      ['student', A.student],
    ] as const) {
      for (const url of practiceGets(who, A)) {
        const res = await call({ method: 'GET', url, headers: user.headers });
        for (const secret of A.secrets) if (res.body.includes(secret)) seen.add(secret);
      }
    }
    expect(A.secrets.filter((s) => !seen.has(s))).toEqual([]);
  });

  it("school C's calendar files hold none of school A's tasks, and school A's hold theirs", async () => {
    const file = async (url: string) => {
      const res = await call({ method: 'GET', url: new URL(url).pathname });
      expect(res.statusCode).toBe(200);
      return res.body;
    };
    for (const url of C.feeds) {
      const body = await file(url);
      for (const secret of A.secrets) expect(body).not.toContain(secret);
    }
    const taskOfA = A.secrets.find((s) => s.startsWith('AlphaUebung'))!;
    for (const url of A.feeds) expect(await file(url)).toContain(taskOfA);
  });
});

describe('(b) school C forging school A\'s ids', () => {
  it('is refused or ignored in bodies, filters and paths, and changes nothing', async () => {
    const tC = C.teacher.headers;
    const sC = C.student.headers;
    const before = await dbDigest(t);
    const problems: string[] = [];
    const expectStatus = async (o: Inject, allowed: number[], check?: (body: unknown) => string | null) => {
      const res = await call(o);
      if (!allowed.includes(res.statusCode)) problems.push(`${o.method} ${o.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      for (const secret of A.secrets) if (res.body.includes(secret)) problems.push(`${o.method} ${o.url}: shows ${secret}`);
      const issue = res.statusCode === 200 && check ? check(res.json()) : null;
      if (issue) problems.push(`${o.method} ${o.url}: ${issue}`);
    };
    const empty = (b: unknown) => {
      const list = Array.isArray(b) ? b : ((b as { data?: unknown[]; exercises?: unknown[] }).data ?? (b as { exercises?: unknown[] }).exercises);
      return Array.isArray(list) && list.length === 0 ? null : `not empty: ${JSON.stringify(b).slice(0, 200)}`;
    };
    const zero = (b: unknown) => (Object.values(b as Record<string, unknown>).every((v) => typeof v !== 'number' || v === 0) ? null : `counts ${JSON.stringify(b)}`);

    // filters naming school A's student and course
    const a = { student: A.student.id, course: A.course.id };
    await expectStatus({ method: 'GET', url: `/api/submissions?student_id=${a.student}`, headers: tC }, [200, 404, 422], empty);
    await expectStatus({ method: 'GET', url: `/api/submissions?course_id=${a.course}`, headers: tC }, [200, 404, 422], empty);
    await expectStatus({ method: 'GET', url: `/api/submissions?course_id=${a.course}`, headers: sC }, [200, 404, 422], empty);
    await expectStatus({ method: 'GET', url: `/api/submissions/counts?student_id=${a.student}`, headers: tC }, [200, 404, 422], zero);
    await expectStatus({ method: 'GET', url: `/api/submissions/counts?course_id=${a.course}`, headers: tC }, [200, 404, 422], zero);
    await expectStatus({ method: 'GET', url: `/api/students?course_id=${a.course}`, headers: tC }, [200, 404, 422], empty);
    await expectStatus({ method: 'GET', url: `/api/students/progress?course_id=${a.course}`, headers: tC }, [200, 404, 422], empty);
    await expectStatus({ method: 'GET', url: `/api/exercises?course_id=${a.course}`, headers: tC }, [200, 404, 422], empty);
    await expectStatus({ method: 'GET', url: `/api/calendar-events?course_id=${a.course}`, headers: tC }, [200, 404, 422], empty);
    await expectStatus({ method: 'GET', url: `/api/dashboard?course_id=${a.course}`, headers: tC }, [200, 404, 422], (b) =>
      zero({ ...(b as Record<string, unknown>), recent_students: undefined, submission_status: undefined }),
    );
    await expectStatus({ method: 'GET', url: `/api/recordings/inbox?course_id=${a.course}`, headers: tC }, [200, 404, 422], empty);
    await expectStatus({ method: 'GET', url: `/api/recordings/inbox/count?course_id=${a.course}`, headers: tC }, [200, 404, 422], zero);
    await expectStatus({ method: 'GET', url: `/api/recordings/new-feedback/count?course_id=${a.course}`, headers: sC }, [200, 404, 422], zero);

    // bodies naming school A's exercise, course, students and media
    const own = { exercise: C.exercise.id, course: C.course.id, student: C.student.id };
    const assign = (o: Record<string, unknown>) => ({
      method: 'POST' as const,
      url: '/api/submissions',
      headers: tC,
      payload: { exercise_id: own.exercise, due_date: todayInZone(t.deps.config.APP_TIMEZONE), assignees: { users: [own.student] }, ...o },
    });
    await expectStatus(assign({ exercise_id: A.exercise.id }), [404]);
    await expectStatus(assign({ assignees: { users: [A.student.id] } }), [422]);
    await expectStatus(assign({ assignees: { users: [own.student, A.student.id] } }), [422]);
    await expectStatus(assign({ course_id: A.course.id }), [422]);
    await expectStatus(
      { method: 'POST', url: '/api/students', headers: tC, payload: { name: 'Neu', email: `neu-${randomUUID()}@example.test`, password: TEST_PASSWORD, course_ids: [A.course.id] } },
      [422],
    );
    await expectStatus({ method: 'PUT', url: `/api/students/${own.student}/courses`, headers: tC, payload: { course_ids: [A.course.id] } }, [422]);
    const newExercise = await multipart([
      ['title', 'Fremder Kurs'],
      ['course_ids[0]', String(A.course.id)],
    ]);
    await expectStatus({ method: 'POST', url: '/api/exercises', headers: { ...tC, ...newExercise.headers }, payload: newExercise.payload }, [422]);
    const removeForeign = await multipart([
      ['title', 'Fremde Datei'],
      ['remove_media[0]', String(A.media.id)],
    ]);
    await expectStatus({ method: 'POST', url: `/api/exercises/${own.exercise}`, headers: { ...tC, ...removeForeign.headers }, payload: removeForeign.payload }, [422]);

    // school A's rows in paths: every write of the practice app
    const paths: Array<[Inject, number[]]> = [
      [{ method: 'PUT', url: `/api/courses/${A.course.id}`, headers: tC, payload: { name: 'Übernommen' } }, [404]],
      [{ method: 'DELETE', url: `/api/courses/${A.course.id}`, headers: tC }, [404]],
      [{ method: 'PUT', url: `/api/students/${A.student.id}`, headers: tC, payload: { name: 'Übernommen', email: `x-${randomUUID()}@example.test` } }, [404]],
      [{ method: 'PUT', url: `/api/students/${A.student.id}/courses`, headers: tC, payload: { course_ids: [own.course] } }, [404]],
      [{ method: 'DELETE', url: `/api/students/${A.student.id}`, headers: tC }, [404]],
      [{ method: 'DELETE', url: `/api/exercises/${A.exercise.id}`, headers: tC }, [404]],
      [{ method: 'DELETE', url: `/api/submissions/${A.task.id}?scope=series`, headers: tC }, [404]],
      [{ method: 'PATCH', url: `/api/submissions/${A.task.id}/review`, headers: tC, payload: { accuracy_score: 1, competency_level: 'beginner' } }, [404]],
      [{ method: 'POST', url: `/api/recordings/${A.recording.id}/answer`, headers: tC }, [404]],
      [{ method: 'POST', url: `/api/recordings/${A.recording.id}/comments`, headers: tC, payload: { at_ms: null, text: 'Fremd' } }, [404]],
      [{ method: 'PATCH', url: `/api/recording-comments/${A.comment.id}`, headers: tC, payload: { text: 'Fremd' } }, [404]],
      [{ method: 'DELETE', url: `/api/recording-comments/${A.comment.id}`, headers: tC }, [404]],
      [{ method: 'PATCH', url: `/api/submissions/${A.later.id}/complete`, headers: sC }, [404]],
      [{ method: 'POST', url: `/api/submissions/${A.later.id}/practice-sessions/start`, headers: sC }, [404]],
      [{ method: 'POST', url: `/api/practice-sessions/${A.running.id}/stop`, headers: sC }, [404]],
      [
        {
          method: 'POST',
          url: `/api/submissions/${A.later.id}/practice-sessions/offline`,
          headers: sC,
          payload: { started_at: new Date(Date.now() - 3_600_000).toISOString(), ended_at: new Date(Date.now() - 3_000_000).toISOString() },
        },
        [404],
      ],
      [{ method: 'POST', url: `/api/recordings/${A.recording.id}/seen`, headers: sC }, [404]],
      [{ method: 'DELETE', url: `/api/recordings/${A.recording.id}`, headers: sC }, [404]],
    ];
    for (const [o, allowed] of paths) await expectStatus(o, allowed);
    const upload = await multipart([['file', makeWav(500), 'take.wav', 'audio/wav']]);
    await expectStatus({ method: 'POST', url: `/api/submissions/${A.later.id}/recordings`, headers: { ...sC, ...upload.headers }, payload: upload.payload }, [404]);

    expect(problems).toEqual([]);
    expect(await dbDigest(t)).toBe(before);
  });
});

describe('(c) the database refuses a row that mixes schools', () => {
  /** The PostgreSQL error code of a refused statement (drizzle wraps the driver's error). */
  async function refusal(p: Promise<unknown>): Promise<string> {
    try {
      await p;
    } catch (err) {
      for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
        const code = (e as { code?: unknown }).code;
        if (typeof code === 'string') return code;
        if ((e as { cause?: unknown }).cause === e) break;
      }
      return 'error without a code';
    }
    return 'accepted';
  }
  const CHECK = '23514';

  it('an enrolment of a school-C student in a school-A course, with the school left out or named', async () => {
    expect(await refusal(t.db.insert(enrolments).values({ courseId: A.course.id, studentId: C.student2.id }))).toBe(CHECK);
    expect(await refusal(t.db.insert(enrolments).values({ schoolId: C.school.id, courseId: A.course.id, studentId: C.student2.id }))).toBe(CHECK);
    expect(await refusal(t.db.insert(enrolments).values({ schoolId: A.school.id, courseId: A.course.id, studentId: C.student2.id }))).toBe(CHECK);
  });

  it('a task naming school A for a school-C student, or another school\'s teacher or exercise', async () => {
    const task = (o: Partial<typeof submissions.$inferInsert>) =>
      t.db.insert(submissions).values({
        studentId: C.student.id,
        teacherId: C.teacher.id,
        exerciseId: C.exercise.id,
        exerciseTitle: 'Gemischt',
        seriesId: randomUUID(),
        dueDate: '2030-01-01',
        ...o,
      });
    expect(await refusal(task({ schoolId: A.school.id }))).toBe(CHECK);
    expect(await refusal(task({ teacherId: A.teacher.id }))).toBe(CHECK);
    expect(await refusal(task({ exerciseId: A.exercise.id }))).toBe(CHECK);
    expect(await refusal(task({ courseId: A.course.id }))).toBe(CHECK);
  });

  it('a session, a comment, a file or a student across schools', async () => {
    expect(await refusal(t.db.insert(practiceSessions).values({ submissionId: A.later.id, studentId: C.student.id, endedAt: new Date(), durationMinutes: 1 }))).toBe(CHECK);
    expect(await refusal(t.db.insert(recordingComments).values({ recordingId: A.recording.id, teacherId: C.teacher.id, text: 'Fremd' }))).toBe(CHECK);
    expect(
      await refusal(
        t.db.insert(mediaFiles).values({ schoolId: C.school.id, exerciseId: A.exercise.id, type: 'image', path: `exercises/${A.exercise.id}/media/${randomUUID()}.png`, filename: 'x.png', size: 1, mimeType: 'image/png' }),
      ),
    ).toBe(CHECK);
    expect(
      await refusal(t.db.insert(users).values({ schoolId: C.school.id, role: 'student', teacherId: A.teacher.id, name: 'Gemischt', email: `g-${randomUUID()}@example.test`, passwordHash: 'x' })),
    ).toBe(CHECK);
  });

  it('the same rows inside one school go in (the refusals above are about the school)', async () => {
    expect(await refusal(t.db.insert(enrolments).values({ courseId: C.course.id, studentId: C.student2.id }).onConflictDoNothing())).toBe('accepted');
    const [row] = await t.db
      .insert(submissions)
      .values({ studentId: C.student.id, teacherId: C.teacher.id, exerciseId: C.exercise.id, courseId: C.course.id, exerciseTitle: 'Eigene', seriesId: randomUUID(), dueDate: '2030-01-01' })
      .returning({ schoolId: submissions.schoolId });
    expect(row?.schoolId).toBe(C.school.id);
    t.forgetReads();
  });
});

describe('(d) every statement names the school of each tenant table', () => {
  it('the check itself: finds a statement without school_id, accepts scoped and global-by-design ones', () => {
    // the previous version's statements (before docs/decisions/schools-and-roles.md) are caught
    expect(unscoped('select s.id from submissions s join users u on u.id = s.student_id where s.id = $1 and u.teacher_id = $2')).toHaveLength(2);
    expect(unscoped('delete from enrolments where student_id = $1')).toEqual(['from enrolments without enrolments.school_id']);
    expect(unscoped('insert into "enrolments" ("school_id", "course_id", "student_id") values (null, $1, $2)')).toEqual(['insert into enrolments leaves school_id null']);
    expect(unscoped('insert into practice_sessions as p (submission_id, student_id) values ($1, $2) returning p.id')).toEqual(['insert into practice_sessions names no school_id']);
    expect(unscoped('select c.id from courses c where c.school_id = $1 and exists (select 1 from enrolments me where me.course_id = c.id)')).toHaveLength(1);
    // a join on school_id alone binds no school
    expect(unscoped('select c.id, (select count(*) from enrolments e where e.course_id = c.id and e.school_id = c.school_id) from courses c where c.teacher_id = $1')).toHaveLength(2);
    // scoped
    expect(unscoped('select "id" from "courses" where ("courses"."school_id" = $1 and "courses"."teacher_id" = $2)')).toEqual([]);
    expect(unscoped('insert into recordings (school_id, submission_id) values ($1, $2) returning id')).toEqual([]);
    expect(unscoped('delete from submissions s using users u where u.id = s.student_id and u.school_id = s.school_id and s.school_id = $1')).toEqual([]);
    expect(unscoped('update recordings set seen_at = now() where id = $1 and school_id = $2')).toEqual([]);
    // global by design
    expect(unscoped('select "users"."id" from "tokens" inner join "users" on "users"."id" = "tokens"."user_id" where "tokens"."token_hash" = $1')).toEqual([]);
  });

  it("school C's own writes of every kind go through (their statements are checked below)", async () => {
    const tC = C.teacher.headers;
    const sC = C.student.headers;
    const done: string[] = [];
    const step = async (o: Inject, status: number) => {
      const res = await call(o);
      if (res.statusCode !== status) done.push(`${o.method} ${o.url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return res;
    };
    const second = await multipart([['file', makeWav(800), 'zwei.wav', 'audio/wav']]);
    const take = await step({ method: 'POST', url: `/api/submissions/${C.later.id}/recordings`, headers: { ...sC, ...second.headers }, payload: second.payload }, 201);
    await step({ method: 'DELETE', url: `/api/recordings/${take.json().id}`, headers: sC }, 204);
    await step({ method: 'PATCH', url: `/api/recording-comments/${C.comment.id}`, headers: tC, payload: { text: 'Geändert', at_ms: 700 } }, 200);
    await step({ method: 'POST', url: `/api/recordings/${C.recording.id}/answer`, headers: tC }, 200);
    await step({ method: 'POST', url: `/api/recordings/${C.recording.id}/seen`, headers: sC }, 200);
    await step({ method: 'DELETE', url: `/api/recording-comments/${C.comment.id}`, headers: tC }, 204);
    await step({ method: 'POST', url: `/api/practice-sessions/${C.running.id}/stop`, headers: sC }, 200);
    await step({ method: 'POST', url: '/api/calendar-subscription/renew', headers: tC }, 200);
    await step({ method: 'PUT', url: `/api/courses/${C.course.id}`, headers: tC, payload: { name: 'Kurs neu', description: null } }, 200);
    await step(
      { method: 'PUT', url: `/api/students/${C.student2.id}`, headers: tC, payload: { name: 'Neu benannt', email: C.student2.email, password: 'ein-neues-passwort', course_ids: [C.course.id] } },
      200,
    );
    const edit = await multipart([
      ['title', 'Übung neu'],
      ['course_ids[0]', String(C.course.id)],
      ['remove_media[0]', String(C.media.id)],
      ['media_files[0]', staffPng(20, 20), 'neu.png', 'image/png'],
    ]);
    await step({ method: 'POST', url: `/api/exercises/${C.exercise.id}`, headers: { ...tC, ...edit.headers }, payload: edit.payload }, 200);
    await step({ method: 'DELETE', url: `/api/submissions/${C.later.id}?scope=series`, headers: tC }, 204);
    await step({ method: 'DELETE', url: `/api/exercises/${C.exercise.id}`, headers: tC }, 204);
    await step({ method: 'DELETE', url: `/api/students/${C.student2.id}`, headers: tC }, 204);
    await step({ method: 'DELETE', url: `/api/courses/${C.course.id}`, headers: tC }, 204);
    await step(
      { method: 'POST', url: '/api/students', headers: tC, payload: { name: 'Ganz neu', email: `neu-${randomUUID()}@example.test`, password: TEST_PASSWORD } },
      201,
    );
    expect(done).toEqual([]);
  });

  it('for building both schools and every call of (a), (b) and the writes above', () => {
    const calls = new Set(captured.map((c) => c.call));
    expect(calls.size).toBeGreaterThan(60);
    const tenantStatements = captured.filter((c) => new RegExp(`\\b(${TENANT_TABLES.join('|')})\\b`).test(c.text.replace(/"/g, '')));
    expect(tenantStatements.length).toBeGreaterThan(200);
    const problems = new Map<string, string>();
    for (const c of tenantStatements) {
      const found = unscoped(c.text);
      if (found.length) problems.set(c.text.replace(/\s+/g, ' ').slice(0, 400), `${c.call}: ${found.join('; ')}`);
    }
    expect([...problems.entries()].map(([text, why]) => `${why}\n    ${text}`)).toEqual([]);
  });
});
