import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, CheckCircle2, CircleDot, Clock3, Flame, Target } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { PageHeader } from '@web/components/ui/page-header';
import { cn } from '@web/components/ui/cn';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { formatPercent } from '@web/lib/format';
import { useMyMetrics, useOpenSubmissions } from '../api/progress';
import { localToday } from '../lib/progress';
import { LearningStats } from './learning-stats';
import { PracticeChart } from './practice-chart';
import { StatCard } from './stat-card';
import { UpcomingTasks } from './upcoming-tasks';

/**
 * The student's dashboard (SPEC.md): cards for open, overdue and completed tasks, streak and
 * average accuracy; the 30-day practice chart; learning statistics; the next 5 tasks; a calendar
 * (passed in by the screen, read-only).
 */
export function StudentDashboardView({ name, calendar }: { name?: string; calendar?: ReactNode }) {
  const { t } = useTranslation(['progress', 'common']);
  const toast = useToast();
  const metrics = useMyMetrics();
  const open = useOpenSubmissions();
  const today = localToday();

  const metricsFailed = metrics.isError && !isApiError(metrics.error, 403);
  useEffect(() => {
    if (metricsFailed) toast.error(t('errors.metrics'));
  }, [metricsFailed, metrics.errorUpdatedAt, toast, t]);

  const m = metrics.data;
  const loading = metrics.isPending;
  const counts = m?.overall_metrics;
  const dash = '–';

  return (
    <>
      <PageHeader title={name ? t('dashboard.greeting', { name }) : t('dashboard.title')} subtitle={t('dashboard.subtitle')} />

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

      <section aria-label={t('stats.title')} className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 xl:grid-cols-5">
        <StatCard label={t('cards.open')} value={counts?.open_submissions ?? dash} icon={CircleDot} tone="amber" loading={loading} testId="card-open" />
        <StatCard label={t('cards.overdue')} value={counts?.overdue_submissions ?? dash} icon={Clock3} tone="red" loading={loading} testId="card-overdue" />
        <StatCard label={t('cards.completed')} value={counts?.completed_submissions ?? dash} icon={CheckCircle2} tone="green" loading={loading} testId="card-completed" />
        <StatCard label={t('cards.streak')} value={m ? t('days', { count: m.current_streak }) : dash} icon={Flame} tone="brand" loading={loading} testId="card-streak" />
        <StatCard
          label={t('cards.accuracy')}
          value={formatPercent(m?.average_accuracy)}
          hint={m && m.average_accuracy === null ? t('cards.accuracyNone') : undefined}
          icon={Target}
          tone="brand"
          loading={loading}
          testId="card-accuracy"
          className="col-span-2 lg:col-span-1"
        />
      </section>

      <div className="mt-6 grid gap-6 xl:grid-cols-3">
        <div className="min-w-0 xl:col-span-2">
          <PracticeChart data={m?.progress_data} loading={loading} emptyText={t('chart.emptyStudent')} />
        </div>
        <LearningStats metrics={m} loading={loading} />
      </div>

      <div className={cn('mt-6 grid items-start gap-6', calendar ? 'xl:grid-cols-3' : undefined)}>
        <UpcomingTasks
          submissions={open.data}
          loading={open.isPending}
          error={open.isError}
          onRetry={() => void open.refetch()}
          today={today}
        />
        {calendar && (
          <Card className="min-w-0 xl:col-span-2">
            <CardHeader title={t('calendar.title')} />
            <CardBody>{calendar}</CardBody>
          </Card>
        )}
      </div>
    </>
  );
}
