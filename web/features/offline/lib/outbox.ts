/**
 * The outbox of writes made without a connection (docs/decisions/offline-practice.md): offline practice sessions and
 * completions, kept in IndexedDB (database 'uebungskontrolle-outbox', store 'writes') until the
 * server acknowledged them. Each entry's id is its `Idempotency-Key`, so sending it twice (the
 * answer was lost) never makes a second row. Nothing leaves silently: an entry goes when the
 * server said 2xx, or when the student discards one the server refused (shown with its reason).
 * Recordings wait in their own store (features/recordings/lib/outbox.ts); the indicator shows both.
 */
export type WriteKind = 'practice-session' | 'complete';
export type WriteState = 'waiting' | 'sending' | 'refused';

export type QueuedWrite = {
  /** Also the write's Idempotency-Key. */
  id: string;
  /** The user the write belongs to: on a shared device another student neither sees nor sends it. */
  userId: number;
  kind: WriteKind;
  submissionId: number;
  /** The task's title, for the list. */
  title: string;
  method: 'POST' | 'PATCH';
  path: string;
  body?: { started_at: string; ended_at: string };
  createdAt: string;
  /** The sending order: increasing, also for two writes in the same millisecond. */
  seq: number;
  state: WriteState;
  /** Failed attempts so far (no connection, 5xx): the next waits longer. */
  attempts: number;
  /** The server's reason, when it refused the write (4xx). */
  error?: string;
};

const DB_NAME = 'uebungskontrolle-outbox';
const STORE = 'writes';
const CHANGED = 'outbox-changed';

let opening: Promise<IDBDatabase> | null = null;
let lastSeq = 0;

function open(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  opening ??= new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore(STORE, { keyPath: 'id' });
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

export function newWriteId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export const writes = {
  async add(write: Omit<QueuedWrite, 'id' | 'createdAt' | 'seq' | 'state' | 'attempts'> & { id?: string }): Promise<QueuedWrite> {
    lastSeq = Math.max(Date.now(), lastSeq + 1);
    const entry: QueuedWrite = { ...write, id: write.id ?? newWriteId(), createdAt: new Date().toISOString(), seq: lastSeq, state: 'waiting', attempts: 0 };
    await run('readwrite', (s) => s.put(entry));
    announce();
    return entry;
  },
  async update(id: string, change: Partial<Pick<QueuedWrite, 'state' | 'attempts' | 'error'>>): Promise<void> {
    const current = await run<QueuedWrite | undefined>('readonly', (s) => s.get(id) as IDBRequest<QueuedWrite | undefined>);
    if (!current) return;
    await run('readwrite', (s) => s.put({ ...current, ...change }));
    announce();
  },
  async remove(id: string): Promise<void> {
    await run('readwrite', (s) => s.delete(id));
    announce();
  },
  /** Every write of this user, oldest first (the order they are sent in). */
  async list(userId: number): Promise<QueuedWrite[]> {
    const all = await run<QueuedWrite[]>('readonly', (s) => s.getAll() as IDBRequest<QueuedWrite[]>);
    return all.filter((w) => w.userId === userId).sort((a, b) => a.seq - b.seq);
  },
  /** Calls back when a write was added, changed or removed (in this tab). */
  subscribe(onChange: () => void): () => void {
    window.addEventListener(CHANGED, onChange);
    return () => window.removeEventListener(CHANGED, onChange);
  },
};
