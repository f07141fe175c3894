import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockDataDir, parseHolder } from './data-lock';

const linux = existsSync('/proc/self/stat');
let dir: string;
const children: ChildProcess[] = [];

/** A live process that is not an Übungskontrolle server (it just sleeps). */
function sleeper(seconds = 30): ChildProcess {
  const child = spawn('sleep', [String(seconds)], { stdio: 'ignore' });
  children.push(child);
  return child;
}

/** Start ticks of a live process, as its lock would record them. */
function startTicks(pid: number): string {
  const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

const lockFile = () => join(dir, 'server.lock');

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'uk-lock-'));
});
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('lockDataDir', () => {
  it('writes our pid and start time and removes the lock on release', async () => {
    const release = await lockDataDir(dir, { waitMs: 0 });
    const holder = parseHolder(readFileSync(lockFile(), 'utf8'));
    expect(holder?.pid).toBe(process.pid);
    if (linux) expect(holder?.start).toBe(startTicks(process.pid));
    release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('refuses a second holder while the first runs, after waiting for it', async () => {
    const release = await lockDataDir(dir, { waitMs: 0 });
    // our own pid counts as stale (a restarted container), so the live holder is another process
    const child = sleeper();
    writeFileSync(lockFile(), JSON.stringify({ pid: child.pid, start: linux ? startTicks(child.pid!) : null }));
    const t0 = Date.now();
    await expect(lockDataDir(dir, { waitMs: 400 })).rejects.toBeInstanceOf(DataDirLockedError);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(350);
    release();
  });

  it('waits for a holder that is shutting down and then takes the lock', async () => {
    const child = sleeper();
    writeFileSync(lockFile(), JSON.stringify({ pid: child.pid, start: linux ? startTicks(child.pid!) : null }));
    setTimeout(() => child.kill('SIGKILL'), 300);
    const release = await lockDataDir(dir, { waitMs: 5000 });
    expect(parseHolder(readFileSync(lockFile(), 'utf8'))?.pid).toBe(process.pid);
    release();
  });

  it.runIf(linux)('takes over a lock whose pid now belongs to an unrelated live process (pid reused)', async () => {
    const child = sleeper();
    // the lock names the pid with another start time: the process that wrote it is gone
    writeFileSync(lockFile(), JSON.stringify({ pid: child.pid, start: '1' }));
    const release = await lockDataDir(dir, { waitMs: 0 });
    expect(parseHolder(readFileSync(lockFile(), 'utf8'))?.pid).toBe(process.pid);
    release();
  });

  it.runIf(linux)('takes over an old pid-only lock written before its live pid started', async () => {
    const child = sleeper();
    writeFileSync(lockFile(), String(child.pid));
    const hourAgo = new Date(Date.now() - 3600_000);
    utimesSync(lockFile(), hourAgo, hourAgo);
    const release = await lockDataDir(dir, { waitMs: 0 });
    expect(parseHolder(readFileSync(lockFile(), 'utf8'))?.pid).toBe(process.pid);
    release();
  });

  it.runIf(linux)('keeps refusing an old pid-only lock of a process that was running when it was written', async () => {
    const child = sleeper();
    await new Promise((r) => setTimeout(r, 50));
    writeFileSync(lockFile(), String(child.pid));
    await expect(lockDataDir(dir, { waitMs: 0 })).rejects.toBeInstanceOf(DataDirLockedError);
  });

  it.runIf(linux)('takes over the lock of a killed holder that has not been reaped yet (a zombie)', async () => {
    // sh starts a short sleep in the background and replaces itself with a long one that never
    // waits for it: when the short one ends it stays a zombie
    const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    children.push(parent);
    const pid = await new Promise<number>((r) => parent.stdout!.once('data', (d: Buffer) => r(Number(String(d).trim()))));
    const start = startTicks(pid);
    for (let i = 0; i < 50 && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8')); i++) await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(`/proc/${pid}/stat`, 'utf8')).toMatch(/\) Z /);
    writeFileSync(lockFile(), JSON.stringify({ pid, start }));
    const release = await lockDataDir(dir, { waitMs: 0 });
    expect(parseHolder(readFileSync(lockFile(), 'utf8'))?.pid).toBe(process.pid);
    release();
  });

  it('takes over a lock of a process that no longer exists, and an unreadable old lock', async () => {
    const child = sleeper();
    const pid = child.pid!;
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    writeFileSync(lockFile(), JSON.stringify({ pid, start: null }));
    const release = await lockDataDir(dir, { waitMs: 0 });
    release();
    writeFileSync(lockFile(), 'garbage');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockFile(), old, old);
    const again = await lockDataDir(dir, { waitMs: 0 });
    again();
  });
});
