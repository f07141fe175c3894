import { join, resolve } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './boot';
import { DataDirLockedError } from './lib/data-lock';
import { userCreate, USER_CREATE_USAGE } from './cli/user-create';
import { backupCommand, BACKUP_USAGE, restoreCommand, RESTORE_USAGE } from './cli/backup';
import { spaceCommand, SPACE_USAGE } from './cli/space';
import { analyzeCommand, ANALYZE_USAGE } from './cli/analyze';
import type { Opened } from './boot';
import { createStorage, type Storage } from './lib/storage';

type Command =
  | { usage: string; run: (opened: Opened & { storage: Storage }, argv: string[]) => Promise<unknown> }
  /** A command that needs neither the database nor the media store (and so no settings): its exit code. */
  | { usage: string; offline: (argv: string[]) => Promise<number> };

/** Operator commands. Each opens the database the settings name (the same as the server's), unless offline. */
export const commands: Record<string, Command> = {
  analyze: { usage: ANALYZE_USAGE, offline: (argv) => analyzeCommand(argv) },
  'user:create': { usage: USER_CREATE_USAGE, run: (o, argv) => userCreate(o.db, argv) },
  backup: { usage: BACKUP_USAGE, run: (o, argv) => backupCommand(o, argv) },
  restore: { usage: RESTORE_USAGE, run: (o, argv) => restoreCommand(o, argv) },
  space: { usage: SPACE_USAGE, run: (o, argv) => spaceCommand(o, argv) },
};

function help(): string {
  return `Übungskontrolle operator commands:\n\n${Object.values(commands)
    .map((c) => c.usage)
    .join('\n\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help') {
    console.log(help());
    return name ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${help()}`);
    return 1;
  }
  if ('offline' in command) return command.offline(rest);
  const config = loadConfig();
  const storage = await createStorage(config, join(resolve(config.DATA_DIR), 'media'), { check: true });
  const opened = await openDatabase(config);
  try {
    await command.run({ ...opened, storage }, rest);
    // On PostgreSQL a server may be running: its caches must not keep what this command changed
    // (a restore, a new student on a teacher's list). Nothing listens on the embedded database.
    await opened.cluster.publish({ kind: 'all' });
    return 0;
  } finally {
    await storage.close();
    await opened.close();
    opened.release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof ConfigError || e instanceof DataDirLockedError) console.error(`\n${e.message}\n`);
    else console.error(`Error: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
