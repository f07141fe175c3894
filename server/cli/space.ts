import type { Db } from '../db/client';
import type { Storage } from '../lib/storage';
import { spacePerTeacher } from '../modules/recordings/recordings.repo';

export const SPACE_USAGE =
  'npm run cli -- space [--json]\n' +
  '  Bytes used per teacher: their students\' recordings and their exercises\' media (from the\n' +
  '  database), and what the media folder (or the S3 bucket) holds in all.';

/** Bytes of every file under a folder of the media store (0 when there is none). */
async function folderBytes(storage: Storage, folder: string): Promise<number> {
  let total = 0;
  for await (const f of storage.list(folder)) total += f.size;
  return total;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v.toFixed(1)} ${units[i]}`;
}

export async function spaceReport(db: Db, storage: Storage) {
  const teachers = (await spacePerTeacher(db)).map((t) => ({ ...t, total_bytes: t.recording_bytes + t.media_bytes }));
  const disk = { recordings: await folderBytes(storage, 'recordings'), exercises: await folderBytes(storage, 'exercises') };
  return { teachers, disk };
}

export async function spaceCommand(o: { db: Db; storage: Storage }, argv: string[], out: (line: string) => void = console.log): Promise<void> {
  const report = await spaceReport(o.db, o.storage);
  if (argv.includes('--json')) {
    out(JSON.stringify(report, null, 2));
    return;
  }
  const rows = report.teachers.map((t) => [t.name, t.email, String(t.recordings), formatBytes(t.recording_bytes), formatBytes(t.media_bytes), formatBytes(t.total_bytes)]);
  const head = ['teacher', 'e-mail', 'recordings', 'recording bytes', 'media bytes', 'total'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i >= 2 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join('  ');
  out(line(head));
  for (const r of rows) out(line(r));
  out(`\nOn disk: recordings ${formatBytes(report.disk.recordings)}, exercise media ${formatBytes(report.disk.exercises)} (${o.storage.where})`);
}
