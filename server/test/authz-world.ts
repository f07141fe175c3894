import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { rows } from '../db/client';
import { JOBS } from '../lib/jobs';
import { enrolments, mediaFiles, practiceSessions } from '../db/schema/index';
import { staffPng } from '../modules/media/sample-files';
import type { TestApp, TestUser } from './test-app';

/**
 * The people of the security tests and fresh data owned by teacher A and student A.
 * studentA and studentB are both teacher A's students (siblings in one course), so a student
 * seeing another student's data would show up even inside one teacher's school. School A (docs/decisions/schools-and-roles.md)
 * holds teachers A and B, students A and B, its administrator adminA and the guardians of student A
 * (guardianA) and of student B (guardianB); school C, another school, has teacherC and adminC.
 */
export type Caller = 'guest' | 'studentA' | 'studentB' | 'teacherA' | 'teacherB' | 'adminA' | 'guardianA' | 'guardianB' | 'teacherC' | 'adminC';
export const CALLERS: Caller[] = ['guest', 'studentB', 'teacherB', 'guardianB', 'teacherC', 'adminC', 'studentA', 'teacherA', 'adminA', 'guardianA'];

export type World = Awaited<ReturnType<typeof makeWorld>>;

const today = () => new Date().toISOString().slice(0, 10);
const inDays = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

export async function makeWorld(t: TestApp) {
  const teacherA = await t.teacher({ name: 'Lehrerin Alpha' });
  const teacherB = await t.teacher({ name: 'Lehrer Beta' });
  const studentA = await t.student(teacherA, { name: 'Schülerin Anna' });
  const studentB = await t.student(teacherA, { name: 'Schüler Bert' });
  const adminA = await t.admin({ name: 'Verwaltung Alpha' });
  const guardianA = await t.guardian([studentA], { name: 'Mutter von Anna' });
  const guardianB = await t.guardian([studentB], { name: 'Vater von Bert' });
  const schoolC = await t.school('Andere Musikschule');
  const teacherC = await t.teacher({ name: 'Lehrerin Gamma', schoolId: schoolC.id });
  const adminC = await t.admin({ name: 'Verwaltung Gamma', schoolId: schoolC.id });
  const users: Record<Exclude<Caller, 'guest'>, TestUser> = { studentA, studentB, teacherA, teacherB, adminA, guardianA, guardianB, teacherC, adminC };
  let n = 0;
  /** A unique text that appears only in the fixture it names: it must never reach another caller. */
  const marker = (what: string) => `${what}-secret-${(n++).toString(36)}${randomBytes(3).toString('hex')}`;

  const headersOf = (c: Caller): Record<string, string> => (c === 'guest' ? {} : users[c].headers);

  async function course(name = marker('kurs')) {
    const c = await t.course(teacherA, { name, description: marker('kursbeschreibung') });
    await t.db.insert(enrolments).values({ courseId: c.id, studentId: studentA.id });
    return c;
  }

  async function exercise(o: { withMedia?: boolean } = {}) {
    const c = await course();
    const e = await t.exercise(teacherA, { title: marker('uebung'), description: marker('beschreibung'), courseIds: [c.id] });
    let mediaPath: string | null = null;
    if (o.withMedia !== false) {
      mediaPath = `exercises/${e.id}/media/${randomBytes(16).toString('hex')}.png`;
      const bytes = staffPng(40, 20);
      // through the media store: the folder, or the bucket with TEST_MEDIA_STORE=s3
      await t.app.deps.storage.putBytes(mediaPath, bytes);
      await t.db.insert(mediaFiles).values({ exerciseId: e.id, type: 'image', path: mediaPath, filename: `${marker('datei')}.png`, size: bytes.length, mimeType: 'image/png' });
    }
    return { ...e, course: c, mediaPath };
  }

  /** An open task of student A (due in 3 days), on a fresh exercise with a media file. */
  async function task(o: { dueDate?: string; expirationDate?: string | null } = {}) {
    const e = await exercise();
    const s = await t.submission(studentA, teacherA, e, {
      courseId: e.course.id,
      dueDate: o.dueDate ?? inDays(3),
      expirationDate: o.expirationDate === undefined ? inDays(10) : o.expirationDate,
      teacherNote: marker('notiz'),
    });
    return { ...s, exercise: e };
  }

  /** A running practice session on a fresh task of student A. */
  async function runningSession() {
    const s = await task();
    const [p] = await t.db
      .insert(practiceSessions)
      .values({ submissionId: s.id, studentId: studentA.id, startedAt: new Date(Date.now() - 5 * 60_000) })
      .returning();
    return { ...p!, task: s };
  }

  /** A fresh student of teacher A (for calls that change or delete a student). */
  async function student() {
    const c = await course();
    return t.student(teacherA, { name: marker('schueler'), notes: marker('notizen'), courseIds: [c.id] });
  }

  return { t, users, teacherA, teacherB, studentA, studentB, adminA, guardianA, guardianB, schoolC, teacherC, adminC, headersOf, marker, course, exercise, task, runningSession, student, today, inDays };
}

/**
 * A digest of every table's content (tokens without last_used_at, which a plain read may renew;
 * not sign_in_failures, where a refused sign-in is counted – the limiter's bookkeeping, held in the
 * database so that every server process counts it, decision 0013 – nor scheduled_jobs, which the
 * server's own timers write, not a call): equal digests before and after a call prove the call
 * changed nothing.
 */
export async function dbDigest(t: TestApp): Promise<string> {
  const tables = await rows<{ name: string }>(
    t.db,
    sql.raw(`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' and c.relname not in ('sign_in_failures', 'scheduled_jobs') order by 1`),
  );
  const parts = tables.map(({ name }) => {
    const src = name === 'tokens' ? `select id, user_id, token_hash, created_at from tokens` : `select * from "${name}"`;
    return `select '${name}' as t, md5(coalesce((select json_agg(x order by x)::text from (${src}) x), '')) as h`;
  });
  const [r] = await rows<{ d: string }>(t.db, sql.raw(`select string_agg(t || ':' || h, ',' order by t) as d from (${parts.join(' union all ')}) all_tables`));
  return r?.d ?? '';
}

/**
 * Keeps the server's own timed jobs (reminders, retention sweeps) from running while the matrix
 * compares digests: each is marked as run a day from now, so no process finds it due. Their
 * writes (reminders_sent, say) would otherwise land between a refused call's two readings.
 */
export async function holdScheduledJobs(t: TestApp): Promise<void> {
  await t.db.execute(
    sql`insert into scheduled_jobs (name, last_run_at)
        select name, now() + interval '1 day' from unnest(array[${sql.join(
          Object.values(JOBS).map((name) => sql`${name}`),
          sql`, `,
        )}]::text[]) as name
        on conflict (name) do update set last_run_at = excluded.last_run_at`,
  );
}

/** A real multipart body (FormData encoded through Response) for app.inject. */
export async function multipart(parts: Array<[string, string] | [string, Uint8Array, string, string?]>) {
  const fd = new FormData();
  for (const p of parts) {
    if (typeof p[1] === 'string') fd.append(p[0], p[1]);
    else fd.append(p[0], new Blob([p[1] as Uint8Array<ArrayBuffer>], { type: p[3] ?? 'application/octet-stream' }), p[2]);
  }
  const res = new Response(fd);
  return { payload: Buffer.from(await res.arrayBuffer()), headers: { 'content-type': res.headers.get('content-type') ?? '' } };
}
