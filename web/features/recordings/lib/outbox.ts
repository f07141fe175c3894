import type { RecordingKind } from '@contract/recordings';
import type { StorageRefusal } from '@web/lib/storage-errors';
import { newEntryId, outbox as entries, type OutboxEntry } from '@web/lib/outbox/store';

/**
 * Takes waiting for the server's acknowledgement, in the app's one outbox (web/lib/outbox/store.ts,
 * kind 'take'): written before the upload starts, removed when the server answered 201. A reload,
 * a dropped connection or a closed tab leaves the entry for the next visit.
 */
export type PendingTake = {
  id: string;
  submissionId: number;
  /** The user the take belongs to (a shared device: another student does not see it). */
  userId: number;
  title: string;
  blob: Blob;
  type: string;
  kind: RecordingKind;
  durationMs: number | null;
  message: string;
  createdAt: string;
  /** The practice session the take recorded ('Diesen Durchgang aufnehmen'); the server checks it is of this task. */
  practiceSessionId?: number | null;
  /** The server's reason when it refused the take (4xx); such a take is not sent again by itself. */
  error?: string;
  /** A refusal for want of room (docs/decisions/storage-quota.md): shown in the language of the moment, not of the refusal. */
  refusal?: StorageRefusal;
};

export const TAKE = 'take';

/** A take as the outbox keeps it: the common fields, and the take's own under `take`. */
export type TakeEntry = OutboxEntry & { kind: typeof TAKE; take: Pick<PendingTake, 'blob' | 'type' | 'kind' | 'durationMs' | 'message'> };

const isTake = (e: OutboxEntry): e is TakeEntry => e.kind === TAKE;

export function fromEntry(e: TakeEntry): PendingTake {
  return {
    id: e.id,
    submissionId: e.submissionId,
    userId: e.userId,
    title: e.title,
    createdAt: e.createdAt,
    ...e.take,
    ...(e.error ? { error: e.error } : {}),
    ...(e.refusal ? { refusal: e.refusal } : {}),
  };
}

export const outbox = {
  /** Keeps the take (a new one last in the sending order); without an error it waits to be sent, with one it is refused. */
  async put(take: PendingTake): Promise<void> {
    const { blob, type, kind, durationMs, message, error, refusal, ...common } = take;
    await entries.put<TakeEntry>({
      ...common,
      kind: TAKE,
      state: error ? 'refused' : 'waiting',
      attempts: 0,
      ...(error ? { error } : {}),
      ...(refusal ? { refusal } : {}),
      take: { blob, type, kind, durationMs, message },
    });
  },
  remove: (id: string): Promise<void> => entries.remove(id),
  /** Every waiting take of this user, oldest first (optionally of one task). */
  async list(userId: number, submissionId?: number): Promise<PendingTake[]> {
    const all = await entries.list(userId, isTake);
    return all.filter((e) => submissionId === undefined || e.submissionId === submissionId).map(fromEntry);
  },
  /** Calls back when anything in the outbox was added, changed or removed (in this tab). */
  subscribe: (onChange: () => void): (() => void) => entries.subscribe(onChange),
};

export const newTakeId = newEntryId;
