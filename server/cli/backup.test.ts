import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { sql } from 'drizzle-orm';
import * as tar from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../db/client';
import { courses, mediaFiles, practiceSessions, users } from '../db/schema/index';
import { setupTestApp, TEST_PASSWORD, type TestApp } from '../test/test-app';
import { BackupRefusedError, createBackup, restoreBackup, type Manifest } from './backup';

let t: TestApp;
let work: string;
beforeAll(async () => {
  t = await setupTestApp();
  work = mkdtempSync(join(tmpdir(), 'uk-backup-test-'));
});
afterAll(async () => {
  await t.close();
  rmSync(work, { recursive: true, force: true });
});

const target = () => ({ db: t.db, kind: t.dbKind, mediaDir: t.deps.mediaDir });

/** Every table's rows, in primary-key order, as JSON text (exact: timestamps to the microsecond). */
async function dumpTables(): Promise<Record<string, string>> {
  const names = await rows<{ name: string }>(
    t.db,
    sql.raw(`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by 1`),
  );
  const out: Record<string, string> = {};
  for (const { name } of names) {
    const [r] = await rows<{ j: string | null }>(t.db, sql.raw(`select json_agg(x order by x)::text as j from (select * from "${name}") x`));
    out[name] = r?.j ?? '[]';
  }
  return out;
}

/** Every file under the media folder (temporary folder excluded) → SHA-256 of its bytes. */
function dumpMedia(): Record<string, string> {
  const root = t.deps.mediaDir;
  const out: Record<string, string> = {};
  if (!existsSync(root)) return out;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (relative(root, p) !== 'tmp') walk(p);
      } else out[relative(root, p)] = createHash('sha256').update(readFileSync(p)).digest('hex');
    }
  };
  walk(root);
  return out;
}

async function addMedia(exerciseId: number, bytes: Buffer, ext = 'png') {
  const path = `exercises/${exerciseId}/media/${randomBytes(8).toString('hex')}.${ext}`;
  await mkdir(join(t.deps.mediaDir, `exercises/${exerciseId}/media`), { recursive: true });
  await writeFile(join(t.deps.mediaDir, path), bytes);
  await t.db.insert(mediaFiles).values({ exerciseId, type: 'image', path, filename: `Noten »ä«.${ext}`, size: bytes.length, mimeType: 'image/png' });
  return path;
}

/** A school with every kind of row and awkward values (unicode, nulls, JSON, fractions, microseconds). */
async function buildSchool() {
  const teacher = await t.teacher({ name: 'Şükrü Öztürk "Lehrer"', phone: null, notes: 'Zeile 1\nZeile 2 <b>' });
  const other = await t.teacher();
  const c1 = await t.course(teacher, { name: 'Ney – Anfänger', description: null });
  const c2 = await t.course(teacher, { name: 'Bağlama 🎵', description: 'Beschreibung mit \'Anführung\' und \\ Backslash' });
  const students = [];
  for (let i = 0; i < 9; i++) students.push(await t.student(teacher, { courseIds: i % 2 ? [c1.id] : [c1.id, c2.id], phone: i % 3 ? null : `+49 ${i}` }));
  const ex = [];
  for (let i = 0; i < 6; i++) ex.push(await t.exercise(teacher, { courseIds: [c1.id], tags: ['atem', `tag-${i}`, 'ğüşiöç'], priority: (i % 5) + 1, description: i % 2 ? null : 'x'.repeat(3000) }));
  await t.exercise(other, { deletedAt: new Date() });
  const media = [await addMedia(ex[0]!.id, randomBytes(70_000)), await addMedia(ex[0]!.id, randomBytes(10)), await addMedia(ex[3]!.id, Buffer.alloc(0))];
  const subs = [];
  for (const s of students)
    for (const e of ex.slice(0, 3))
      subs.push(
        await t.submission(s, teacher, e, {
          courseId: c1.id,
          dueDate: '2026-11-20',
          expirationDate: '2026-11-23',
          teacherNote: 'Übe langsam ✓',
          accuracyScore: 87.125,
          competencyLevel: 'advanced',
          completedAt: new Date('2026-11-21T10:11:12.345Z'),
        }),
      );
  for (const [i, s] of subs.entries()) {
    const started = new Date(Date.now() - (i + 2) * 3600_000);
    await t.db.insert(practiceSessions).values({
      submissionId: s.id,
      studentId: s.studentId,
      startedAt: started,
      endedAt: i % 4 ? new Date(started.getTime() + 1234_567) : null,
      durationMinutes: i % 4 ? 20.58 : null,
    });
  }
  // microsecond timestamps survive the round trip
  await t.db.execute(sql`update users set updated_at = '2026-01-02 03:04:05.123456+00' where id = ${teacher.id}`);
  return { teacher, students, c1, media };
}

