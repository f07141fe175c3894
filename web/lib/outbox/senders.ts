import type { QueryClient } from '@tanstack/react-query';
import type { StorageRefusal } from '@web/lib/storage-errors';
import type { OutboxEntry } from './store';

/**
 * Who sends which kind of outbox entry. The outbox knows kinds by name only: the app registers a
 * sender for each at start-up (web/app/outbox-senders.ts), so this lib imports no feature
 * (docs/decisions/feature-boundaries.md).
 */
export type SendContext = {
  /** Aborted when the user cancels the upload. */
  signal: AbortSignal;
  /** The upload's progress, 0..1, for the screens. */
  progress: (fraction: number) => void;
  queryClient: QueryClient;
};

export type Sender<E extends OutboxEntry = OutboxEntry> = {
  /**
   * Large entries (recorded takes): sent after the small ones, and only when the connection came
   * back or the user asked ('Jetzt senden'), not on every start or retry: a large upload is not
   * repeated in a loop on a bad line.
   */
  deferred?: boolean;
  /** Resolves once the server acknowledged the entry (2xx); throws its error otherwise. */
  send: (entry: E, context: SendContext) => Promise<void>;
  /** A refusal for want of room this sender's server answers (413, 507): the entry is refused with it, not retried. */
  refusal?: (err: unknown) => StorageRefusal | null;
};

const senders = new Map<string, Sender>();

/** The sender of `kind` from now on; returns the way to take it back. */
export function registerSender<E extends OutboxEntry>(kind: string, sender: Sender<E>): () => void {
  const general = sender as unknown as Sender;
  senders.set(kind, general);
  return () => {
    if (senders.get(kind) === general) senders.delete(kind);
  };
}

export function senderFor(kind: string): Sender | undefined {
  return senders.get(kind);
}
