import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';

/**
 * Runs the outbox sender for the signed-in student while the app is open, with the senders the
 * app composes for each kind (web/app/outbox-senders.ts); its code loads after the page.
 */
export function OutboxSync({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  useEffect(() => {
    let stop: (() => void) | null = null;
    let alive = true;
    void Promise.all([import('@web/lib/outbox/sync'), import('../outbox-senders')]).then(([sync, senders]) => {
      if (!alive) return;
      senders.registerOutboxSenders();
      stop = sync.startSync(userId, queryClient).stop;
    });
    return () => {
      alive = false;
      stop?.();
    };
  }, [queryClient, userId]);
  return null;
}
