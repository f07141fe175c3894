import { useEffect, useState } from 'react';
import { outbox, type PendingTake } from './outbox';

/** The takes of this user (and task) that wait in the outbox; [] where IndexedDB is missing. */
export function usePendingTakes(userId: number | null, submissionId?: number): PendingTake[] {
  const [takes, setTakes] = useState<PendingTake[]>([]);
  useEffect(() => {
    if (userId === null) return;
    let alive = true;
    const load = () =>
      outbox.list(userId, submissionId).then(
        (list) => alive && setTakes(list),
        () => alive && setTakes([]),
      );
    void load();
    const off = outbox.subscribe(() => void load());
    return () => {
      alive = false;
      off();
    };
  }, [userId, submissionId]);
  return takes;
}
