import { PGlite } from '@electric-sql/pglite';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { openDatabase } from './boot';
import { configSchema } from './config';
import { rows } from './db/client';

/**
 * A new embedded data folder starts as a copy of the migrated template that `npm start` prepares
 * (scripts/build-if-needed.mjs writes it next to the web build, `.ready` marking it complete).
 */
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'uk-boot-'));
  mkdirSync(join(root, 'dist'));
  // a template as the build script makes it: a migrated cluster on disk, closed, then marked ready
  const tpl = await PGlite.create({ dataDir: join(root, 'dist', 'pglite-template'), loadDataDir: new Blob([readFileSync(inject('snapshotPath'))]) });
  // something only the template has, so the test tells a copy from a fresh initdb + migrations
  await tpl.exec('create table template_marker (x int)');
  await tpl.close();
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

const configFor = (dataDir: string) =>
  configSchema.parse({ DATA_DIR: dataDir, STATIC_DIR: join(root, 'dist', 'web'), DEMO_SEED: 'false', LOG_LEVEL: 'silent' });

describe('openDatabase on a new data folder', () => {
  it('copies the template once it is marked ready, and the copy is a migrated database of its own', async () => {
    writeFileSync(join(root, 'dist', 'pglite-template', '.ready'), '');
    const dataDir = join(root, 'school');
    const opened = await openDatabase(configFor(dataDir));
    try {
      const [r] = await rows<{ n: number }>(opened.db, sql`select count(*)::int as n from users`);
      expect(r?.n).toBe(0);
      const [m] = await rows<{ t: string | null }>(opened.db, sql`select to_regclass('template_marker')::text as t`);
      expect(m?.t).toBe('template_marker');
      await opened.db.execute(sql`insert into schools (id, name) values (1, 'Schule')`);
      await opened.db.execute(sql`insert into users (school_id, name, email, role, password_hash) values (1, 'A', 'a@example.test', 'teacher', 'x')`);
    } finally {
      await opened.close();
      opened.release();
    }
    expect(existsSync(join(dataDir, 'pgdata', '.ready'))).toBe(false);
    expect(existsSync(join(dataDir, 'pgdata.new'))).toBe(false);
    // the template itself is untouched by what the school wrote
    const tpl = await PGlite.create({ dataDir: join(root, 'dist', 'pglite-template') });
    try {
      expect((await tpl.query<{ n: number }>('select count(*)::int as n from users')).rows[0]?.n).toBe(0);
    } finally {
      await tpl.close();
    }
  });

  it('opens an existing folder as it is (no copy over it)', async () => {
    const dataDir = join(root, 'school');
    const opened = await openDatabase(configFor(dataDir));
    try {
      const [r] = await rows<{ n: number }>(opened.db, sql`select count(*)::int as n from users`);
      expect(r?.n).toBe(1);
    } finally {
      await opened.close();
      opened.release();
    }
  });
});
