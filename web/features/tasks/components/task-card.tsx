import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Check } from 'lucide-react';
import type { Submission } from '@contract/submissions';
import { formatDate } from '@web/lib/format';
import { Button } from '@web/components/ui/button';
import { StatusBadge, displayStatus } from '@web/components/ui/status-badge';
import { Badge } from '@web/components/ui/badge';
import { cn } from '@web/components/ui/cn';
import { canComplete } from '../lib/task-status';

/**
 * One task of the list: the whole card opens /submissions/{id} (through its title link); the
 * status badge (its explanation on hover or tap) and 'Als erledigt markieren' sit above that
 * link. The status colour shows once, on the badge (SPEC.md's status icon is part of it).
 * Memoised: a list drawn again (the stored answers restored, a refetch with the same tasks) does not
 * draw its unchanged cards again; `onComplete` must therefore be stable.
 */
export const TaskCard = memo(function TaskCard({ task, today, busy, onComplete }: { task: Submission; today: string; busy: boolean; onComplete: (id: number) => void }) {
  const { t } = useTranslation('tasks');
  const title = task.exercise?.title ?? task.exercise_title;
  const description = task.exercise?.description;
  const muted = task.status === 'expired' || task.status === 'completed';
  return (
    <article
      className={cn(
        'group relative flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-xs transition-shadow hover:shadow-md sm:flex-row sm:items-center sm:gap-4',
        muted && 'bg-slate-50/70',
      )}
      data-testid="task-card"
      data-status={task.status}
    >
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <h3 className="min-w-0 text-base font-semibold text-slate-900">
            <Link
              to={`/submissions/${task.id}`}
              className="inline-block rounded-sm py-2.5 after:absolute after:inset-0 after:rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 group-hover:text-brand-700 sm:py-0"
            >
              {title}
            </Link>
          </h3>
          <StatusBadge status={displayStatus(task.status, task.due_date, today)} explain />
          {task.new_feedback && (
            <span className="relative z-10" data-testid="new-feedback-badge">
              <Badge tone="violet">{t('card.newFeedback')}</Badge>
            </span>
          )}
        </div>
        <p className={cn('mt-1 line-clamp-2 text-sm wrap-anywhere', description ? 'text-slate-600' : 'text-slate-500 italic')}>{description || t('card.noDescription')}</p>
        <dl className="mt-2 flex flex-wrap gap-x-5 gap-y-1 text-sm">
          <div className="flex gap-1.5">
            <dt className="text-slate-500">{t('card.due')}:</dt>
            <dd className="font-medium text-slate-800 tabular-nums">{formatDate(task.due_date)}</dd>
          </div>
          {task.completed_at && (
            <div className="flex gap-1.5">
              <dt className="text-slate-500">{t('card.completed')}:</dt>
              <dd className="font-medium text-slate-800 tabular-nums">{formatDate(task.completed_at)}</dd>
            </div>
          )}
          {task.status === 'expired' && task.expiration_date && (
            <div className="flex gap-1.5">
              <dt className="text-slate-500">{t('card.expiredSince')}</dt>
              <dd className="font-medium text-slate-800 tabular-nums">{formatDate(task.expiration_date)}</dd>
            </div>
          )}
        </dl>
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
        // SPEC.md's 'expired' label, where the button would be: plain text, the badge carries the colour.
        <span className="self-start text-sm font-medium text-slate-500 sm:self-center" data-testid="expired-label">
          {t('card.expired')}
        </span>
      ) : null}
    </article>
  );
});
