import { closeSync, openSync, readFileSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export class DataDirLockedError extends Error {
  constructor(
    public readonly dataDir: string,
    public readonly pid: number,
  ) {
    super(
      `The data folder ${dataDir} is in use by another process (pid ${pid}), probably a running Übungskontrolle server.\n` +
        `Only one process may use an embedded database at a time: stop that process first, ` +
        `or point DATA_DIR to another folder, or use a PostgreSQL server with DATABASE_URL.`,
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes an exclusive lock on DATA_DIR (a lock file holding our pid). A lock left by a process
 * that no longer runs (kill -9, power loss) is taken over. Returns the release function.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'server.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (readFileSync(file, 'utf8').trim() === String(process.pid)) unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let pid = NaN;
      try {
        pid = Number.parseInt(readFileSync(file, 'utf8').trim(), 10);
      } catch {
        /* vanished meanwhile: retry */
      }
      if (Number.isInteger(pid) && pid !== process.pid && alive(pid)) throw new DataDirLockedError(dataDir, pid);
      try {
        unlinkSync(file); // stale
      } catch {
        /* someone else took it: retry */
      }
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}
