import { Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Submission } from '@contract/submissions';
import { Button } from '@web/components/ui/button';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { useToast } from '@web/components/ui/toast';
import { formatDate } from '@web/lib/format';
import { useDeleteSubmission } from '../api/submissions';

/**
 * The teacher's way to undo a wrong plan: delete this task, or every not yet completed task of its
 * series from its date on (DELETE /api/submissions/{id}?scope=series), after a confirmation.
 */
export function TeacherTaskActions({ task }: { task: Submission }) {
  const { t } = useTranslation('tasks');
  const confirm = useConfirm();
  const toast = useToast();
  const navigate = useNavigate();
  const remove = useDeleteSubmission();
  const date = formatDate(task.due_date);

  const run = async (scope: 'one' | 'series') => {
    const ok = await confirm({
      title: t('remove.title'),
      message: scope === 'one' ? t('remove.confirmOne') : t('remove.confirmSeries', { date }),
      confirmLabel: scope === 'one' ? t('remove.one') : t('remove.series'),
    });
    if (!ok) return;
    try {
      await remove.mutateAsync({ id: task.id, scope });
      toast.success(scope === 'one' ? t('remove.successOne') : t('remove.successSeries', { date }));
      void navigate(`/students/${task.student.id}`);
    } catch {
      toast.error(t('remove.error'));
    }
  };

  return (
    <Card>
      <CardHeader title={t('remove.title')} />
      <CardBody className="space-y-3">
        <p className="text-sm text-slate-600">{t('remove.text')}</p>
        <div className="flex flex-col gap-2">
          <Button variant="secondary" className="text-red-700 hover:bg-red-50 hover:text-red-800" onClick={() => void run('one')} disabled={remove.isPending}>
            <Trash2 aria-hidden className="size-4" />
            {t('remove.one')}
          </Button>
          <Button
            variant="secondary"
            className="text-red-700 ring-red-300 hover:bg-red-50 hover:text-red-800"
            onClick={() => void run('series')}
            disabled={remove.isPending}
          >
            <Trash2 aria-hidden className="size-4" />
            {t('remove.series')}
          </Button>
        </div>
      </CardBody>
    </Card>
  );
}
