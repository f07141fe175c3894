/**
 * "A take reached the server": the recordings feature says so (its sender and the outbox's), the app
 * wires who listens (web/app/listening-wiring.ts: the listening analysis sends the take's pitch track,
 * docs/decisions/listening.md). A lib that knows no feature (docs/decisions/feature-boundaries.md).
 */
export type SentTake = { recordingId: number; blob: Blob; durationMs: number | null };

const listeners = new Set<(take: SentTake) => void>();

/** Listens to every sent take; returns the function that stops it. */
export function onTakeSent(listener: (take: SentTake) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners; a failing listener does not stop the others (nor the sender). */
export function takeSent(take: SentTake): void {
  for (const l of listeners) {
    try {
      l(take);
    } catch (err) {
      console.warn('sent-take listener failed', err);
    }
  }
}
