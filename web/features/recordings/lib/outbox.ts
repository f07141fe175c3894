import type { RecordingKind } from '@contract/recordings';
import type { StorageRefusal } from '@web/lib/storage-errors';

/**
 * Takes waiting for the server's acknowledgement, kept in IndexedDB (database 'uebungskontrolle-
 * recordings', store 'outbox'): written before the upload starts, removed when the server answered
 * 201. A reload, a dropped connection or a closed tab leaves the entry for the next visit.
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
  /** The server's reason when it refused the take (4xx); such a take is not sent again by itself. */
  error?: string;
  /** A refusal for want of room (docs/decisions/storage-quota.md): shown in the language of the moment, not of the refusal. */
  refusal?: StorageRefusal;
};

const DB_NAME = 'uebungskontrolle-recordings';
const STORE = 'outbox';
const CHANGED = 'recordings-outbox-changed';

let opening: Promise<IDBDatabase> | null = null;

function open(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      const store = req.result.createObjectStore(STORE, { keyPath: 'id' });
      store.createIndex('submissionId', 'submissionId');
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => {
      opening = null;
      reject(req.error ?? new Error('IndexedDB open failed'));
    };
  });
  return opening;
}

function run<T>(mode: IDBTransactionMode, body: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> {
  return open().then(
    (db) =>
      new Promise<T>((resolve, reject) => {
        const tx = db.transaction(STORE, mode);
        const req = body(tx.objectStore(STORE));
        tx.oncomplete = () => resolve(req.result);
        tx.onerror = () => reject(tx.error ?? req.error ?? new Error('IndexedDB failed'));
        tx.onabort = () => reject(tx.error ?? new Error('IndexedDB aborted'));
      }),
  );
}

function announce() {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(CHANGED));
}

export const outbox = {
  async put(take: PendingTake): Promise<void> {
    await run('readwrite', (s) => s.put(take));
    announce();
  },
  async remove(id: string): Promise<void> {
    await run('readwrite', (s) => s.delete(id));
    announce();
  },
  /** Every waiting take of this user, oldest first (optionally of one task). */
  async list(userId: number, submissionId?: number): Promise<PendingTake[]> {
    const all = await run<PendingTake[]>('readonly', (s) => (submissionId === undefined ? s.getAll() : s.index('submissionId').getAll(submissionId)));
    return all.filter((t) => t.userId === userId).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  },
  /** Calls back when a take was added or removed (in this tab). */
  subscribe(onChange: () => void): () => void {
    window.addEventListener(CHANGED, onChange);
    return () => window.removeEventListener(CHANGED, onChange);
  },
};

export function newTakeId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}
