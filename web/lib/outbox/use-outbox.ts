import { useEffect, useState } from 'react';
import { outbox, type OutboxEntry } from './store';
import { writes, type QueuedWrite } from './writes';

/** Keeps `load(userId)` current: again whenever the outbox changes; [] where IndexedDB is missing. */
function useOutboxList<T>(userId: number | null, load: (userId: number) => Promise<T[]>): T[] {
  const [list, setList] = useState<T[]>([]);
  useEffect(() => {
    if (userId === null) return;
    let alive = true;
    const reload = () =>
      load(userId).then(
        (l) => alive && setList(l),
        () => alive && setList([]),
      );
    void reload();
    const off = outbox.subscribe(() => void reload());
    return () => {
      alive = false;
      off();
    };
  }, [userId, load]);
  return list;
}

const listAll = (userId: number) => outbox.list(userId);

/** Every entry of the user (all kinds), in the sending order. */
export function useOutbox(userId: number | null): OutboxEntry[] {
  return useOutboxList(userId, listAll);
}

/** The user's queued writes, oldest first; [] where IndexedDB is missing. */
export function useQueuedWrites(userId: number | null): QueuedWrite[] {
  return useOutboxList(userId, writes.list);
}
