import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { Award, CalendarDays, Clock, Timer } from 'lucide-react';
import type { StudentMetrics } from '@contract/metrics';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { formatPracticeTime } from '@web/lib/format';
import { competencyKey } from '@web/lib/competency';

function Row({ icon: Icon, label, value, sub, loading, testId }: { icon: ComponentType<{ className?: string; 'aria-hidden'?: 'true' }>; label: string; value: string; sub?: string; loading?: boolean; testId: string }) {
  return (
    <div className="flex items-center gap-3 py-3 first:pt-0 last:pb-0">
      <dt className="flex min-w-0 flex-1 items-center gap-3 text-sm text-slate-600">
        <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-600">
          <Icon aria-hidden="true" className="size-4.5" />
        </span>
        <span className="min-w-0">
          {label}
          {sub && !loading && <span className="block text-xs text-slate-500">{sub}</span>}
        </span>
      </dt>
      <dd className="text-right text-sm font-semibold text-slate-900 tabular-nums" data-testid={testId}>
        {loading ? <Skeleton className="h-4 w-14" /> : value}
      </dd>
    </div>
  );
}

/** Total, weekly and average session time ('N min' / 'h:mm h') and the top competency level. */
export function LearningStats({ metrics, loading }: { metrics: StudentMetrics | undefined; loading?: boolean }) {
  const { t } = useTranslation('progress');
  const language = useLanguage();
  return (
    <Card>
      <CardHeader title={t('stats.title')} />
      <CardBody>
        <dl className="divide-y divide-slate-100">
          <Row
            icon={Clock}
            label={t('stats.total')}
            sub={metrics ? t('stats.sessions', { count: metrics.total_practice_sessions }) : undefined}
            value={formatPracticeTime(metrics?.total_practice_time_minutes, language)}
            loading={loading}
            testId="stat-total"
          />
          <Row icon={CalendarDays} label={t('stats.weekly')} value={formatPracticeTime(metrics?.weekly_practice_time_minutes, language)} loading={loading} testId="stat-weekly" />
          <Row icon={Timer} label={t('stats.averageSession')} value={formatPracticeTime(metrics?.average_session_time_minutes, language)} loading={loading} testId="stat-average" />
          <Row icon={Award} label={t('stats.topLevel')} value={t(competencyKey(metrics?.top_competency_level))} loading={loading} testId="stat-level" />
        </dl>
      </CardBody>
    </Card>
  );
}
