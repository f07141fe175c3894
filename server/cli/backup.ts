import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, readFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { copyFile, link, mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { sql, type SQL } from 'drizzle-orm';
import * as tar from 'tar';
import { rows, type Db, type DbOrTx } from '../db/client';
import { isSafeRelativePath, NotStoredError, type Storage } from '../lib/storage';

/**
 * Backup and restore of a whole school: every table of the database and every media file, in one
 * .tar.gz with a manifest.
 *
 * Archive layout:
 *   manifest.json                  format, version, migrations applied, tables (columns, rows), media list
 *   db/<table>/<nnnnnn>.json       the table's rows, a JSON array of at most CHUNK_ROWS rows each,
 *                                  in primary-key order
 *   media/<path of media_files>    the files the media_files rows name
 *
 * Backup reads one consistent snapshot (one REPEATABLE READ, READ ONLY transaction), so it may run
 * while a server on PostgreSQL keeps writing; tables are read in primary-key ordered chunks, so
 * memory stays bounded whatever the size of the school. Restore refuses an archive of another
 * format version or one made by a newer version of the app (migrations this database lacks), then
 * replaces every table in one transaction and swaps the media folder in with two renames.
 */

export const BACKUP_FORMAT = 'uebungskontrolle-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const CHUNK_ROWS = 5000;

export type Manifest = {
  format: string;
  format_version: number;
  created_at: string;
  app_version: string;
  db_kind: 'pglite' | 'postgres';
  migrations: Array<{ hash: string; created_at: number }>;
  tables: Array<{ name: string; columns: string[]; primary_key: string[]; rows: number; chunks: number }>;
  media: { files: Array<{ path: string; size: number }>; bytes: number; missing: string[] };
};

/**
 * What a backup reads and a restore replaces. `storage` is the media store of the settings: with
 * MEDIA_STORE=s3 the files are downloaded from the bucket into the archive and uploaded back on
 * restore (the archive is the same either way); without it, the folder `mediaDir`.
 */
export type BackupTarget = { db: Db; kind: 'pglite' | 'postgres'; mediaDir: string; storage?: Storage };

type TableInfo = { name: string; columns: string[]; pk: Array<{ name: string; type: string }> };

const q = (ident: string) => `"${ident.replace(/"/g, '""')}"`;

function appVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

async function appliedMigrations(db: DbOrTx): Promise<Array<{ hash: string; created_at: number }>> {
  const found = await rows<{ hash: string; created_at: string | number }>(
    db,
    sql.raw(`select hash, created_at from drizzle.__drizzle_migrations order by created_at, id`),
  );
  return found.map((m) => ({ hash: m.hash, created_at: Number(m.created_at) }));
}

/** The application's tables (schema public), their columns and primary keys. */
async function tables(db: DbOrTx): Promise<TableInfo[]> {
  const found = await rows<{ name: string; columns: string[] | string; pk: Array<{ name: string; type: string }> | string | null }>(
    db,
    sql.raw(`
      select c.relname as name,
        (select json_agg(a.attname order by a.attnum) from pg_attribute a
          where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped) as columns,
        (select json_agg(json_build_object('name', a.attname, 'type', format_type(a.atttypid, a.atttypmod))
                         order by array_position(i.indkey::int2[], a.attnum))
          from pg_index i join pg_attribute a on a.attrelid = c.oid and a.attnum = any(i.indkey)
          where i.indrelid = c.oid and i.indisprimary) as pk
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
      order by c.relname`),
  );
  const parse = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
  return found.map((t) => {
    const pk = t.pk === null ? [] : parse(t.pk);
    if (!pk.length) throw new Error(`Table ${t.name} has no primary key: it cannot be backed up in chunks.`);
    return { name: t.name, columns: parse(t.columns), pk };
  });
}

/** Tables ordered so that every table comes after the tables its foreign keys point to. */
async function fkOrder(db: DbOrTx, names: string[]): Promise<string[]> {
  const edges = await rows<{ child: string; parent: string }>(
    db,
    sql.raw(`
      select ch.relname as child, pa.relname as parent
      from pg_constraint c
        join pg_class ch on ch.oid = c.conrelid
        join pg_class pa on pa.oid = c.confrelid
        join pg_namespace n on n.oid = ch.relnamespace
      where c.contype = 'f' and n.nspname = 'public'`),
  );
  const parents = new Map(names.map((n) => [n, new Set<string>()]));
  for (const e of edges) if (e.child !== e.parent) parents.get(e.child)?.add(e.parent);
  const ordered: string[] = [];
  const done = new Set<string>();
  const visiting = new Set<string>();
  const visit = (n: string) => {
    if (done.has(n)) return;
    if (visiting.has(n)) throw new Error(`Foreign keys form a cycle through ${n}.`);
    visiting.add(n);
    for (const p of parents.get(n) ?? []) if (parents.has(p)) visit(p);
    visiting.delete(n);
    done.add(n);
    ordered.push(n);
  };
  for (const n of [...names].sort()) visit(n);
  return ordered;
}

/** Hard link (same disk, instant, keeps the bytes even if the original is deleted meanwhile) or copy. */
async function linkOrCopy(from: string, to: string): Promise<void> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await link(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EXDEV' || code === 'EPERM' || code === 'ENOTSUP') await copyFile(from, to);
    else throw e;
  }
}

