import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './boot';
import { DataDirLockedError } from './lib/data-lock';
import { DEMO_PASSWORD, DEMO_STUDENTS, DEMO_TEACHER, isEmpty, seedDemo } from './db/seed';

async function main() {
  const startedAt = Date.now();
  const config = loadConfig();
  const opened = await openDatabase(config);
  if (config.DEMO_SEED && (await isEmpty(opened.db))) {
    await seedDemo(opened.db, config.APP_TIMEZONE, new Date(), opened.mediaDir);
    console.log(
      `\nDemo school created. Sign in with password "${DEMO_PASSWORD}" as\n` +
        `  teacher: ${DEMO_TEACHER.email} (${DEMO_TEACHER.name})\n` +
        `  students: ${DEMO_STUDENTS.map((s) => s.email).join(', ')}\n`,
    );
  }
  const app = await buildApp({
    config,
    db: opened.db,
    dbKind: opened.kind,
    mediaDir: opened.mediaDir,
    secret: opened.secret,
  });
  app.addHook('onClose', async () => {
    await opened.close();
    opened.release();
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      opened.release();
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
    } finally {
      opened.release();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  const address = await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ ms: Date.now() - startedAt, db: opened.kind }, 'ready');
  console.log(`Übungskontrolle is running on ${address.replace('127.0.0.1', 'localhost')} (${opened.kind === 'pglite' ? `embedded database in ${opened.dataDir}` : 'PostgreSQL'})`);
}

main().catch((e: unknown) => {
  if (e instanceof ConfigError || e instanceof DataDirLockedError) {
    console.error(`\n${e.message}\n`);
    process.exit(1);
  }
  console.error(e);
  process.exit(1);
});
