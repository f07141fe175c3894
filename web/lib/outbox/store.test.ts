// @vitest-environment jsdom
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { OutboxEntry } from './store';

/**
 * The one outbox (docs/decisions/offline-practice.md) takes over what a device still keeps in the two
 * outboxes before it ('uebungskontrolle-outbox' store 'writes', 'uebungskontrolle-recordings'
 * store 'outbox') on its first open, and deletes them: nothing waiting is lost.
 */
beforeEach(() => {
  // each test: a device of its own, and the module opened anew
  vi.stubGlobal('indexedDB', new IDBFactory());
  vi.resetModules();
});

function seed(name: string, store: string, entries: unknown[], index?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(name, 1);
    req.onupgradeneeded = () => {
      const s = req.result.createObjectStore(store, { keyPath: 'id' });
      if (index) s.createIndex(index, index);
    };
    req.onerror = () => reject(req.error ?? new Error('open failed'));
    req.onsuccess = () => {
      const db = req.result;
      const tx = db.transaction(store, 'readwrite');
      for (const e of entries) tx.objectStore(store).put(e);
      tx.oncomplete = () => {
        db.close();
        resolve();
      };
    };
  });
}

const names = async () => (await indexedDB.databases()).map((d) => d.name).sort();

const oldWrite = {
  id: 'w-1',
  userId: 1,
  kind: 'practice-session',
  submissionId: 7,
  title: 'Tonleiter',
  method: 'POST',
  path: '/api/submissions/7/practice-sessions/offline',
  body: { started_at: '2026-11-23T10:00:00.000Z', ended_at: '2026-11-23T10:05:00.000Z' },
  createdAt: '2026-11-23T10:05:00.000Z',
  seq: Date.parse('2026-11-23T10:05:00.000Z'),
  state: 'waiting',
  attempts: 2,
};
const oldTake = (id: string, createdAt: string, extra: object = {}) => ({
  id,
  submissionId: 7,
  userId: 1,
  title: 'Tonleiter',
  blob: new Blob([new Uint8Array(10)], { type: 'audio/webm' }),
  type: 'audio/webm',
  kind: 'audio',
  durationMs: 1200,
  message: 'Bitte anhören',
  createdAt,
  ...extra,
});

describe('the one outbox and the two before it', { timeout: 20_000 }, () => {
  it('moves the old writes and takes in, in the order they were made, and deletes the old databases', async () => {
    await seed('uebungskontrolle-outbox', 'writes', [oldWrite]);
    await seed(
      'uebungskontrolle-recordings',
      'outbox',
      [
        oldTake('t-2', '2026-11-23T10:07:00.000Z'),
        oldTake('t-1', '2026-11-23T10:06:00.000Z', { error: 'Dein Speicher ist voll.', refusal: { code: 'storage_quota_student', used_bytes: 1, quota_bytes: 1 } }),
        { ...oldTake('t-9', '2026-11-23T10:01:00.000Z'), userId: 2 },
      ],
      'submissionId',
    );
    expect(await names()).toEqual(['uebungskontrolle-outbox', 'uebungskontrolle-recordings']);

    const { outbox } = await import('./store');
    const { writes } = await import('./writes');

    const mine = await outbox.list(1);
    expect(mine.map((e) => `${e.kind} ${e.id} ${e.state}`)).toEqual(['practice-session w-1 waiting', 'take t-1 refused', 'take t-2 waiting']);
    // the write as it was: its key, body, order and attempts
    expect(await writes.list(1)).toEqual([oldWrite]);
    // a take's own fields under `take`, as the recordings feature reads them; the refusal stays
    const [, refused, waiting] = mine as Array<OutboxEntry & { take?: Record<string, unknown> }>;
    expect(refused).toMatchObject({ submissionId: 7, title: 'Tonleiter', error: 'Dein Speicher ist voll.', refusal: { code: 'storage_quota_student' }, take: { kind: 'audio', durationMs: 1200, message: 'Bitte anhören' } });
    expect(waiting).toMatchObject({ createdAt: '2026-11-23T10:07:00.000Z', attempts: 0, take: { type: 'audio/webm', kind: 'audio' } });
    expect(waiting?.error).toBeUndefined();
    expect(waiting?.take?.blob).toBeDefined();
    // another student's take on the same device moved too, and stays theirs
    expect((await outbox.list(2)).map((e) => e.id)).toEqual(['t-9']);

    await vi.waitFor(async () => expect(await names()).toEqual(['uebungskontrolle-queue']));
  });

  it('creates no old database where there was none, and a new entry goes after the moved ones', async () => {
    await seed('uebungskontrolle-outbox', 'writes', [oldWrite]);
    const { outbox } = await import('./store');
    const added = await outbox.add({ userId: 1, kind: 'complete', submissionId: 7, title: 'Tonleiter' });
    expect((await outbox.list(1)).map((e) => e.id)).toEqual(['w-1', added.id]);
    expect(added).toMatchObject({ state: 'waiting', attempts: 0 });
    await vi.waitFor(async () => expect(await names()).toEqual(['uebungskontrolle-queue']));
  });

  it('an entry already moved keeps its state when an old database is found again (a move cut short)', async () => {
    const { outbox } = await import('./store');
    await outbox.add({ ...oldWrite, id: 'w-1', state: 'refused', error: 'abgelehnt' });
    // an old tab of an older version wrote the same entry into its outbox meanwhile
    await seed('uebungskontrolle-outbox', 'writes', [oldWrite]);
    vi.resetModules();
    const fresh = await import('./store');
    expect(await fresh.outbox.list(1)).toEqual([expect.objectContaining({ id: 'w-1', state: 'refused', error: 'abgelehnt' })]);
    await vi.waitFor(async () => expect(await names()).toEqual(['uebungskontrolle-queue']));
  });
});
