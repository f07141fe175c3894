import { queryClient } from '@web/lib/query-client';
import { onTakeSent } from '@web/lib/sent-takes';

/**
 * When a take reached the server, this device sends the pitch track it computed for the take's
 * summary (docs/decisions/listening.md, "Where it runs"): the recordings feature says "sent"
 * (web/lib/sent-takes.ts), the listening feature sends the track; the app joins them
 * (docs/decisions/feature-boundaries.md). Once per page, whoever calls first.
 */
let registered = false;

export function registerListening(): void {
  if (registered) return;
  registered = true;
  onTakeSent(({ recordingId, blob }) => {
    void import('@web/features/listening/lib/send-track')
      .then((m) => m.sendTrackOfBlob(queryClient, recordingId, blob))
      // not sent now: the next browser that opens the take (this student's or the teacher's) computes it
      .catch((err: unknown) => console.warn('listening: the track of a sent take was not sent', err));
  });
}
