import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { isApiError } from '@web/lib/api';
import { storageErrorText } from '@web/lib/storage-errors';
import { uploads } from './progress';
import { senderFor, type Sender } from './senders';
import { outbox, type OutboxEntry } from './store';
import { onFlushRequested } from './sync-trigger';

/**
 * Sends the outbox when there is a connection (docs/decisions/offline-practice.md), each entry by the sender registered
 * for its kind (./senders.ts): the small writes in the order they were made; the deferred ones
 * (recordings) after them, and only when the connection comes back or the student asks
 * ('Jetzt senden'), not on every start or retry (a large upload is not repeated in a loop on a
 * bad line; the task screen offers 'Aufnahme erneut senden' as well). Each entry carries its id as Idempotency-Key, so a
 * retry after a lost answer is answered with the first answer. An entry of a kind nobody
 * registered waits. Per answer:
 * - 2xx: the entry goes;
 * - no answer, 5xx, 408, 429 or a 409 with Retry-After (the same key still being handled): it
 *   stays 'waiting' and the run stops; the next run comes with the connection, or after a pause
 *   that doubles with each failed attempt (5 s … 2 min);
 * - 401: the session is over; the entry stays for when this user signs in again;
 * - any other 4xx: 'refused' with the server's reason, shown to the student until discarded; a
 *   recording refused for want of room (413 storage_quota_*, 507 insufficient_storage; the sender
 *   names such refusals) likewise, with the web app's own text saying what to do;
 * - a deferred upload the student cancelled: it waits for the next run.
 */
const retryable = (err: unknown) =>
  !isApiError(err) || err.status === 0 || err.status >= 500 || err.status === 408 || err.status === 429 || err.status === 401 || (err.status === 409 && err.retryAfter !== undefined);

const reason = (err: unknown) =>
  storageErrorText(err) ?? (isApiError(err) ? (err.errors ? Object.values(err.errors).flat()[0] : undefined) ?? err.message : String(err));

export type SyncHandle = { stop: () => void; flush: () => Promise<void> };

export function startSync(userId: number, queryClient: QueryClient): SyncHandle {
  let running: Promise<void> | null = null;
  let again = false;
  let againWithDeferred = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let failures = 0;

  const schedule = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = stopped ? null : setTimeout(() => void flush(), ms);
  };

  /** Sends one entry: 'later' when it stays waiting and nothing after it should go now. */
  async function send(entry: OutboxEntry, sender: Sender): Promise<'sent' | 'refused' | 'later' | 'cancelled'> {
    const controller = sender.deferred ? uploads.begin(entry.id) : new AbortController();
    // an upload shows its progress instead (./progress.ts): a tab closed mid-upload leaves no 'sending' behind
    if (!sender.deferred) await outbox.update(entry.id, { state: 'sending' });
    try {
      await sender.send(entry, { signal: controller.signal, progress: (f) => uploads.progress(entry.id, f), queryClient });
      await outbox.remove(entry.id);
      return 'sent';
    } catch (err) {
      if (err instanceof DOMException && err.name === 'AbortError') return 'cancelled';
      const refusal = sender.refusal?.(err) ?? null;
      if (retryable(err) && !refusal) {
        await outbox.update(entry.id, { state: 'waiting', attempts: entry.attempts + 1 });
        return 'later';
      }
      await outbox.update(entry.id, { state: 'refused', error: reason(err), ...(refusal ? { refusal } : {}) });
      return 'refused';
    } finally {
      if (sender.deferred) uploads.end(entry.id);
    }
  }

  async function run(withDeferred: boolean): Promise<void> {
    if (stopped || !onlineManager.isOnline()) return;
    let sent = 0;
    let blocked = false;
    // the small writes first, in order; the large ones after them, when asked for
    for (const deferred of withDeferred ? [false, true] : [false]) {
      for (const entry of await outbox.list(userId)) {
        if (entry.state === 'refused') continue;
        const sender = senderFor(entry.kind);
        if (!sender || Boolean(sender.deferred) !== deferred) continue;
        // an upload the task screen started itself is under way
        if (deferred && uploads.get(entry.id)) continue;
        const result = await send(entry, sender);
        if (result === 'sent') sent++;
        if (result === 'later') {
          blocked = true;
          break;
        }
      }
      if (blocked) break;
    }
    if (sent > 0) void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'media-url' });
    failures = blocked ? failures + 1 : 0;
    if (blocked) schedule(Math.min(120_000, 5000 * 2 ** Math.min(failures - 1, 5)));
  }

  function flush(withDeferred = false): Promise<void> {
    if (running) {
      again = true;
      againWithDeferred ||= withDeferred;
      return running;
    }
    running = run(withDeferred)
      .catch((err: unknown) => console.warn('Warteschlange konnte nicht gesendet werden', err))
      .finally(() => {
        running = null;
        if (again && !stopped) {
          const deferredToo = againWithDeferred;
          again = false;
          againWithDeferred = false;
          void flush(deferredToo);
        }
      });
    return running;
  }

  const onOnline = () => {
    failures = 0;
    void flush(true);
  };
  // Back online. The probe of web/lib/connectivity.ts found the server: the small writes go. The
  // browser's own 'online' event (a network is back): the recordings too.
  const offOnline = onlineManager.subscribe((online) => {
    if (online) {
      failures = 0;
      void flush();
    }
  });
  window.addEventListener('online', onOnline);
  // a new entry (a session stopped, a task done, a take recorded): send it now if we can
  const offWrites = outbox.subscribe(() => {
    if (!running) void flush();
  });
  const offRequests = onFlushRequested(() => {
    failures = 0;
    void flush(true);
  });
  void flush();

  return {
    flush,
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      offOnline();
      window.removeEventListener('online', onOnline);
      offWrites();
      offRequests();
    },
  };
}
