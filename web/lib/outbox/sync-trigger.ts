/** Asks the running outbox sender (sync.ts, loaded lazily) to send now. */
const EVENT = 'outbox-flush-requested';

export function requestFlush(): void {
  window.dispatchEvent(new Event(EVENT));
}

export function onFlushRequested(cb: () => void): () => void {
  window.addEventListener(EVENT, cb);
  return () => window.removeEventListener(EVENT, cb);
}
