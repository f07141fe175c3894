import type { RecordingKind } from '@contract/recordings';
import type { StorageRefusal } from '@web/lib/storage-errors';

/**
 * The one outbox of everything made on the device that waits for the server (docs/decisions/offline-practice.md):
 * practice sessions, completions, recorded takes, and whatever kind comes next. One IndexedDB
 * database ('uebungskontrolle-queue', store 'entries'); each entry has a `kind`, which names the
 * sender that the app registered for it (./senders.ts), and the fields its kind needs beside the
 * common ones below. An entry's id is its `Idempotency-Key`; it leaves when the server
 * acknowledged it, or when the user discards one the server refused (shown with its reason).
 */
export type EntryState = 'waiting' | 'sending' | 'refused';

export type OutboxEntry = {
  /** Also the entry's Idempotency-Key. */
  id: string;
  /** The user the entry belongs to: on a shared device another user neither sees nor sends it. */
  userId: number;
  kind: string;
  submissionId: number;
  /** The task's title, for the lists. */
  title: string;
  createdAt: string;
  /** The sending order: increasing, also for two entries in the same millisecond. */
  seq: number;
  state: EntryState;
  /** Failed attempts so far (no connection, 5xx): the next waits longer. */
  attempts: number;
  /** The server's reason, when it refused the entry (4xx). */
  error?: string;
  /** A refusal for want of room (docs/decisions/storage-quota.md): shown in the language of the moment, not of the refusal. */
  refusal?: StorageRefusal;
};

/** What a caller gives for a new entry: the outbox adds the order, the time and the state. */
export type NewEntry<E extends OutboxEntry> = Omit<E, 'id' | 'createdAt' | 'seq' | 'state' | 'attempts'> & Partial<Pick<E, 'id' | 'createdAt' | 'state' | 'attempts'>>;

const DB_NAME = 'uebungskontrolle-queue';
const STORE = 'entries';
const CHANGED = 'outbox-changed';

let opening: Promise<IDBDatabase> | null = null;
let lastSeq = 0;

function nextSeq(): number {
  lastSeq = Math.max(Date.now(), lastSeq + 1);
  return lastSeq;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB failed'));
  });
}

function openDatabase(): Promise<IDBDatabase> {
  return new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => {
      req.result.createObjectStore(STORE, { keyPath: 'id' });
    };
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('IndexedDB open failed'));
  });
}

/**
 * The two outboxes before this one: the writes ('uebungskontrolle-outbox', store 'writes', entries
 * already of this shape) and the takes ('uebungskontrolle-recordings', store 'outbox', a take's own
 * fields at the top, its recording kind as `kind`). On a device that still has them, their entries
 * move here on the first open, then the old databases go; nothing waiting is lost.
 */
type LegacyTake = {
  id: string;
  submissionId: number;
  userId: number;
  title: string;
  blob: Blob;
  type: string;
  kind: RecordingKind;
  durationMs: number | null;
  message: string;
  createdAt: string;
  error?: string;
  refusal?: StorageRefusal;
};

const LEGACY: Array<{ db: string; store: string; convert: (old: unknown, index: number) => OutboxEntry }> = [
  { db: 'uebungskontrolle-outbox', store: 'writes', convert: (old) => old as OutboxEntry },
  {
    db: 'uebungskontrolle-recordings',
    store: 'outbox',
    convert: (old, index) => {
      const { blob, type, kind, durationMs, message, error, refusal, ...common } = old as LegacyTake;
      const made = Date.parse(common.createdAt);
      return {
        ...common,
        kind: 'take',
        // after the writes of the same moment, in the order they were taken
        seq: (Number.isNaN(made) ? Date.now() : made) + index / 1000,
        state: error ? 'refused' : 'waiting',
        attempts: 0,
        ...(error ? { error } : {}),
        ...(refusal ? { refusal } : {}),
        take: { blob, type, kind, durationMs, message },
      };
    },
  },
];

