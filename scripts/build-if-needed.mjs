// `npm start` builds what is missing or older than its sources, once: the web app (Vite) into
// dist/web and the server (esbuild, TypeScript to one ES module, packages left external) into
// dist/server. Plain node then runs the server: less memory and a faster start than compiling
// TypeScript on every start.
import { existsSync, statSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}
const stale = (out, dirs) => !existsSync(out) || Math.max(...dirs.map(newest)) > statSync(out).mtimeMs;
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

if (stale('dist/web/index.html', ['web', 'contract'])) {
  console.log('Building the web app …');
  run('npx', ['vite', 'build', '--logLevel', 'warn']);
}
if (stale('dist/server/main.mjs', ['server', 'contract'])) {
  console.log('Building the server …');
  // dist/server sits two folders below the project like server/db, so paths relative to a
  // module (../../drizzle, ../../package.json) resolve the same in the bundle.
  run('npx', [
    'esbuild', 'server/main.ts', 'server/cli.ts',
    // the analysis worker thread, beside main.mjs (server/modules/recordings/analysis-pool.ts)
    'analysis-worker=server/modules/recordings/analysis-worker.ts',
    // --splitting: what the server imports only when needed (the S3 store, the archive writer)
    // becomes its own chunk, so its packages load with it and not at every start.
    '--bundle', '--splitting', '--platform=node', '--format=esm', '--target=node20', '--packages=external',
    '--outdir=dist/server', '--out-extension:.js=.mjs', '--log-level=warning',
  ]);
}

// A new embedded data folder starts as a copy of this migrated, empty cluster (copied in
// ~0.1 s) instead of PGlite's initdb (4–6 s) or the unpacking of a dump (~0.5 s);
// server/boot.ts copies it when DATA_DIR/pgdata does not exist and `.ready` marks it complete.
const template = 'dist/pglite-template';
if (stale(`${template}/.ready`, ['drizzle'])) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const { mkdirSync, writeFileSync, renameSync, rmSync } = await import('node:fs');
  console.log('Preparing the embedded database template …');
  mkdirSync('dist', { recursive: true });
  const tmp = `${template}.tmp`;
  rmSync(tmp, { recursive: true, force: true });
  const client = await PGlite.create({ dataDir: tmp });
  await migrate(drizzle(client), { migrationsFolder: 'drizzle' });
  await client.close();
  writeFileSync(`${tmp}/.ready`, '');
  rmSync(template, { recursive: true, force: true });
  rmSync(`${template}.tar.gz`, { force: true }); // the earlier form of the template
  renameSync(tmp, template);
}
