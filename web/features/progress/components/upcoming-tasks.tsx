import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AlertTriangle, CalendarClock, ChevronRight, PartyPopper } from 'lucide-react';
import { UPCOMING_TASKS } from '@contract/constants';
import type { Submission } from '@contract/submissions';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { cn } from '@web/components/ui/cn';
import { Skeleton } from '@web/components/ui/skeleton';
import { StatusBadge, displayStatus } from '@web/components/ui/status-badge';
import { formatDate } from '@web/lib/format';
import { upcomingTasks } from '../lib/progress';

/** The next 5 open tasks by due date, each with its status ('Heute' in yellow when due today). */
export function UpcomingTasks({
  submissions,
  loading,
  error,
  onRetry,
  today,
}: {
  submissions: readonly Submission[] | undefined;
  loading?: boolean;
  error?: boolean;
  onRetry?: () => void;
  today: string;
}) {
  const { t } = useTranslation(['progress', 'common']);
  const next = upcomingTasks(submissions ?? [], UPCOMING_TASKS);
  return (
    <Card>
      <CardHeader
        title={t('upcoming.title')}
        actions={
          <Link to="/submissions" className="rounded text-sm font-medium text-brand-700 hover:text-brand-800 hover:underline">
            {t('upcoming.all')}
          </Link>
        }
      />
      {loading ? (
        <ul aria-hidden="true" className="divide-y divide-slate-100">
          {Array.from({ length: 3 }, (_, i) => (
            <li key={i} className="flex items-center gap-3 px-5 py-3.5">
              <div className="flex-1 space-y-2">
                <Skeleton className="h-4 w-2/3" />
                <Skeleton className="h-3 w-1/3" />
              </div>
              <Skeleton className="h-5 w-16 rounded-full" />
            </li>
          ))}
        </ul>
      ) : error ? (
        <div role="alert" className="flex flex-col items-center gap-3 px-5 py-8 text-center">
          <AlertTriangle aria-hidden="true" className="size-6 text-red-600" />
          <p className="text-sm text-slate-700">{t('upcoming.error')}</p>
          {onRetry && (
            <Button variant="secondary" size="sm" onClick={onRetry}>
              {t('common:actions.retry')}
            </Button>
          )}
        </div>
      ) : next.length === 0 ? (
        <div className="flex flex-col items-center px-5 py-8 text-center">
          <PartyPopper aria-hidden="true" className="mb-2 size-6 text-slate-400" />
          <p className="text-sm font-medium text-slate-700">{t('upcoming.empty')}</p>
          <p className="mt-1 text-sm text-slate-500">{t('upcoming.emptyText')}</p>
        </div>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="upcoming-tasks">
          {next.map((s) => {
            const status = displayStatus(s.status, s.due_date, today);
            return (
              <li key={s.id}>
                <Link
                  to={`/submissions/${s.id}`}
                  className={cn('flex items-center gap-3 px-5 py-3.5 hover:bg-slate-50 focus-visible:bg-slate-50', status === 'today' && 'bg-amber-50/60')}
                >
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium text-slate-900">{s.exercise?.title ?? s.exercise_title}</p>
                    <p className="mt-0.5 flex items-center gap-1.5 text-xs text-slate-500">
                      <CalendarClock aria-hidden="true" className="size-3.5" />
                      {t('upcoming.due', { date: formatDate(s.due_date) })}
                    </p>
                  </div>
                  <StatusBadge status={status} />
                  <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-slate-400" />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
