import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';

/** Runs the outbox sender for the signed-in student while the app is open (its code loads after the page). */
export function OutboxSync({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stop: (() => void) | null = null;
    let alive = true;
    void import('../lib/sync').then((m) => {
      if (!alive) return;
      stop = m.startSync(userId, queryClient).stop;
    });
    return () => {
      alive = false;
      stop?.();
    };
  }, [queryClient, userId]);
  return null;
}
