import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { Submission } from '@contract/submissions';
import { isApiError } from '@web/lib/api';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { useToast } from '@web/components/ui/toast';
import { authStore } from '@web/lib/auth/auth-store';
import { cachedTask, useCompleteSubmission, useReopenSubmission, wasQueued } from '../api/submissions';
import { practisedMinutes } from '../lib/practised';
import { completeErrorKey } from '../lib/task-status';

/** How long the 'Rückgängig' of a task just marked done is offered (the server allows longer: REOPEN_WINDOW_MINUTES). */
export const UNDO_MS = 8000;

export type MarkDoneOptions = {
  /** Start of a session timed on the server that runs on this task now (the task screen knows it). */
  runningSince?: string | null;
  /** Where the keyboard focus goes when the toast closes while it holds the focus, or after an undo. */
  restoreFocus?: () => void;
};

/**
 * Marking a task done, the same from the list, the home and the task screen
 * (docs/decisions/done-means-practised.md): with no minutes practised known on this device it asks
 * first; then it completes (or queues, offline) and offers 'Rückgängig' in a toast for UNDO_MS,
 * which takes the completion back (or removes it from the outbox). Resolves true when the task was
 * marked done. `pendingId`: the task being marked now.
 */
export function useMarkDone() {
  const { t } = useTranslation('tasks');
  const toast = useToast();
  const confirm = useConfirm();
  const queryClient = useQueryClient();
  const complete = useCompleteSubmission();
  const reopen = useReopenSubmission();
  const [pendingId, setPendingId] = useState<number | null>(null);

  const undo = async (done: Submission, before: Submission | undefined, opts: MarkDoneOptions) => {
    try {
      await reopen.mutateAsync({ done, before });
      toast.info(t('complete.undone'));
      opts.restoreFocus?.();
    } catch (err) {
      // 409 (reviewed meanwhile, too late) carries the server's reason in the user's language
      toast.error(isApiError(err, 409) && err.message ? err.message : t('complete.undoError'));
    }
  };

  const markDone = async (task: Submission, opts: MarkDoneOptions = {}): Promise<boolean> => {
    if (pendingId !== null) return false;
    setPendingId(task.id);
    try {
      const minutes = await practisedMinutes(task, authStore.get().user?.id ?? null, { runningSince: opts.runningSince ?? null });
      if (minutes <= 0) {
        const ok = await confirm({
          title: t('complete.confirmTitle'),
          message: t('complete.confirmText'),
          confirmLabel: t('complete.confirmYes'),
          cancelLabel: t('complete.confirmNo'),
          danger: false,
        });
        if (!ok) return false;
      }
      const before = cachedTask(queryClient, task.id) ?? task;
      let done: Submission;
      try {
        done = await complete.mutateAsync(task.id);
      } catch (err) {
        toast.error(t(completeErrorKey(err)));
        return false;
      }
      toast.action(
        'success',
        wasQueued(done) ? t('complete.queued') : t('complete.success'),
        {
          label: t('complete.undo'),
          focus: true,
          onAction: () => void undo(done, before, opts),
          onClose: (hadFocus) => {
            if (hadFocus) opts.restoreFocus?.();
          },
        },
        UNDO_MS,
      );
      return true;
    } finally {
      setPendingId(null);
    }
  };

  return { markDone, pendingId };
}
