import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type AppDeps, type LogStream } from '../app';
import { configSchema } from '../config';
import { openPglite, openPostgres, type Db, type DbHandle } from '../db/client';
import { eq } from 'drizzle-orm';
import { courses, enrolments, exerciseCourses, exercises, guardianLinks, schools, submissions, users } from '../db/schema/index';
import { issueToken, type Role } from '../lib/auth';
import { hashPassword } from '../lib/passwords';
import { todayInZone } from '../lib/time';
import { installOpenApiGuard } from './openapi-guard';
import { startS3Server } from './s3-server';

export const TEST_PASSWORD = 'password123';
let passwordHash: Promise<string> | undefined;

export type TestUser = {
  id: number;
  schoolId: number;
  name: string;
  email: string;
  role: Role;
  token: string;
  /** Headers with the Bearer token, for app.inject. */
  headers: { authorization: string };
};

export type TestApp = Awaited<ReturnType<typeof setupTestApp>>;

async function openTestDb(): Promise<DbHandle & { drop: () => Promise<void>; url?: string }> {
  const url = process.env.TEST_DATABASE_URL;
  const template = inject('pgTemplate');
  if (url && template) {
    const name = `uk_t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.end();
    const u = new URL(url);
    u.pathname = `/${name}`;
    const handle = await openPostgres(u.toString(), 5);
    return {
      ...handle,
      url: u.toString(),
      drop: async () => {
        const a = new pg.Client({ connectionString: url });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await a.end();
      },
    };
  }
  const snapshot = readFileSync(inject('snapshotPath'));
  const handle = await openPglite(undefined, new Blob([snapshot]));
  return { ...handle, drop: async () => {} };
}

/**
 * The real app on a real database (PGlite from the migrated snapshot, or a fresh copy of the
 * PostgreSQL template when TEST_DATABASE_URL is set), with factories for the data a test needs.
 * Call once per test file (beforeAll) and close it in afterAll.
 */
/**
 * The frame of most API test files: their app on a database of their own before the file's tests
 * and closed after them. `ready` gets the app and today's date in the school's time zone, and may
 * make what every test of the file shares (a teacher) before the first test.
 */
export function withTestApp(ready: (t: TestApp, today: string) => void | Promise<void>, env: Record<string, string> = {}): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await setupTestApp(env);
    await ready(app, todayInZone(app.deps.config.APP_TIMEZONE));
  });
  afterAll(async () => {
    await app?.close();
  });
}

export async function setupTestApp(env: Record<string, string> = {}, opts: { balanced?: boolean; logStream?: LogStream } = {}) {
  // TEST_MEDIA_STORE=s3: media in a bucket of an S3-compatible server started for this file.
  const s3 = process.env.TEST_MEDIA_STORE === 's3' && !env.MEDIA_STORE ? await startS3Server() : null;
  if (s3) env = { ...s3.env, ...env };
  const handle = await openTestDb();
  const dataDir = mkdtempSync(join(tmpdir(), 'uk-test-'));
  const config = configSchema.parse({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_SEED: 'false', ...env });
  const deps: AppDeps = {
    config,
    db: handle.db,
    dbKind: handle.kind,
    ...(handle.pool ? { pool: handle.pool } : {}),
    mediaDir: join(dataDir, 'media'),
    secret: randomBytes(32).toString('base64url'),
  };
  // `logStream`: the app's real request log (with env.LOG_LEVEL) is written there, for tests of what it holds.
  const app = await buildApp(deps, opts.logStream ? { logStream: opts.logStream, checkResponses: true } : { logger: false, checkResponses: true });
  // Every answer is also checked against the OpenAPI document (server/test/openapi-guard.ts).
  const openApiGuard = installOpenApiGuard(app);
  await app.ready();
  // On PostgreSQL the caches are used once other processes' changes reach this one (LISTEN).
  await handle.cluster.ready();
  const siblings: Array<() => Promise<void>> = [];
  const db: Db = handle.db;
  let seq = 0;
  const uniq = () => `${Date.now().toString(36)}${(seq++).toString(36)}${randomBytes(2).toString('hex')}`;

  /**
   * Factories write to the database directly, past the calls that invalidate the read cache
   * (server/lib/read-cache.ts): they drop what it holds, as should a test after its own raw writes.
   */
  const balanced: Array<{ readCache: { clear: () => void } | null }> = [];
  const forgetReads = () => {
    app.readCache?.clear();
    for (const other of balanced) other.readCache?.clear();
  };

  /** The school of every user made without naming one (created on first use). */
  let defaultSchool: Promise<number> | undefined;
  const schoolOfTests = () =>
    (defaultSchool ??= db
      .insert(schools)
      .values({ name: `Testschule ${uniq()}` })
      .returning({ id: schools.id })
      .then((r) => r[0]!.id));

  async function makeUser(role: Role, teacherId: number | null, o: Partial<typeof users.$inferInsert> = {}): Promise<TestUser> {
    passwordHash ??= hashPassword(TEST_PASSWORD);
    // A student's school comes from the teacher (trigger); everyone else's is named or the tests' default.
    const schoolId = o.schoolId ?? (teacherId === null ? await schoolOfTests() : undefined);
    const [u] = await db
      .insert(users)
      .values({
        name: o.name ?? `${{ admin: 'Verwaltung', teacher: 'Lehrer', student: 'Schüler', guardian: 'Elternteil' }[role]} ${uniq()}`,
        email: o.email ?? `${role}-${uniq()}@example.test`,
        role,
        teacherId,
        ...(schoolId !== undefined ? { schoolId } : {}),
        ...(o.deactivatedAt ? { deactivatedAt: o.deactivatedAt } : {}),
        passwordHash: o.passwordHash ?? (await passwordHash),
        phone: o.phone ?? null,
        notes: o.notes ?? null,
        ...(o.createdAt ? { createdAt: o.createdAt } : {}),
      })
      .returning();
    if (!u) throw new Error('factory: user');
    const token = await issueToken(db, u.id);
    forgetReads();
    return { id: u.id, schoolId: u.schoolId, name: u.name, email: u.email, role, token, headers: { authorization: `Bearer ${token}` } };
  }

  const testApp = {
    app,
    db,
    deps,
    dbKind: handle.kind,
    /** How many app instances `app.inject` goes round to (TEST_APP_INSTANCES on PostgreSQL; else 1): each has its own process-local state. */
    instances: 1,
    forgetReads,
    /** The school of users made without naming one. */
    defaultSchoolId: schoolOfTests,
    /** A new school (docs/decisions/schools-and-roles.md), for tests of what crosses schools. */
    async school(name = `Schule ${uniq()}`) {
      const [s] = await db.insert(schools).values({ name }).returning();
      return s!;
    },
    teacher: (o: Partial<typeof users.$inferInsert> = {}) => makeUser('teacher', null, o),
    /** The administrator of a school (the tests' default school unless o.schoolId names one). */
    admin: (o: Partial<typeof users.$inferInsert> = {}) => makeUser('admin', null, o),
    /** A guardian following the given students (all of one school). */
    guardian: async (children: Array<{ id: number }>, o: Partial<typeof users.$inferInsert> = {}) => {
      let schoolId = o.schoolId;
      if (schoolId === undefined && children[0]) {
        const [c] = await db.select({ schoolId: users.schoolId }).from(users).where(eq(users.id, children[0].id));
        schoolId = c?.schoolId;
      }
      const g = await makeUser('guardian', null, { ...o, ...(schoolId !== undefined ? { schoolId } : {}) });
      if (children.length) await db.insert(guardianLinks).values(children.map((c) => ({ guardianId: g.id, studentId: c.id })));
      forgetReads();
      return g;
    },
    student: (teacher: { id: number }, o: Partial<typeof users.$inferInsert> & { courseIds?: number[] } = {}) =>
      makeUser('student', teacher.id, o).then(async (s) => {
        if (o.courseIds?.length) await db.insert(enrolments).values(o.courseIds.map((courseId) => ({ courseId, studentId: s.id })));
        forgetReads();
        return s;
      }),
    async course(teacher: { id: number }, o: Partial<typeof courses.$inferInsert> = {}) {
      const [c] = await db
        .insert(courses)
        .values({ teacherId: teacher.id, name: o.name ?? `Kurs ${uniq()}`, description: o.description ?? null })
        .returning();
      if (!c) throw new Error('factory: course');
      forgetReads();
      return c;
    },
    async exercise(teacher: { id: number }, o: Partial<typeof exercises.$inferInsert> & { courseIds?: number[] } = {}) {
      const { courseIds, ...rest } = o;
      const [e] = await db
        .insert(exercises)
        .values({ teacherId: teacher.id, title: `Übung ${uniq()}`, category: 'tonbildung', difficulty: 'mittel', estimatedMinutes: 15, ...rest })
        .returning();
      if (!e) throw new Error('factory: exercise');
      if (courseIds?.length) await db.insert(exerciseCourses).values(courseIds.map((courseId) => ({ exerciseId: e.id, courseId })));
      forgetReads();
      return e;
    },
    /** A task for a student; due today (UTC date) unless given. */
    async submission(
      student: { id: number },
      teacher: { id: number },
      exercise: { id: number; title: string },
      o: Partial<typeof submissions.$inferInsert> = {},
    ) {
      const [s] = await db
        .insert(submissions)
        .values({
          studentId: student.id,
          teacherId: teacher.id,
          exerciseId: exercise.id,
          exerciseTitle: exercise.title,
          seriesId: randomUUID(),
          dueDate: new Date().toISOString().slice(0, 10),
          ...o,
        })
        .returning();
      if (!s) throw new Error('factory: submission');
      forgetReads();
      return s;
    },
    openApiGuard,
    /**
     * A second server process on the same PostgreSQL database (its own pool, caches, LISTEN
     * connection and settings; the same APP_SECRET): what a load balancer in front of two
     * processes would reach. PostgreSQL only (TEST_DATABASE_URL).
     */
    async anotherProcess(envOverrides: Record<string, string> = {}) {
      if (!handle.url) throw new Error('anotherProcess needs TEST_DATABASE_URL');
      const h = await openPostgres(handle.url, 5);
      const other = await buildApp(
        { ...deps, config: configSchema.parse({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_SEED: 'false', ...env, ...envOverrides }), db: h.db, ...(h.pool ? { pool: h.pool } : {}) },
        { logger: false, checkResponses: true },
      );
      const guard = installOpenApiGuard(other);
      await other.ready();
      await h.cluster.ready();
      let closed = false;
      const closeIt = async () => {
        if (closed) return;
        closed = true;
        await other.close();
        await h.close();
        if (guard.pending.length) throw new Error(guard.pending.join('\n'));
      };
      siblings.push(closeIt);
      return { app: other, db: h.db, cluster: h.cluster, close: closeIt };
    },
    cluster: handle.cluster,
    /** Whether the media store (folder or bucket) holds a file. */
    stored: async (path: string) => (await app.deps.storage.stat(path)) !== null,
    /** A stored file's bytes (folder or bucket). */
    async readStored(path: string): Promise<Buffer> {
      const chunks: Buffer[] = [];
      for await (const c of await app.deps.storage.open(path)) chunks.push(Buffer.from(c as Uint8Array));
      return Buffer.concat(chunks);
    },
    /** The files the media store holds under a folder, sorted. */
    async storedFiles(folder: string): Promise<string[]> {
      const out: string[] = [];
      for await (const f of app.deps.storage.list(folder)) out.push(f.path);
      return out.sort();
    },
    async close() {
      for (const s of siblings) await s();
      await app.close();
      await handle.close();
      await handle.drop();
      await s3?.close();
      rmSync(dataDir, { recursive: true, force: true });
      if (openApiGuard.pending.length) throw new Error(openApiGuard.pending.join('\n'));
    },
  };

  /**
   * docs/decisions/0013-many-processes.md: TEST_APP_INSTANCES=N (PostgreSQL only) puts N app instances on the test's database,
   * each with its own pool, caches and LISTEN connection, and sends the calls of `t.app.inject`
   * round-robin across them, as a balancer would: the whole API suite then checks that no
   * answer depends on which process served it. Files about one process's own machinery (its read
   * cache, its OpenAPI guard) pass `{ balanced: false }`.
   */
  const instances = opts.balanced === false ? 1 : Number(process.env.TEST_APP_INSTANCES ?? '1');
  if (instances > 1 && handle.url) {
    const targets = [{ inject: app.inject.bind(app) as (o?: unknown) => unknown, cluster: handle.cluster }];
    for (let i = 1; i < instances; i++) {
      const other = await testApp.anotherProcess();
      balanced.push(other.app);
      targets.push({ inject: other.app.inject.bind(other.app) as (o?: unknown) => unknown, cluster: other.cluster });
    }
    // What each instance must have heard from the others (their invalidations, counted).
    const expected = targets.map((x) => x.cluster.stats.received);
    let next = 0;
    const roundRobin = (async (opts: unknown) => {
      const i = next++ % targets.length;
      const target = targets[i]!;
      const sentBefore = target.cluster.stats.sent;
      const res = await (opts === undefined ? target.inject() : target.inject(opts));
      // The documented propagation (within 200 ms, decision 0013): the next call, on whichever
      // instance, comes after the others applied this call's invalidations; 1 s at most.
      const sent = target.cluster.stats.sent - sentBefore;
      if (sent > 0) {
        const t0 = Date.now();
        targets.forEach((_, j) => {
          if (j !== i) expected[j]! += sent;
        });
        while (Date.now() - t0 < 1000 && targets.some((x, j) => j !== i && x.cluster.stats.received < expected[j]!)) await new Promise((r) => setTimeout(r, 1));
        for (const [j, x] of targets.entries()) expected[j] = Math.max(expected[j]!, x.cluster.stats.received);
      }
      return res;
    }) as unknown as typeof app.inject;
    Object.defineProperty(app, 'inject', { value: roundRobin, configurable: true, writable: true });
    testApp.instances = instances;
  }
  return testApp;
}
