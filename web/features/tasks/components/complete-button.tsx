import { useTranslation } from 'react-i18next';
import { Check } from 'lucide-react';
import type { Submission } from '@contract/submissions';
import { Button } from '@web/components/ui/button';
import { canComplete } from '../lib/task-status';
import { useMarkDone } from './use-mark-done';

/**
 * 'Als erledigt markieren' for a task shown outside the task list (the student's home): asks first
 * when nothing was practised and offers 'Rückgängig' afterwards (useMarkDone).
 */
export function CompleteTaskButton({ task, onRestoreFocus }: { task: Submission; onRestoreFocus?: () => void }) {
  const { t } = useTranslation('tasks');
  const { markDone, pendingId } = useMarkDone();
  if (!canComplete(task)) return null;
  const busy = pendingId === task.id;
  const title = task.exercise?.title ?? task.exercise_title;
  return (
    <Button
      size="lg"
      variant="secondary"
      className="w-full sm:w-auto"
      icon={<Check aria-hidden="true" className="size-5" />}
      aria-busy={busy || undefined}
      onClick={() => {
        if (!busy) void markDone(task, onRestoreFocus ? { restoreFocus: onRestoreFocus } : {});
      }}
      data-testid="home-complete"
    >
      {busy ? t('complete.busy') : t('complete.action')}
      <span className="sr-only">: {title}</span>
    </Button>
  );
}
