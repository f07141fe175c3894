import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync, mkdirSync } from 'node:fs';
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

/** What the lock file says: the holder's pid and, where the system tells it, the start time of that process. */
export type LockHolder = { pid: number; start: string | null };

type ProcInfo = { state: string; startTicks: string };

/**
 * State and start time (clock ticks since boot) of a process from /proc/<pid>/stat, or null when
 * there is no such process. Undefined when the system has no /proc (macOS, Windows).
 */
function procInfo(pid: number): ProcInfo | null | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH') {
      try {
        statSync('/proc/self/stat');
        return null; // a system with /proc, and no such process
      } catch {
        return undefined;
      }
    }
    return undefined;
  }
  // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const state = fields[0] ?? '';
  const startTicks = fields[19] ?? ''; // field 22 of stat(5), counted from the state (field 3)
  return { state, startTicks };
}

/** Wall-clock start of a process in ms, from /proc (boot time + start ticks), or null. */
function procStartMs(info: ProcInfo): number | null {
  try {
    const btime = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    if (!btime) return null;
    const ticksPerSecond = 100; // USER_HZ: 100 on every Linux architecture Node runs on
    return Number(btime) * 1000 + (Number(info.startTicks) / ticksPerSecond) * 1000;
  } catch {
    return null;
  }
}

function signalAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The current process's lock record. */
export function selfHolder(): LockHolder {
  const info = procInfo(process.pid);
  return { pid: process.pid, start: info ? info.startTicks : null };
}

export function parseHolder(text: string): LockHolder | null {
  const t = text.trim();
  if (/^\d+$/.test(t)) return { pid: Number(t), start: null }; // the format before pid + start time
  try {
    const v = JSON.parse(t) as { pid?: unknown; start?: unknown };
    if (typeof v.pid === 'number' && Number.isInteger(v.pid) && v.pid > 0) {
      return { pid: v.pid, start: typeof v.start === 'string' ? v.start : null };
    }
  } catch {
    /* unreadable: treated as stale */
  }
  return null;
}

/**
 * Whether the process a lock file names still holds it:
 * - no such process, or a zombie (killed, not yet reaped: its files are closed) → no;
 * - a process of that pid that started at another time (the pid was reused, as containers do with
 *   their small pids after a restart) → no; for an old lock without a start time, a process that
 *   started after the lock file was written cannot have written it;
 * - our own pid → no (a restarted container's server finds its own pid in the old lock).
 */
export function holderAlive(holder: LockHolder, lockWrittenMs: number): boolean {
  if (holder.pid === process.pid) return false;
  const info = procInfo(holder.pid);
  if (info === undefined) return signalAlive(holder.pid); // no /proc: the pid is all we have
  if (info === null) return false;
  if (info.state === 'Z' || info.state === 'X') return false;
  if (holder.start !== null) return info.startTicks === holder.start;
  const started = procStartMs(info);
  return started === null || started <= lockWrittenMs + 1000;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Takes an exclusive lock on DATA_DIR: a lock file holding our pid and our process's start time.
 * A lock whose holder no longer runs (kill -9, power loss, a zombie, a reused pid) is taken over;
 * a live holder is given `waitMs` to finish (a server shutting down releases it on exit) before
 * the start stops with DataDirLockedError. Returns the release function.
 */
export async function lockDataDir(dataDir: string, opts: { waitMs?: number } = {}): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'server.lock');
  const me = selfHolder();
  const deadline = Date.now() + (opts.waitMs ?? 5000);
  for (;;) {
    if (Date.now() > deadline + 5000) throw new Error(`Could not lock ${dataDir}: ${file} can neither be created nor removed.`);
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, JSON.stringify(me));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        try {
          if (parseHolder(readFileSync(file, 'utf8'))?.pid === process.pid) unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    let holder: LockHolder | null = null;
    let written = 0;
    try {
      holder = parseHolder(readFileSync(file, 'utf8'));
      written = statSync(file).mtimeMs;
    } catch {
      continue; // vanished meanwhile: try again at once
    }
    const waiting = Date.now() < deadline;
    // An empty lock file that another starter has just created and not yet written: give it time.
    if (!holder && Date.now() - written < 2000 && waiting) {
      await sleep(50);
      continue;
    }
    if (holder && holderAlive(holder, written)) {
      if (!waiting) throw new DataDirLockedError(dataDir, holder.pid);
      await sleep(100); // a holder that is shutting down releases the lock on its way out
      continue;
    }
    try {
      // Stale: removed only while it still names that holder (another starter may have taken it over).
      const now = parseHolder(readFileSync(file, 'utf8'));
      if (holder ? now?.pid === holder.pid && now.start === holder.start : !now) unlinkSync(file);
    } catch {
      /* someone else took it over: try again */
    }
  }
}
