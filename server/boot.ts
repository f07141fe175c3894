import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { AppConfig } from './config';
import { migrateDb, openPglite, openPostgres, type DbHandle } from './db/client';
import { lockDataDir } from './lib/data-lock';
import { withAdvisoryLock } from './lib/jobs';

export type Opened = DbHandle & { release: () => void; dataDir: string; mediaDir: string; secret: string };

/** APP_SECRET, or one generated once into DATA_DIR/app-secret (mode 600). */
export function resolveSecret(config: AppConfig, dataDir: string): string {
  if (config.APP_SECRET) return config.APP_SECRET;
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  try {
    writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
  } catch (e) {
    // Another process on the same DATA_DIR wrote it first: use that one.
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw e;
  }
  return secret;
}

/**
 * Opens the database the settings name: PGlite in DATA_DIR (under an exclusive lock) or the
 * PostgreSQL server of DATABASE_URL; applies the migrations.
 */
export async function openDatabase(config: AppConfig, opts: { onceAtStart?: (handle: DbHandle) => Promise<void> } = {}): Promise<Opened> {
  const dataDir = resolve(config.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  const mediaDir = join(dataDir, 'media');
  mkdirSync(mediaDir, { recursive: true });
  let release = () => {};
  let handle: DbHandle;
  if (config.DATABASE_URL) {
    handle = await openPostgres(config.DATABASE_URL);
  } else {
    release = await lockDataDir(dataDir);
    try {
      const pgdata = join(dataDir, 'pgdata');
      // A new folder starts as a copy of the migrated empty cluster that `npm start` prepares
      // (no initdb); copied beside and renamed, so a start cut off halfway leaves no half cluster.
      const template = resolve(config.STATIC_DIR, '..', 'pglite-template');
      if (!existsSync(pgdata) && existsSync(join(template, '.ready'))) {
        const copy = `${pgdata}.new`;
        rmSync(copy, { recursive: true, force: true });
        cpSync(template, copy, { recursive: true });
        rmSync(join(copy, '.ready'));
        renameSync(copy, pgdata);
      }
      // The database runs in a worker thread (decision 0005); if that thread dies, every query
      // would fail from then on: stop with a message so that whatever runs the server starts it again.
      handle = await openPglite(pgdata, undefined, {
        onCrash: (err) => {
          process.stderr.write(`\nThe embedded database stopped unexpectedly (${err.message}); the server stops.\n`);
          release();
          process.exit(1);
        },
      });
    } catch (e) {
      release();
      throw e;
    }
  }
  try {
    // Several processes starting together on one PostgreSQL: one migrates (and seeds), the others
    // wait for it and then find nothing left to do (docs/decisions/0013-many-processes.md).
    await withAdvisoryLock(
      handle,
      'migrate',
      async () => {
        await migrateDb(handle);
        await opts.onceAtStart?.(handle);
      },
      { wait: true },
    );
  } catch (e) {
    await handle.close();
    release();
    throw e;
  }
  return { ...handle, release, dataDir, mediaDir, secret: resolveSecret(config, dataDir) };
}
