import { onlineManager, type QueryClient } from '@tanstack/react-query';
import { api, isApiError } from '@web/lib/api';
import { addSentRecording, uploadRecording } from '@web/features/recordings/api/recordings';
import { outbox as takes } from '@web/features/recordings/lib/outbox';
import { uploads } from '@web/features/recordings/lib/uploads';
import { storageErrorText, storageRefusal } from '@web/lib/storage-errors';
import { writes, type QueuedWrite } from './outbox';
import { onFlushRequested } from './sync-trigger';

/**
 * Sends the outbox when there is a connection (docs/decisions/offline-practice.md): the queued writes in the order they
 * were made; the waiting recordings too when the connection comes back or the student asks
 * ('Jetzt senden'), not on every start or retry (a large upload is not repeated in a loop on a
 * bad line; the task screen offers 'Aufnahme erneut senden' as well). Each write carries its id as Idempotency-Key, so a
 * retry after a lost answer is answered with the first answer. Per answer:
 * - 2xx: the entry goes;
 * - no answer, 5xx, 408, 429 or a 409 with Retry-After (the same key still being handled): it
 *   stays 'waiting' and the run stops; the next run comes with the connection, or after a pause
 *   that doubles with each failed attempt (5 s … 2 min);
 * - 401: the session is over; the entry stays for when this user signs in again;
 * - any other 4xx: 'refused' with the server's reason, shown to the student until discarded; a
 *   recording refused for want of room (413 storage_quota_*, 507 insufficient_storage) likewise,
 *   with the web app's own text saying what to do.
 */
const retryable = (err: unknown) =>
  !isApiError(err) || err.status === 0 || err.status >= 500 || err.status === 408 || err.status === 429 || err.status === 401 || (err.status === 409 && err.retryAfter !== undefined);

const reason = (err: unknown) =>
  storageErrorText(err) ?? (isApiError(err) ? (err.errors ? Object.values(err.errors).flat()[0] : undefined) ?? err.message : String(err));

export type SyncHandle = { stop: () => void; flush: () => Promise<void> };

export function startSync(userId: number, queryClient: QueryClient): SyncHandle {
  let running: Promise<void> | null = null;
  let again = false;
  let againWithTakes = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  let failures = 0;

  const schedule = (ms: number) => {
    if (timer) clearTimeout(timer);
    timer = stopped ? null : setTimeout(() => void flush(), ms);
  };

  async function sendWrite(w: QueuedWrite): Promise<'sent' | 'refused' | 'later'> {
    await writes.update(w.id, { state: 'sending' });
    try {
      await api(w.path, { method: w.method, body: w.body, idempotencyKey: w.id });
      await writes.remove(w.id);
      return 'sent';
    } catch (err) {
      if (retryable(err)) {
        await writes.update(w.id, { state: 'waiting', attempts: w.attempts + 1 });
        return 'later';
      }
      await writes.update(w.id, { state: 'refused', error: reason(err) });
      return 'refused';
    }
  }

  async function run(withTakes: boolean): Promise<void> {
    if (stopped || !onlineManager.isOnline()) return;
    let sent = 0;
    let blocked = false;
    for (const w of await writes.list(userId)) {
      if (w.state === 'refused') continue;
      const result = await sendWrite(w);
      if (result === 'sent') sent++;
      if (result === 'later') {
        blocked = true;
        break;
      }
    }
    if (!blocked && withTakes) {
      for (const take of await takes.list(userId)) {
        if (take.error || uploads.get(take.id)) continue;
        const controller = uploads.begin(take.id);
        try {
          const recording = await uploadRecording(take, (f) => uploads.progress(take.id, f), controller.signal);
          await takes.remove(take.id);
          addSentRecording(queryClient, recording);
          sent++;
        } catch (err) {
          if (err instanceof DOMException && err.name === 'AbortError') continue;
          // No room (413 of a quota, 507 of the server's disk): the take is refused with the text
          // that says what to do, not sent again by itself (docs/decisions/storage-quota.md).
          const refusal = storageRefusal(err);
          if (retryable(err) && !refusal) {
            blocked = true;
            break;
          }
          await takes.put({ ...take, error: reason(err), ...(refusal ? { refusal } : {}) });
        } finally {
          uploads.end(take.id);
        }
      }
    }
    if (sent > 0) void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'media-url' });
    failures = blocked ? failures + 1 : 0;
    if (blocked) schedule(Math.min(120_000, 5000 * 2 ** Math.min(failures - 1, 5)));
  }

  function flush(withTakes = false): Promise<void> {
    if (running) {
      again = true;
      againWithTakes ||= withTakes;
      return running;
    }
    running = run(withTakes)
      .catch((err: unknown) => console.warn('Warteschlange konnte nicht gesendet werden', err))
      .finally(() => {
        running = null;
        if (again && !stopped) {
          const takesToo = againWithTakes;
          again = false;
          againWithTakes = false;
          void flush(takesToo);
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
  const offWrites = writes.subscribe(() => {
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
