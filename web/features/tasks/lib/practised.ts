import type { Submission } from '@contract/submissions';
import { writes } from '@web/lib/outbox/writes';
import { asQueuedSession, localSessions } from '@web/lib/offline-session';

/**
 * The minutes practised on a task as this device knows them (docs/decisions/done-means-practised.md):
 * the server's `time_spent_minutes`, a session timed on the server that runs now (`runningSince`),
 * the device-timed session running on it, and the practice sessions waiting in the outbox.
 * Marking the task done asks first when this is 0.
 */
export async function practisedMinutes(
  task: Pick<Submission, 'id' | 'time_spent_minutes'>,
  userId: number | null,
  opts: { runningSince?: string | null; now?: number } = {},
): Promise<number> {
  const now = opts.now ?? Date.now();
  const since = (iso: string) => Math.max(0, now - Date.parse(iso)) / 60_000;
  let minutes = task.time_spent_minutes;
  if (opts.runningSince) minutes += since(opts.runningSince);
  if (userId === null) return minutes;
  const running = localSessions.get(userId);
  if (running?.submissionId === task.id) minutes += since(running.startedAt);
  try {
    for (const w of await writes.list(userId)) {
      const s = asQueuedSession(w);
      if (s && s.submission_id === task.id) minutes += s.duration_minutes ?? 0;
    }
  } catch {
    // no IndexedDB on this device: nothing can be queued either
  }
  return minutes;
}