/** Streams a stored file to a local file; its size, or null when the store does not hold it. */
async function downloadTo(storage: Storage, relPath: string, to: string): Promise<number | null> {
  let body;
  try {
    body = await storage.open(relPath);
  } catch (e) {
    if (e instanceof NotStoredError) return null;
    throw e;
  }
  await mkdir(dirname(to), { recursive: true });
  await pipeline(body, createWriteStream(to, { flags: 'wx' }));
  return (await stat(to)).size;
}

const chunkName = (i: number) => `${String(i).padStart(6, '0')}.json`;

export type BackupResult = { file: string; manifest: Manifest };

/**
 * Writes a backup of the database and the media files to `file` (a .tar.gz). The archive appears
 * under its name only when complete (written beside it, then renamed).
 */
export async function createBackup(
  target: BackupTarget,
  file: string,
  opts: { chunkRows?: number; afterSnapshot?: () => Promise<void> } = {},
): Promise<BackupResult> {
  const out = resolve(file);
  const mediaDir = resolve(target.mediaDir);
  const chunkRows = opts.chunkRows ?? CHUNK_ROWS;
  // Staging beside the media folder (same disk: media files are hard-linked, not copied).
  const staging = join(dirname(mediaDir), `.backup-${randomBytes(6).toString('hex')}`);
  const partial = `${out}.${randomBytes(6).toString('hex')}.part`;
  await mkdir(join(staging, 'db'), { recursive: true });
  await mkdir(join(staging, 'media'), { recursive: true });
  await mkdir(dirname(out), { recursive: true });
  try {
    const manifest = await target.db.transaction(
      async (tx) => {
        // The first statement fixes the snapshot every later read sees.
        const migrations = await appliedMigrations(tx);
        if (opts.afterSnapshot) await opts.afterSnapshot();

        // Media first, right after the snapshot: link each file the snapshot names.
        const media: Manifest['media'] = { files: [], bytes: 0, missing: [] };
        const hasMediaTable = (await rows<{ ok: boolean }>(tx, sql.raw(`select to_regclass('public.media_files') is not null as ok`)))[0]?.ok;
        if (hasMediaTable) {
          let lastId = 0;
          for (;;) {
            const batch = await rows<{ id: number; path: string }>(
              tx,
              sql`select id, path from media_files where id > ${lastId} order by id limit ${chunkRows}`,
            );
            if (!batch.length) break;
            lastId = batch[batch.length - 1]!.id;
            for (const m of batch) {
              if (!isSafeRelativePath(m.path)) {
                media.missing.push(m.path);
                continue;
              }
              if (target.storage?.kind === 's3') {
                // From the bucket: each object streamed into the staging folder.
                const size = await downloadTo(target.storage, m.path, join(staging, 'media', m.path));
                if (size === null) media.missing.push(m.path);
                else {
                  media.files.push({ path: m.path, size });
                  media.bytes += size;
                }
                continue;
              }
              const src = join(mediaDir, m.path);
              try {
                await linkOrCopy(src, join(staging, 'media', m.path));
                const s = await stat(src);
                media.files.push({ path: m.path, size: s.size });
                media.bytes += s.size;
              } catch (e) {
                if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
                media.missing.push(m.path);
              }
            }
          }
        }

        const infos = await tables(tx);
        const tableEntries: Manifest['tables'] = [];
        for (const t of infos) {
          const dir = join(staging, 'db', t.name);
          await mkdir(dir, { recursive: true });
          const pkCols = t.pk.map((c) => q(c.name)).join(', ');
          const pkDesc = t.pk.map((c) => `${q(c.name)} desc`).join(', ');
          let last: unknown[] | null = null;
          let count = 0;
          let chunks = 0;
          for (;;) {
            const where: SQL = last
              ? sql`where (${sql.raw(pkCols)}) > (${sql.join(
                  last.map((v, i) => sql`${v}::${sql.raw(t.pk[i]!.type)}`),
                  sql`, `,
                )})`
              : sql``;
            const chunk: { data: string | null; n: number; last: unknown[] | string | null } | undefined = (await rows<{ data: string | null; n: number; last: unknown[] | string | null }>(
              tx,
              sql`with c as (select * from ${sql.raw(q(t.name))} ${where} order by ${sql.raw(pkCols)} limit ${chunkRows})
                  select (select json_agg(c order by ${sql.raw(pkCols)})::text from c) as data,
                         (select count(*)::int from c) as n,
                         (select json_build_array(${sql.raw(pkCols)}) from c order by ${sql.raw(pkDesc)} limit 1) as last`,
            ))[0];
            if (!chunk || !chunk.n || !chunk.data) break;
            await writeFile(join(dir, chunkName(chunks)), chunk.data);
            chunks += 1;
            count += Number(chunk.n);
            last = typeof chunk.last === 'string' ? (JSON.parse(chunk.last) as unknown[]) : chunk.last;
            if (Number(chunk.n) < chunkRows) break;
          }
          tableEntries.push({ name: t.name, columns: t.columns, primary_key: t.pk.map((c) => c.name), rows: count, chunks });
        }
        const m: Manifest = {
          format: BACKUP_FORMAT,
          format_version: BACKUP_FORMAT_VERSION,
          created_at: new Date().toISOString(),
          app_version: appVersion(),
          db_kind: target.kind,
          migrations,
          tables: tableEntries,
          media,
        };
        return m;
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    await writeFile(join(staging, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await tar.c({ gzip: { level: 6 }, file: partial, cwd: staging, portable: true }, ['manifest.json', 'db', 'media']);
    await rename(partial, out);
    return { file: out, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

export class BackupRefusedError extends Error {}

function checkManifest(m: unknown): Manifest {
  const man = m as Partial<Manifest> | null;
  if (!man || typeof man !== 'object' || man.format !== BACKUP_FORMAT)
    throw new BackupRefusedError('This file is not an Übungskontrolle backup (no valid manifest.json).');
  if (man.format_version !== BACKUP_FORMAT_VERSION)
    throw new BackupRefusedError(
      `This backup has format version ${String(man.format_version)}; this version of Übungskontrolle reads format version ${BACKUP_FORMAT_VERSION} only.`,
    );
  if (!Array.isArray(man.tables) || !Array.isArray(man.migrations) || !man.media || !Array.isArray(man.media.files))
    throw new BackupRefusedError('The manifest of this backup is incomplete.');
  for (const t of man.tables) {
    if (!/^[a-z_][a-z0-9_]*$/.test(t.name) || !Array.isArray(t.columns) || !t.columns.every((c) => /^[a-z_][a-z0-9_]*$/.test(c)))
      throw new BackupRefusedError(`The manifest names an invalid table or column (${String(t.name)}).`);
  }
  return man as Manifest;
}

export type RestoreResult = { manifest: Manifest; rows: Record<string, number>; mediaFiles: number };

/**
 * Replaces the whole database and the media folder with the content of a backup. Everything or
 * nothing: the archive is unpacked and checked first, the tables are replaced in one transaction,
 * and the media folder is swapped in only after that transaction committed.
 */
export async function restoreBackup(target: BackupTarget, file: string): Promise<RestoreResult> {
  const src = resolve(file);
  if (!existsSync(src)) throw new BackupRefusedError(`No such file: ${src}`);
  const mediaDir = resolve(target.mediaDir);
  const parent = dirname(mediaDir);
  const work = join(parent, `.restore-${randomBytes(6).toString('hex')}`);
  await mkdir(work, { recursive: true });
  try {
    try {
      await tar.x({
        file: src,
        cwd: work,
        strict: true,
        preservePaths: false,
        preserveOwner: false,
        filter: (path, entry) => {
          const type = (entry as { type?: string }).type;
          if (type !== 'File' && type !== 'Directory') return false;
          const p = path.replace(/^\.\//, '');
          return p === 'manifest.json' || p === 'db' || p === 'db/' || p.startsWith('db/') || p === 'media' || p === 'media/' || p.startsWith('media/');
        },
      });
    } catch (e) {
      throw new BackupRefusedError(`This file cannot be read as a backup archive (${e instanceof Error ? e.message : String(e)}).`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(join(work, 'manifest.json'), 'utf8'));
    } catch {
      throw new BackupRefusedError('This file is not an Übungskontrolle backup (no valid manifest.json).');
    }
    const manifest = checkManifest(raw);

    // Media: every listed file present with its size, and nothing else sneaked in under media/.
    const stagedMedia = join(work, 'media');
    await mkdir(stagedMedia, { recursive: true });
    for (const f of manifest.media.files) {
      if (!isSafeRelativePath(f.path)) throw new BackupRefusedError(`The backup lists an unsafe media path: ${f.path}`);
      const s = await stat(join(stagedMedia, f.path)).catch(() => null);
      if (!s || !s.isFile() || s.size !== f.size) throw new BackupRefusedError(`The backup is damaged: media file ${f.path} is missing or has the wrong size.`);
    }

    const restored: Record<string, number> = {};
    await target.db.transaction(async (tx) => {
      // Migrations: the backup may be older than this database (its rows go into today's columns,
      // new columns take their defaults), never newer.
      const applied = new Set((await appliedMigrations(tx)).map((m) => m.hash));
      const unknown = manifest.migrations.filter((m) => !applied.has(m.hash));
      if (unknown.length)
        throw new BackupRefusedError(
          `This backup was made by a newer version of Übungskontrolle (${unknown.length} database migration(s) unknown here). Update the app first.`,
        );
      const current = await tables(tx);
      const byName = new Map(current.map((t) => [t.name, t]));
      for (const t of manifest.tables) {
        const cur = byName.get(t.name);
        if (!cur) throw new BackupRefusedError(`The backup holds table ${t.name}, which this database does not have.`);
        const missing = t.columns.filter((c) => !cur.columns.includes(c));
        if (missing.length) throw new BackupRefusedError(`The backup holds columns this database lacks: ${t.name}.${missing.join(', ')}`);
      }
      const order = await fkOrder(
        tx,
        current.map((t) => t.name),
      );
      const all = current.map((t) => q(t.name)).join(', ');
      if (all) await tx.execute(sql.raw(`truncate table ${all} restart identity`));
      // Derived values (time_spent_minutes) come from the backup as they were: user triggers off
      // for the load, on again before commit. Foreign keys stay checked.
      for (const t of current) await tx.execute(sql.raw(`alter table ${q(t.name)} disable trigger user`));
      const inManifest = new Map(manifest.tables.map((t) => [t.name, t]));
      for (const name of order) {
        const t = inManifest.get(name);
        restored[name] = 0;
        if (!t) continue;
        const cols = t.columns.map(q).join(', ');
        const dir = join(work, 'db', name);
        const files = existsSync(dir) ? (await readdir(dir)).filter((f) => /^\d{6}\.json$/.test(f)).sort() : [];
        for (const f of files) {
          const data = await readFile(join(dir, f), 'utf8');
          await tx.execute(
            sql`insert into ${sql.raw(q(name))} (${sql.raw(cols)}) select ${sql.raw(cols)} from json_populate_recordset(null::${sql.raw(q(name))}, ${data}::json)`,
          );
        }
        const [{ n } = { n: 0 }] = await rows<{ n: number }>(tx, sql.raw(`select count(*)::int as n from ${q(name)}`));
        if (Number(n) !== t.rows) throw new BackupRefusedError(`The backup is damaged: table ${name} should hold ${t.rows} rows, found ${n}.`);
        restored[name] = Number(n);
      }
      for (const t of current) await tx.execute(sql.raw(`alter table ${q(t.name)} enable trigger user`));
      // Sequences continue after the highest restored id.
      for (const t of current) {
        for (const c of t.columns) {
          const [seq] = await rows<{ s: string | null }>(tx, sql`select pg_get_serial_sequence(${q(t.name)}, ${c}) as s`);
          if (!seq?.s) continue;
          await tx.execute(sql`select setval(${seq.s}::regclass, coalesce((select max(${sql.raw(q(c))}) from ${sql.raw(q(t.name))}), 0) + 1, false)`);
        }
      }
    });

    if (target.storage?.kind === 's3') {
      // The database now matches the backup: its files go up to the bucket, each through a
      // temporary file of the store (streamed, like an upload). Objects the backup does not name
      // stay; the orphan sweeps deal with them (exercise media moved aside, recordings removed).
      const storage = target.storage;
      for (const f of manifest.media.files) {
        const temp = await storage.tempPath();
        await rename(join(stagedMedia, f.path), temp);
        try {
          await storage.putFile(f.path, temp);
        } finally {
          await rm(temp, { force: true });
        }
      }
      return { manifest, rows: restored, mediaFiles: manifest.media.files.length };
    }

    // The database now matches the backup: swap the media folder in (two renames on one disk).
    const old = join(parent, `.media-old-${randomBytes(6).toString('hex')}`);
    const hadMedia = existsSync(mediaDir);
    if (hadMedia) await rename(mediaDir, old);
    try {
      await rename(stagedMedia, mediaDir);
    } catch (e) {
      if (hadMedia) await rename(old, mediaDir);
      throw e;
    }
    if (hadMedia) await rm(old, { recursive: true, force: true });
    return { manifest, rows: restored, mediaFiles: manifest.media.files.length };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

export const BACKUP_USAGE =
  'npm run cli -- backup FILE\n' +
  '  Writes the database and all media files into FILE (.tar.gz). On PostgreSQL it may run while the\n' +
  '  server runs (one consistent snapshot); on the embedded database stop the server first.';

export const RESTORE_USAGE =
  'npm run cli -- restore FILE [--yes]\n' +
  '  Replaces ALL data (database and media) with the content of the backup FILE. Asks for\n' +
  '  confirmation on a terminal unless --yes is given. Refuses backups of another format version or\n' +
  '  of a newer app version. On the embedded database stop the server first.';

function fileArg(argv: string[], usage: string, extra: Record<string, { type: 'boolean' }> = {}) {
  const { values, positionals } = parseArgs({ args: argv, options: extra, allowPositionals: true, strict: true });
  if (positionals.length !== 1) throw new Error(`Expected one file name.\n\n${usage}`);
  return { file: positionals[0]!, values: values as Record<string, boolean | undefined> };
}

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

export async function backupCommand(target: BackupTarget, argv: string[], out: (line: string) => void = console.log): Promise<void> {
  const { file } = fileArg(argv, BACKUP_USAGE);
  const started = Date.now();
  const { file: written, manifest } = await createBackup(target, file);
  const size = (await stat(written)).size;
  out(`Backup written to ${written} (${formatBytes(size)}, ${Date.now() - started} ms).`);
  out(`  tables: ${manifest.tables.map((t) => `${t.name} ${t.rows}`).join(', ')}`);
  out(`  media: ${manifest.media.files.length} files, ${formatBytes(manifest.media.bytes)}${target.storage?.kind === 's3' ? ` (downloaded from ${target.storage.where})` : ''}`);
  if (target.storage?.kind === 's3')
    out(
      `  note: media are read from the bucket after the database snapshot; a file deleted in between is listed as missing.\n` +
        `        Keep bucket versioning on as a second line (docs/deploy.md "Media on S3").`,
    );
  if (manifest.media.missing.length)
    out(`  warning: ${manifest.media.missing.length} media file(s) named in the database were missing on disk: ${manifest.media.missing.slice(0, 5).join(', ')}`);
}

function confirm(question: string): Promise<boolean> {
  return new Promise((res) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    rl.question(question, (answer) => {
      rl.close();
      res(answer.trim().toLowerCase() === 'yes');
    });
  });
}

export async function restoreCommand(target: BackupTarget, argv: string[], out: (line: string) => void = console.log): Promise<void> {
  const { file, values } = fileArg(argv, RESTORE_USAGE, { yes: { type: 'boolean' } });
  if (!values.yes && process.stdin.isTTY) {
    const ok = await confirm(`This replaces ALL data (database and media) with the backup ${resolve(file)}.\nType "yes" to continue: `);
    if (!ok) throw new Error('Cancelled: nothing was changed.');
  }
  const started = Date.now();
  const r = await restoreBackup(target, file);
  out(`Restored the backup of ${r.manifest.created_at} (${Date.now() - started} ms).`);
  out(`  tables: ${Object.entries(r.rows).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  out(`  media: ${r.mediaFiles} files${target.storage?.kind === 's3' ? ` (uploaded to ${target.storage.where}; other objects in the bucket were left as they are)` : ''}`);
}