describe(`backup and restore (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('a restored school equals the original: every table row for row, every media file byte for byte', async () => {
    const school = await buildSchool();
    const beforeTables = await dumpTables();
    const beforeMedia = dumpMedia();
    expect(Object.keys(beforeMedia)).toHaveLength(3);

    const file = join(work, 'school.tar.gz');
    // small chunks: the chunked, key-ordered reading (single and composite keys) is exercised
    const { manifest } = await createBackup(target(), file, { chunkRows: 7 });
    expect(manifest.format_version).toBe(1);
    expect(manifest.migrations.length).toBeGreaterThanOrEqual(2);
    const counts = Object.fromEntries(manifest.tables.map((x) => [x.name, x.rows]));
    for (const [name, json] of Object.entries(beforeTables)) expect(counts[name], name).toBe((JSON.parse(json) as unknown[]).length);
    expect(manifest.tables.find((x) => x.name === 'submissions')!.chunks).toBeGreaterThan(1);
    expect(manifest.tables.find((x) => x.name === 'enrolments')!.chunks).toBeGreaterThan(1);
    expect(manifest.media.files).toHaveLength(3);
    expect(manifest.media.missing).toEqual([]);

    // Everything changes after the backup: rows deleted, added and edited, media removed, changed, added.
    await t.db.delete(users).where(sql`id = ${school.students[0]!.id}`);
    await t.course(school.teacher, { name: 'Neu nach dem Backup' });
    await t.db.execute(sql`update submissions set teacher_feedback = 'geändert', time_spent_minutes = 999`);
    rmSync(join(t.deps.mediaDir, school.media[1]!));
    writeFileSync(join(t.deps.mediaDir, school.media[0]!), 'overwritten');
    writeFileSync(join(t.deps.mediaDir, 'exercises', 'orphan.bin'), 'orphan');
    expect(await dumpTables()).not.toEqual(beforeTables);

    const r = await restoreBackup(target(), file);
    expect(r.mediaFiles).toBe(3);
    expect(await dumpTables()).toEqual(beforeTables);
    expect(dumpMedia()).toEqual(beforeMedia);
    // no staging folders left beside the media folder
    expect(readdirSync(join(t.deps.mediaDir, '..')).filter((n) => n.startsWith('.'))).toEqual([]);

    // sequences continue after the restored ids, and the restored accounts work
    const [fresh] = await t.db.insert(courses).values({ teacherId: school.teacher.id, name: 'Nach dem Restore' }).returning();
    const maxBefore = Math.max(...(JSON.parse(beforeTables.courses!) as Array<{ id: number }>).map((c) => c.id));
    expect(fresh!.id).toBeGreaterThan(maxBefore);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { email: school.students[0]!.email, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
    const me = await t.app.inject({ method: 'GET', url: '/api/user', headers: school.teacher.headers });
    expect(me.statusCode).toBe(200);
  });

  async function repack(file: string, edit: (dir: string) => void): Promise<string> {
    const dir = mkdtempSync(join(work, 'x-'));
    await tar.x({ file, cwd: dir });
    edit(dir);
    const out = join(work, `edited-${randomBytes(4).toString('hex')}.tar.gz`);
    await tar.c({ gzip: true, file: out, cwd: dir }, readdirSync(dir));
    return out;
  }
  const editManifest = (dir: string, f: (m: Manifest) => void) => {
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    f(m);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(m));
  };

  it('refuses another format version, a newer app version, damaged archives and non-archives, changing nothing', async () => {
    const teacher = await t.teacher();
    await t.course(teacher);
    const file = join(work, 'refuse.tar.gz');
    await createBackup(target(), file);
    await t.course(teacher, { name: 'after backup' });
    const before = await dumpTables();
    const mediaBefore = dumpMedia();

    const v2 = await repack(file, (d) => editManifest(d, (m) => (m.format_version = 2)));
    await expect(restoreBackup(target(), v2)).rejects.toThrow(/format version 2/);
    const newer = await repack(file, (d) => editManifest(d, (m) => m.migrations.push({ hash: 'f'.repeat(64), created_at: Date.now() })));
    await expect(restoreBackup(target(), newer)).rejects.toThrow(/newer version/);
    const newColumn = await repack(file, (d) => editManifest(d, (m) => m.tables[0]!.columns.push('from_the_future')));
    await expect(restoreBackup(target(), newColumn)).rejects.toThrow(BackupRefusedError);
    // a chunk of the last table in FK order lost a row: the earlier tables were already replaced
    // inside the transaction, so this proves the rollback
    const damaged = await repack(file, (d) => {
      const chunk = join(d, 'db', 'tokens', '000000.json');
      const list = JSON.parse(readFileSync(chunk, 'utf8')) as unknown[];
      writeFileSync(chunk, JSON.stringify(list.slice(1)));
    });
    await expect(restoreBackup(target(), damaged)).rejects.toThrow(/damaged/);
    const missingMedia = await repack(file, (d) => editManifest(d, (m) => m.media.files.push({ path: 'exercises/1/media/nope.png', size: 3 })));
    await expect(restoreBackup(target(), missingMedia)).rejects.toThrow(/damaged/);
    const unsafe = await repack(file, (d) => editManifest(d, (m) => m.media.files.push({ path: '../../etc/passwd', size: 3 })));
    await expect(restoreBackup(target(), unsafe)).rejects.toThrow(/unsafe/);
    const notTar = join(work, 'not.tar.gz');
    writeFileSync(notTar, 'hello');
    await expect(restoreBackup(target(), notTar)).rejects.toThrow(BackupRefusedError);
    await expect(restoreBackup(target(), join(work, 'does-not-exist.tar.gz'))).rejects.toThrow(/No such file/);

    expect(await dumpTables()).toEqual(before);
    expect(dumpMedia()).toEqual(mediaBefore);
    expect(readdirSync(join(t.deps.mediaDir, '..')).filter((n) => n.startsWith('.'))).toEqual([]);
    // a failed backup target leaves no partial archive
    expect(readdirSync(work).filter((n) => n.endsWith('.part'))).toEqual([]);
  });

  it('reads one consistent snapshot while others keep writing (PostgreSQL, online)', async () => {
    if (t.dbKind !== 'postgres') return; // PGlite is one connection: nobody else writes during a backup
    const teacher = await t.teacher();
    await t.course(teacher, { name: 'before' });
    const [{ n: coursesBefore } = { n: 0 }] = await rows<{ n: number }>(t.db, sql`select count(*)::int as n from courses`);
    const file = join(work, 'online.tar.gz');
    const { manifest } = await createBackup(target(), file, {
      chunkRows: 3,
      afterSnapshot: async () => {
        // committed by another connection after the snapshot was taken: not in the backup
        await t.course(teacher, { name: 'during backup' });
        await t.student(teacher);
      },
    });
    expect(manifest.tables.find((x) => x.name === 'courses')!.rows).toBe(coursesBefore);
    const dir = mkdtempSync(join(work, 'online-'));
    await tar.x({ file, cwd: dir });
    const courseRows = readdirSync(join(dir, 'db', 'courses')).flatMap((f) => JSON.parse(readFileSync(join(dir, 'db', 'courses', f), 'utf8')) as Array<{ name: string }>);
    expect(courseRows.map((c) => c.name)).not.toContain('during backup');
    expect(courseRows).toHaveLength(coursesBefore);
    expect(statSync(file).size).toBeGreaterThan(0);
  });
});
