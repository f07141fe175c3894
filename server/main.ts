import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './boot';
import { DataDirLockedError } from './lib/data-lock';
import { createStorage } from './lib/storage';
import { isLoopbackName } from './lib/public-url';
import { seedDemoMedia } from './modules/media/demo-media';
import { DEMO_ADMIN, DEMO_GUARDIAN, DEMO_PASSWORD, DEMO_STUDENTS, DEMO_TEACHER, isEmpty, seedDemo } from './db/seed';

async function main() {
  const startedAt = Date.now();
  const config = loadConfig();
  // The routes and everything they import load while the database opens in its worker (PGlite
  // starts on the other core): at start the main thread otherwise waited for one, then the other
  // (docs/decisions/bench-results.md, "Start").
  const appModule = import('./app');
  appModule.catch(() => undefined); // a failure is reported where it is awaited
  // The media store first: a bucket that cannot be reached stops the start with a clear message.
  const storage = await createStorage(config, join(resolve(config.DATA_DIR), 'media'), { check: true });
  let seeded = false;
  const opened = await openDatabase(config, {
    // Under the start lock: of several processes starting together on one database, one seeds.
    onceAtStart: async (handle) => {
      if (config.DEMO_SEED && (await isEmpty(handle.db))) {
        await seedDemo(handle.db, config.APP_TIMEZONE, new Date());
        await seedDemoMedia(handle.db, storage);
        seeded = true;
      }
    },
  });
  if (seeded) {
    console.log(
      `\nDemo school created. Sign in with password "${DEMO_PASSWORD}" as\n` +
        `  administration: ${DEMO_ADMIN.email} (${DEMO_ADMIN.name})\n` +
        `  teacher: ${DEMO_TEACHER.email} (${DEMO_TEACHER.name})\n` +
        `  parent: ${DEMO_GUARDIAN.email} (${DEMO_GUARDIAN.name})\n` +
        `  students: ${DEMO_STUDENTS.map((s) => s.email).join(', ')}\n`,
    );
  }
  const { buildApp } = await appModule;
  const app = await buildApp({
    config,
    db: opened.db,
    dbKind: opened.kind,
    ...(opened.pool ? { pool: opened.pool } : {}),
    mediaDir: opened.mediaDir,
    storage,
    secret: opened.secret,
  });
  app.addHook('onClose', async () => {
    await storage.close();
    await opened.close();
    opened.release();
  });

  // Graceful shutdown (docs/deploy.md): on SIGTERM /api/health answers 503 at once while every
  // other call is still served for SHUTDOWN_DRAIN_SECONDS (the balancer's checks take the process
  // out); then the server stops taking connections, finishes the requests in flight, closes the
  // database and exits. SIGINT (Ctrl-C) skips the wait. A second signal, or 30 s, ends it at once.
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) {
      opened.release();
      process.exit(1);
    }
    closing = true;
    app.lifecycle.draining = true;
    const drainMs = signal === 'SIGTERM' ? config.SHUTDOWN_DRAIN_SECONDS * 1000 : 0;
    app.log.info({ signal, drainMs }, 'shutting down');
    const force = setTimeout(() => {
      app.log.warn('requests still running after 30 s: exiting');
      opened.release();
      process.exit(1);
    }, drainMs + 30_000);
    force.unref();
    try {
      if (drainMs > 0) await new Promise((r) => setTimeout(r, drainMs));
      await app.close();
      app.log.info('stopped');
    } finally {
      opened.release();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ ms: Date.now() - startedAt, db: opened.kind }, 'ready');
  if (!config.PUBLIC_URL && !isLoopbackName(config.HOST)) {
    // Reachable from other machines, but links would name this one (server/lib/public-url.ts).
    app.log.warn(`PUBLIC_URL is not set: invitation links and calendar addresses point to http://localhost:${config.PORT}. Set PUBLIC_URL to the address users open.`);
  }
  console.log(`Übungskontrolle is running on ${address.replace('127.0.0.1', 'localhost')} (${opened.kind === 'pglite' ? `embedded database in ${opened.dataDir}` : 'PostgreSQL'}, media in ${storage.where})`);
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof DataDirLockedError) {
    console.error(`\n${e.message}\n`);
    process.exit(1);
  }
  console.error(e);
  process.exit(1);
});
