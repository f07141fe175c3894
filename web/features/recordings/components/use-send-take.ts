import '@web/features/recordings/i18n';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { addSentRecording, recordingKeys, uploadRecording } from '../api/recordings';
import { outbox, type PendingTake } from '../lib/outbox';
import { refusalText, storageRefusal } from '@web/lib/storage-errors';
import { uploads } from '@web/lib/outbox/progress';
import { takeSent } from '@web/lib/sent-takes';

/**
 * Sends a take: first into the outbox (IndexedDB), then up with progress; the outbox entry goes
 * only when the server answered 201. Network failures, 5xx and a cancel leave it there, offered
 * as 'Aufnahme erneut senden'.
 */
export function useSendTake() {
  const { t } = useTranslation('recordings');
  const toast = useToast();
  const queryClient = useQueryClient();

  return useCallback(
    async (take: PendingTake): Promise<boolean> => {
      if (uploads.get(take.id)) return false;
      const controller = uploads.begin(take.id);
      // A reason from an earlier attempt goes: this attempt gives its own.
      const { error: _earlier, refusal: _earlierRefusal, ...fresh } = take;
      try {
        await outbox.put(fresh);
      } catch (err) {
        // No IndexedDB (private mode, quota): send anyway, just without the safety net.
        console.warn('Aufnahme konnte nicht lokal gespeichert werden', err);
      }
      try {
        const recording = await uploadRecording(take, (f) => uploads.progress(take.id, f), controller.signal);
        await outbox.remove(take.id).catch(() => undefined);
        // The list shows the take from the server's answer itself (a refetch can be paused or lost).
        addSentRecording(queryClient, recording);
        takeSent({ recordingId: recording.id, blob: take.blob, durationMs: take.durationMs });
        toast.success(t('send.success'));
        void queryClient.invalidateQueries({ queryKey: recordingKeys.all });
        void queryClient.invalidateQueries({ queryKey: ['submissions'] });
        return true;
      } catch (err) {
        const refusal = storageRefusal(err);
        if (err instanceof DOMException && err.name === 'AbortError') toast.info(t('send.cancelled'));
        else if (refusal) {
          // No room (the quotas, the server's disk): said with what to do, kept on the take and not
          // sent again by itself (docs/decisions/storage-quota.md).
          const text = refusalText(refusal, t);
          await outbox.put({ ...fresh, error: text, refusal }).catch(() => undefined);
          toast.error(text, 0);
          void queryClient.invalidateQueries({ queryKey: recordingKeys.storageUsage() });
        } else if (isApiError(err) && err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429 && err.status !== 401)
          toast.error(err.fieldError('file') ?? err.message, 0);
        else toast.error(t('send.error'), 0);
        return false;
      } finally {
        uploads.end(take.id);
      }
    },
    [queryClient, t, toast],
  );
}
