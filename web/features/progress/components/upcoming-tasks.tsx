import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { Link } from 'react-router';
import { AlertTriangle, CalendarClock, CheckCircle2, Clock, Flame, PartyPopper, Play, Repeat } from 'lucide-react';
import { UPCOMING_TASKS } from '@contract/constants';
import type { Submission, TaskSeries } from '@contract/submissions';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { cn } from '@web/components/ui/cn';
import { Skeleton } from '@web/components/ui/skeleton';
import { StatusBadge, displayStatus } from '@web/components/ui/status-badge';
import { formatDate, formatPracticeTime } from '@web/lib/format';

/**
 * The next 5 tasks – what to practise today and next – a repeating task once
 * (docs/decisions/done-means-practised.md): each with its status ('Heute' when due today), today's
 * minutes or 'Heute erledigt', the series' streak, a large 'Jetzt üben' that opens the practice
 * screen and, when the screen gives it, 'Als erledigt markieren'.
 */
export function UpcomingTasks({
  series,
  doneAction,
  loading,
  error,
  onRetry,
  today,
  footer,
}: {
  series: readonly TaskSeries[] | undefined;
  doneAction?: ((task: Submission) => ReactNode) | undefined;
  loading?: boolean;
  error?: boolean;
  onRetry?: () => void;
  today: string;
  /** Under the list (e.g. the link to overdue tasks). */
  footer?: ReactNode;
}) {
  const { t } = useTranslation(['progress', 'common']);
  const language = useLanguage();
  const next = (series ?? []).slice(0, UPCOMING_TASKS);
  return (
    <Card>
      <CardHeader
        title={t('upcoming.title')}
        actions={
          <Link to="/submissions" className="inline-flex min-h-11 items-center rounded text-sm font-medium text-brand-700 hover:text-brand-800 hover:underline sm:min-h-0">
            {t('upcoming.all')}
          </Link>
        }
      />
      {loading ? (
        // As many rows as the list shows, each of a real row's size: nothing below jumps.
        <ul aria-hidden="true" className="divide-y divide-slate-100">
          {Array.from({ length: UPCOMING_TASKS }, (_, i) => (
            <li key={i} className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:gap-4">
              <div className="min-w-0 flex-1">
                <Skeleton className="my-0.5 h-5 w-2/3" />
                <Skeleton className="mt-1.5 h-4 w-1/3" />
              </div>
              <Skeleton className="h-12 w-full rounded-lg sm:w-36" />
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
          {next.map((item, i) => {
            const s = item.current;
            const status = displayStatus(s.status, s.due_date, today);
            const title = s.exercise?.title ?? s.exercise_title;
            const minutes = s.exercise?.estimated_minutes;
            const doneToday = item.today?.done === true;
            const lead = !doneToday && (i === 0 || status === 'today');
            const repeating = item.occurrences > 1;
            return (
              <li
                key={item.series_id}
                className={cn('flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-center sm:gap-4', status === 'today' && !doneToday && 'bg-amber-50/40')}
                data-testid="upcoming-item"
                data-series-id={item.series_id}
              >
                <div className="min-w-0 flex-1">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <h3 className="min-w-0 text-base font-semibold break-words text-slate-900">
                      <Link to={`/submissions/${s.id}`} className="rounded-sm hover:text-brand-700 hover:underline">
                        {title}
                      </Link>
                    </h3>
                    <StatusBadge status={status} />
                  </div>
                  <p className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-600">
                    <span className="inline-flex items-center gap-1.5">
                      <CalendarClock aria-hidden="true" className="size-4 text-slate-400" />
                      {t('upcoming.due', { date: formatDate(s.due_date) })}
                    </span>
                    {minutes ? (
                      <span className="inline-flex items-center gap-1.5 tabular-nums">
                        <Clock aria-hidden="true" className="size-4 text-slate-400" />
                        {t('home.minutes', { time: formatPracticeTime(minutes, language) })}
                      </span>
                    ) : null}
                  </p>
                  {(item.today || repeating) && (
                    <p className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-700" data-testid="series-progress">
                      {item.today &&
                        (doneToday ? (
                          <span className="inline-flex items-center gap-1.5 font-medium text-emerald-700">
                            <CheckCircle2 aria-hidden="true" className="size-4" />
                            {t('home.todayDone')}
                          </span>
                        ) : (
                          <span className="inline-flex items-center gap-1.5 tabular-nums">
                            <Clock aria-hidden="true" className="size-4 text-slate-400" />
                            {item.today.time_spent_minutes > 0
                              ? t('home.todayMinutes', { time: formatPracticeTime(item.today.time_spent_minutes, language) })
                              : t('home.todayNone')}
                          </span>
                        ))}
                      {repeating && (
                        <span className="inline-flex items-center gap-1.5 tabular-nums">
                          <Repeat aria-hidden="true" className="size-4 text-slate-400" />
                          {t('home.repeats', { done: item.completed, count: item.occurrences })}
                        </span>
                      )}
                      {repeating && (
                        <span className="inline-flex items-center gap-1.5 tabular-nums" data-testid="series-streak">
                          <Flame aria-hidden="true" className="size-4 text-brand-600" />
                          {t('home.seriesStreak', { count: item.streak })}
                        </span>
                      )}
                    </p>
                  )}
                </div>
                <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
                  {doneAction && (s.status === 'open' || s.status === 'overdue') && doneAction(s)}
                  {/* A link that looks like a large button: it opens the practice screen. */}
                  <Link
                    to={`/submissions/${s.id}`}
                    className={cn(
                      'inline-flex h-12 w-full shrink-0 items-center justify-center gap-2 rounded-lg px-5 text-base font-semibold transition-colors sm:w-auto',
                      'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900',
                      lead ? 'bg-brand-600 text-white shadow-sm hover:bg-brand-700' : 'bg-white text-slate-800 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
                    )}
                    data-testid="practice-now"
                  >
                    <Play aria-hidden="true" className="size-5 fill-current" />
                    {t('home.practiceNow')}
                    <span className="sr-only">: {title}</span>
                  </Link>
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {footer && <div className="border-t border-slate-100 px-5 py-1">{footer}</div>}
    </Card>
  );
}
