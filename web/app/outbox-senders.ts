import { registerSender } from '@web/lib/outbox/senders';
import { requestSender } from '@web/lib/outbox/writes';
import { TAKE } from '@web/features/recordings/lib/outbox';
import { takeSender } from '@web/features/recordings/lib/take-sender';
import { registerListening } from './listening-wiring';

/**
 * Who sends which kind of outbox entry (docs/decisions/offline-practice.md): the app composes the
 * senders of the features into the one outbox (web/lib/outbox), which imports no feature
 * (docs/decisions/feature-boundaries.md). A new kind (a message written offline, …) gets its
 * sender here.
 */
export function registerOutboxSenders(): void {
  registerSender('practice-session', requestSender);
  registerSender('complete', requestSender);
  registerSender(TAKE, takeSender);
  // a take the outbox sent sends its pitch track after it (docs/decisions/listening.md)
  registerListening();
}