/** The entries of an old database, or null where it does not exist (opening it does not create it). */
function readLegacy(name: string, store: string): Promise<unknown[] | null> {
  return new Promise((resolve) => {
    const req = indexedDB.open(name);
    req.onupgradeneeded = (e) => {
      // version 0: there was no such database; abort, which also removes what the open began
      if (e.oldVersion === 0) req.transaction?.abort();
    };
    req.onerror = (e) => {
      e.preventDefault();
      resolve(null);
    };
    req.onsuccess = () => {
      const db = req.result;
      if (!db.objectStoreNames.contains(store)) {
        db.close();
        resolve([]);
        return;
      }
      request(db.transaction(store, 'readonly').objectStore(store).getAll()).then(
        (all) => {
          db.close();
          resolve(all);
        },
        () => {
          db.close();
          resolve(null);
        },
      );
    };
  });
}

function deleteDatabase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const req = indexedDB.deleteDatabase(name);
    req.onsuccess = () => resolve();
    req.onerror = () => resolve();
    // an old tab still holds it: it goes when that tab closes; the entries are here already
    req.onblocked = () => resolve();
  });
}

async function migrateLegacy(db: IDBDatabase): Promise<void> {
  for (const legacy of LEGACY) {
    const old = await readLegacy(legacy.db, legacy.store);
    if (old === null) continue;
    if (old.length) {
      const entries = old.map(legacy.convert);
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction(STORE, 'readwrite');
        const s = tx.objectStore(STORE);
        // an entry already here (a migration cut short) keeps its state
        for (const entry of entries) {
          const there = s.get(entry.id);
          there.onsuccess = () => {
            if (there.result === undefined) s.put(entry);
          };
        }
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error ?? new Error('IndexedDB failed'));
        tx.onabort = () => reject(tx.error ?? new Error('IndexedDB aborted'));
      });
    }
    await deleteDatabase(legacy.db);
  }
}

function open(): Promise<IDBDatabase> {
  if (typeof indexedDB === 'undefined') return Promise.reject(new Error('IndexedDB is not available'));
  opening ??= openDatabase().then(
    async (db) => {
      try {
        await migrateLegacy(db);
      } catch (err) {
        // the old databases stay for the next try; this outbox works meanwhile
        console.warn('Alte Warteschlange konnte nicht übernommen werden', err);
      }
      return db;
    },
    (err: unknown) => {
      opening = null;
      throw err;
    },
  );
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

export function newEntryId(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

export const outbox = {
  /** A new entry, last in the sending order. */
  async add<E extends OutboxEntry>(entry: NewEntry<E>): Promise<E> {
    const full = { state: 'waiting', attempts: 0, createdAt: new Date().toISOString(), ...entry, id: entry.id ?? newEntryId(), seq: nextSeq() } as E;
    await run('readwrite', (s) => s.put(full));
    announce();
    return full;
  },
  /** Writes an entry as given; one that is already there keeps its place in the order. */
  async put<E extends OutboxEntry>(entry: Omit<E, 'seq'> & { seq?: number }): Promise<void> {
    const current = await outbox.get(entry.id);
    await run('readwrite', (s) => s.put({ ...entry, seq: current?.seq ?? entry.seq ?? nextSeq() }));
    announce();
  },
  async update(id: string, change: Partial<Pick<OutboxEntry, 'state' | 'attempts' | 'error' | 'refusal'>>): Promise<void> {
    const current = await outbox.get(id);
    if (!current) return;
    await run('readwrite', (s) => s.put({ ...current, ...change }));
    announce();
  },
  async get<E extends OutboxEntry = OutboxEntry>(id: string): Promise<E | undefined> {
    return run<E | undefined>('readonly', (s) => s.get(id) as IDBRequest<E | undefined>);
  },
  async remove(id: string): Promise<void> {
    await run('readwrite', (s) => s.delete(id));
    announce();
  },
  /** Every entry of this user (of the kinds `only` accepts), in the sending order. */
  async list<E extends OutboxEntry = OutboxEntry>(userId: number, only?: (entry: OutboxEntry) => entry is E): Promise<E[]> {
    const all = await run<OutboxEntry[]>('readonly', (s) => s.getAll() as IDBRequest<OutboxEntry[]>);
    return all.filter((e): e is E => e.userId === userId && (only ? only(e) : true)).sort((a, b) => a.seq - b.seq);
  },
  /** Calls back when an entry was added, changed or removed (in this tab). */
  subscribe(onChange: () => void): () => void {
    window.addEventListener(CHANGED, onChange);
    return () => window.removeEventListener(CHANGED, onChange);
  },
};
