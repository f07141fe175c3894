import { useDeferredValue, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { Link } from 'react-router';
import { AlertTriangle, CheckCircle2, CircleDot, Clock3, Flame, Target } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { PageHeader } from '@web/components/ui/page-header';
import { Skeleton } from '@web/components/ui/skeleton';
import { StatCard } from '@web/components/ui/stat-card';
import { useToast } from '@web/components/ui/toast';
import { WhenVisible } from '@web/components/ui/when-visible';
import { isApiError } from '@web/lib/api';
import { formatPercent, formatPracticeTime } from '@web/lib/format';
import type { Submission } from '@contract/submissions';
import { useCurrentSeries, useMyMetrics } from '../api/progress';
import { localToday } from '@web/lib/today';
import { LearningStats } from './learning-stats';
import { UpcomingTasks } from './upcoming-tasks';
import { lazyPart } from '@web/components/ui/lazy-section';

const PracticeChart = lazyPart(() => import('./practice-chart').then((m) => ({ default: m.PracticeChart })));

const chartSlot = <Skeleton className="h-[22rem] w-full rounded-xl sm:h-[24rem]" />;

/**
 * The student's home is today (SPEC.md's dashboard, reordered for practising): the next 5 open
 * tasks first, each with a large 'Jetzt üben'; streak and this week's minutes in one line; then
 * the cards for open, overdue and completed tasks, streak and average accuracy; the learning
 * statistics; the 30-day chart and the calendar (passed in by the screen, read-only) further down,
 * loaded when they come near the screen so their code does not delay the first paint.
 */
export function StudentDashboardView({
  name,
  calendar,
  notice,
  doneAction,
}: {
  name?: string;
  calendar?: ReactNode;
  /** Under the header (new feedback, takes waiting). */
  notice?: ReactNode;
  /** 'Als erledigt markieren' for a task of the list (the screen brings it: features do not import each other). */
  doneAction?: (task: Submission) => ReactNode;
}) {
  const { t } = useTranslation(['progress', 'common']);
  const language = useLanguage();
  const toast = useToast();
  const metrics = useMyMetrics();
  const open = useCurrentSeries();
  // Drawn in the background in short slices (a deferred value renders as a transition), not in one long task.
  const upcoming = useDeferredValue(open.data ?? null, null) ?? undefined;
  const today = localToday();

  const metricsFailed = metrics.isError && !isApiError(metrics.error, 403);
  useEffect(() => {
    if (metricsFailed) toast.error(t('errors.metrics'));
  }, [metricsFailed, metrics.errorUpdatedAt, toast, t]);

  const m = metrics.data;
  const loading = metrics.isPending;
  const counts = m?.overall_metrics;
  const dash = '–';
  const overdue = counts?.overdue_submissions ?? 0;

  return (
    <>
      <PageHeader title={name ? t('dashboard.greeting', { name }) : t('dashboard.title')} subtitle={t('dashboard.subtitle')}>
        <p className="mt-2 flex min-h-5 items-center gap-2 text-sm font-medium text-slate-700 tabular-nums" data-testid="home-summary">
          <Flame aria-hidden="true" className="size-4 shrink-0 text-brand-600" />
          {m ? t('home.summary', { streak: t('days', { count: m.current_streak }), time: formatPracticeTime(m.weekly_practice_time_minutes, language) }) : <Skeleton className="h-4 w-48" />}
        </p>
      </PageHeader>

      {notice}

      {metricsFailed && (
        <div role="alert" className="mb-6 flex flex-col gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="flex items-center gap-2 text-sm font-medium text-red-800">
            <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
            {t('errors.metrics')}
          </p>
          <Button variant="secondary" size="sm" onClick={() => void metrics.refetch()}>
            {t('common:actions.retry')}
          </Button>
        </div>
      )}

      <UpcomingTasks
        series={upcoming}
        doneAction={doneAction}
        loading={open.isPending || (!upcoming && !open.isError)}
        error={open.isError}
        onRetry={() => void open.refetch()}
        today={today}
        footer={
          overdue > 0 ? (
            <Link
              to="/submissions?tab=open"
              className="inline-flex min-h-11 items-center gap-2 rounded-md text-sm font-medium text-slate-700 hover:text-brand-700 hover:underline"
              data-testid="home-overdue-link"
            >
              <Clock3 aria-hidden="true" className="size-4 text-amber-600" />
              {t('home.overdueLink', { count: overdue })}
            </Link>
          ) : null
        }
      />

      <section aria-label={t('stats.title')} className="mt-8 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 2xl:grid-cols-5">
        <StatCard label={t('cards.open')} value={counts?.open_submissions ?? dash} icon={CircleDot} tone="amber" loading={loading} testId="card-open" />
        <StatCard label={t('cards.overdue')} value={counts?.overdue_submissions ?? dash} icon={Clock3} tone="amber" loading={loading} testId="card-overdue" />
        <StatCard label={t('cards.completed')} value={counts?.completed_submissions ?? dash} icon={CheckCircle2} tone="green" loading={loading} testId="card-completed" />
        <StatCard label={t('cards.streak')} value={m ? t('days', { count: m.current_streak }) : dash} icon={Flame} tone="brand" loading={loading} testId="card-streak" />
        <StatCard
          label={t('cards.accuracy')}
          value={formatPercent(m?.average_accuracy, language)}
          hint={m && m.average_accuracy === null ? t('cards.accuracyNone') : undefined}
          icon={Target}
          tone="brand"
          loading={loading}
          testId="card-accuracy"
          className="col-span-2 2xl:col-span-1"
        />
      </section>

      <div className="mt-6 grid gap-6 xl:grid-cols-3">
        <WhenVisible className="min-w-0 xl:col-span-2" fallback={chartSlot}>
          <PracticeChart data={m?.progress_data} loading={loading} emptyText={t('chart.emptyStudent')} />
        </WhenVisible>
        <LearningStats metrics={m} loading={loading} />
      </div>

      {calendar && (
        <Card className="mt-6 min-w-0">
          <CardHeader title={t('calendar.title')} />
          <CardBody>
            <WhenVisible fallback={<Skeleton className="h-[28rem] w-full" />}>{calendar}</WhenVisible>
          </CardBody>
        </Card>
      )}
    </>
  );
}
