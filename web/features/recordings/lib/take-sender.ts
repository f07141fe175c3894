import type { Sender } from '@web/lib/outbox/senders';
import { storageRefusal } from '@web/lib/storage-errors';
import { addSentRecording, uploadRecording } from '../api/recordings';
import { takeSent } from '@web/lib/sent-takes';
import { fromEntry, type TakeEntry } from './outbox';

/**
 * How the outbox sends a waiting take (registered by the app: web/app/outbox-senders.ts): an
 * upload with progress, its id as Idempotency-Key, after the small writes and only when the
 * connection came back or the student asked. No room (413 of a quota, 507 of the server's disk):
 * the take is refused with the text that says what to do, not sent again by itself
 * (docs/decisions/storage-quota.md).
 */
export const takeSender: Sender<TakeEntry> = {
  deferred: true,
  refusal: storageRefusal,
  async send(entry, { signal, progress, queryClient }) {
    const take = fromEntry(entry);
    const recording = await uploadRecording(take, progress, signal);
    addSentRecording(queryClient, recording);
    takeSent({ recordingId: recording.id, blob: take.blob, durationMs: take.durationMs });
  },
};
