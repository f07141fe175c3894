import { useEffect, useState } from 'react';
import { writes, type QueuedWrite } from './outbox';

/** The user's queued writes, oldest first; [] where IndexedDB is missing. */
export function useQueuedWrites(userId: number | null): QueuedWrite[] {
  const [list, setList] = useState<QueuedWrite[]>([]);
  useEffect(() => {
    if (userId === null) return;
    let alive = true;
    const load = () =>
      writes.list(userId).then(
        (l) => alive && setList(l),
        () => alive && setList([]),
      );
    void load();
    const off = writes.subscribe(() => void load());
    return () => {
      alive = false;
      off();
    };
  }, [userId]);
  return list;
}
