import { useMemo, useSyncExternalStore } from 'react';
import type { PracticeSession } from '@contract/practice';
import { readStorage, writeStorage } from '@web/lib/storage';
import { writes, type QueuedWrite } from '@web/lib/outbox/writes';

/**
 * A practice session timed on the device (docs/decisions/offline-practice.md): started without a connection, kept in
 * localStorage so a reload, a sleeping phone or a closed tab does not lose it, and queued in the
 * outbox as POST /api/submissions/{id}/practice-sessions/offline when it stops. One per user at a
 * time (the server refuses overlapping sessions anyway).
 */
export type LocalSession = { userId: number; submissionId: number; title: string; startedAt: string };

/** The server's cap of one session; a device-timed one is cut there too. */
export const SESSION_CAP_MS = 180 * 60 * 1000;
const CHANGED = 'offline-session-changed';
const key = (userId: number) => `offline-session:${userId}`;

function parse(raw: string | null): LocalSession | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Partial<LocalSession>;
    return typeof v.userId === 'number' && typeof v.submissionId === 'number' && typeof v.startedAt === 'string' && !Number.isNaN(Date.parse(v.startedAt))
      ? { userId: v.userId, submissionId: v.submissionId, title: String(v.title ?? ''), startedAt: v.startedAt }
      : null;
  } catch {
    return null;
  }
}

function announce() {
  window.dispatchEvent(new Event(CHANGED));
}

export const localSessions = {
  get(userId: number): LocalSession | null {
    return parse(readStorage(key(userId)));
  },
  start(userId: number, submissionId: number, title: string, now = new Date()): LocalSession {
    const s: LocalSession = { userId, submissionId, title, startedAt: now.toISOString() };
    writeStorage(key(userId), JSON.stringify(s));
    announce();
    return s;
  },
  /**
   * Stops the user's device-timed session: it goes into the outbox with the device's times (cut at
   * 180 minutes) and leaves localStorage only once it is queued. Returns the queued write.
   */
  async finish(userId: number, now = new Date()): Promise<QueuedWrite | null> {
    const s = this.get(userId);
    if (!s) return null;
    const start = Date.parse(s.startedAt);
    const end = Math.max(start + 1000, Math.min(now.getTime(), start + SESSION_CAP_MS));
    const write = await writes.add({
      userId,
      kind: 'practice-session',
      submissionId: s.submissionId,
      title: s.title,
      method: 'POST',
      path: `/api/submissions/${s.submissionId}/practice-sessions/offline`,
      body: { started_at: s.startedAt, ended_at: new Date(end).toISOString() },
    });
    writeStorage(key(userId), null);
    announce();
    return write;
  },
  subscribe(onChange: () => void): () => void {
    const onStorage = (e: StorageEvent) => {
      if (e.key === null || e.key.startsWith('offline-session:')) onChange();
    };
    window.addEventListener(CHANGED, onChange);
    window.addEventListener('storage', onStorage);
    return () => {
      window.removeEventListener(CHANGED, onChange);
      window.removeEventListener('storage', onStorage);
    };
  },
};

/** The user's device-timed session (any task), re-rendering when it starts or stops. */
export function useLocalSession(userId: number | null): LocalSession | null {
  const raw = useSyncExternalStore(
    localSessions.subscribe,
    () => (userId === null ? null : readStorage(key(userId))),
    () => null,
  );
  return useMemo(() => parse(raw), [raw]);
}

/** A running device-timed session in the shape the timer shows (negative id: not on the server). */
export function asRunningSession(s: LocalSession): PracticeSession {
  return { id: -1, submission_id: s.submissionId, started_at: s.startedAt, ended_at: null, duration_minutes: null, tempo_bpm: null, recorded_offline: true };
}

/** A queued offline session in the shape of a finished one (for today's total and the list). */
export function asQueuedSession(w: QueuedWrite): PracticeSession | null {
  if (w.kind !== 'practice-session' || !w.body) return null;
  const ms = Date.parse(w.body.ended_at) - Date.parse(w.body.started_at);
  return {
    id: -w.seq,
    submission_id: w.submissionId,
    started_at: w.body.started_at,
    ended_at: w.body.ended_at,
    duration_minutes: Math.round((ms / 60_000) * 100) / 100,
    tempo_bpm: null,
    recorded_offline: true,
  };
}
