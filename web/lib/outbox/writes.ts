import { api } from '@web/lib/api';
import type { Sender } from './senders';
import { newEntryId, outbox, type EntryState, type NewEntry, type OutboxEntry } from './store';

/**
 * The small writes in the outbox (./store.ts, docs/decisions/offline-practice.md): offline practice sessions and
 * completions, each a request to repeat as it was made (method, path, body) with its id as
 * `Idempotency-Key`, so sending it twice (the answer was lost) never makes a second row.
 */
export type WriteKind = 'practice-session' | 'complete';
export type WriteState = EntryState;

export type QueuedWrite = OutboxEntry & {
  kind: WriteKind;
  method: 'POST' | 'PATCH';
  path: string;
  body?: { started_at: string; ended_at: string };
};

const isWrite = (e: OutboxEntry): e is QueuedWrite => e.kind === 'practice-session' || e.kind === 'complete';

export const newWriteId = newEntryId;

export const writes = {
  add: (write: NewEntry<QueuedWrite>): Promise<QueuedWrite> => outbox.add<QueuedWrite>(write),
  update: (id: string, change: Partial<Pick<QueuedWrite, 'state' | 'attempts' | 'error'>>): Promise<void> => outbox.update(id, change),
  remove: (id: string): Promise<void> => outbox.remove(id),
  /** Every write of this user, oldest first (the order they are sent in). */
  list: (userId: number): Promise<QueuedWrite[]> => outbox.list(userId, isWrite),
  /** Calls back when anything in the outbox was added, changed or removed (in this tab). */
  subscribe: (onChange: () => void): (() => void) => outbox.subscribe(onChange),
};

/** Sends a write: the request as it was made, with its id as Idempotency-Key. */
export const requestSender: Sender<QueuedWrite> = {
  async send(w) {
    await api(w.path, { method: w.method, body: w.body, idempotencyKey: w.id });
  },
};
