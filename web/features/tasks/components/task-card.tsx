import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Ban, Check } from 'lucide-react';
import type { Submission } from '@contract/submissions';
import { formatDate } from '@web/lib/format';
import { Button } from '@web/components/ui/button';
import { StatusBadge, displayStatus } from '@web/components/ui/status-badge';
import { cn } from '@web/components/ui/cn';
import { canComplete } from '../lib/task-status';
import { StatusIcon, statusEdge } from './status-icon';

/**
 * One task of the list: the whole card opens /submissions/{id} (through its title link), the
 * 'Als erledigt markieren' button sits above that link.
 */
export function TaskCard({ task, today, busy, onComplete }: { task: Submission; today: string; busy: boolean; onComplete: (id: number) => void }) {
  const { t } = useTranslation('tasks');
  const title = task.exercise?.title ?? task.exercise_title;
  const description = task.exercise?.description;
  return (
    <article
      className={cn(
        'group relative flex flex-col gap-3 rounded-xl border border-l-4 border-slate-200 bg-white p-4 shadow-xs transition-shadow hover:shadow-md sm:flex-row sm:items-center sm:gap-4',
        statusEdge[task.status],
        task.status === 'expired' && 'bg-slate-50',
      )}
      data-testid="task-card"
      data-status={task.status}
    >
      <div className="flex min-w-0 flex-1 gap-3">
        <StatusIcon status={task.status} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h2 className="min-w-0 text-base font-semibold text-slate-900">
              <Link
                to={`/submissions/${task.id}`}
                className="rounded-sm after:absolute after:inset-0 after:rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 group-hover:text-brand-700"
              >
                {title}
              </Link>
            </h2>
            <StatusBadge status={displayStatus(task.status, task.due_date, today)} />
          </div>
          <p className={cn('mt-1 line-clamp-2 text-sm', description ? 'text-slate-600' : 'text-slate-400 italic')}>{description || t('card.noDescription')}</p>
          <dl className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
            <div className="flex gap-1.5">
              <dt className="text-slate-500">{t('card.due')}:</dt>
              <dd className="font-medium text-slate-800 tabular-nums">{formatDate(task.due_date)}</dd>
            </div>
            {task.completed_at && (
              <div className="flex gap-1.5">
                <dt className="text-slate-500">{t('card.completed')}:</dt>
                <dd className="font-medium text-emerald-700 tabular-nums">{formatDate(task.completed_at)}</dd>
              </div>
            )}
            {task.status === 'expired' && task.expiration_date && (
              <div className="flex gap-1.5">
                <dt className="text-slate-500">{t('card.expiredSince')}</dt>
                <dd className="font-medium text-red-700 tabular-nums">{formatDate(task.expiration_date)}</dd>
              </div>
            )}
          </dl>
        </div>
      </div>
      {canComplete(task) ? (
        <Button
          size="lg"
          variant="secondary"
          className="relative z-10 w-full sm:w-auto"
          icon={<Check aria-hidden="true" className="size-5" />}
          loading={busy}
          onClick={() => onComplete(task.id)}
        >
          {busy ? t('complete.busy') : t('complete.action')}
        </Button>
      ) : task.status === 'expired' ? (
        <span className="inline-flex items-center gap-1.5 self-start text-sm font-semibold text-red-700 sm:self-center" data-testid="expired-label">
          <Ban aria-hidden="true" className="size-4" />
          {t('card.expired')}
        </span>
      ) : null}
    </article>
  );
}
