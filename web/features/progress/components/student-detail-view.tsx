import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { Link } from 'react-router';
import { ArrowLeft, CheckCircle2, CircleDot, Clock3, Flame, Hourglass, Percent, Printer, UserX } from 'lucide-react';
import type { ReviewBody } from '@contract/metrics';
import type { Submission } from '@contract/submissions';
import { Badge } from '@web/components/ui/badge';
import { Card } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { formatPercent } from '@web/lib/format';
import { useReviewSubmission, useStudentMetrics, useStudentOverview } from '../api/progress';
import { localToday } from '@web/lib/today';
import { LearningStats } from './learning-stats';
import { PracticeChart } from './practice-chart';
import { RecentSubmissions } from './recent-submissions';
import { ReviewDialog } from './review-dialog';
import { StatCard } from '@web/components/ui/stat-card';
import { PersonHeader } from '@web/components/ui/person-header';

function BackLink() {
  const { t } = useTranslation('progress');
  return (
    <Link to="/students" className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-slate-600 hover:text-slate-900">
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('detail.back')}
    </Link>
  );
}

/** Not found (404, a bad id) or no access (403, silent): a panel with the way back. */
function Unavailable({ noAccess }: { noAccess?: boolean }) {
  const { t } = useTranslation('progress');
  return (
    <div className="mx-auto max-w-lg py-10">
      <Card className="flex flex-col items-center px-6 py-12 text-center" data-testid="student-not-found">
        <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-slate-100">
          <UserX aria-hidden="true" className="size-6 text-slate-500" />
        </div>
        <h1 className="text-lg font-semibold text-slate-900">{t('detail.notFoundTitle')}</h1>
        <p className="mt-1 text-sm text-slate-600">{noAccess ? t('detail.noAccess') : t('detail.notFoundText')}</p>
        <div className="mt-6">
          <BackLink />
        </div>
      </Card>
    </div>
  );
}

/** The task panel the screen composes in (it needs other features: docs/decisions/feature-boundaries.md); `submissionId` null = closed. */
export type TaskPanelSlot = (props: { submissionId: number | null; onClose: () => void }) => ReactNode;

/**
 * The teacher's view of one student (/students/{id}): overview, KPIs, chart, recent tasks with review, statistics.
 * `children`: further sections of the screen (the parents, docs/decisions/schools-and-roles.md), shown below once the student is found.
 * `taskPanel`: what opens when a recent task is clicked.
 * `actions`: further buttons in the header (the screen's 'Aufgabe zuweisen', docs/decisions/teacher-day-actions.md).
 */
export function StudentDetailView({ studentId, children, taskPanel, actions }: { studentId: number | null; children?: ReactNode; taskPanel?: TaskPanelSlot; actions?: ReactNode }) {
  if (studentId === null) return <Unavailable />;
  return (
    <StudentDetail studentId={studentId} taskPanel={taskPanel} actions={actions}>
      {children}
    </StudentDetail>
  );
}

function StudentDetail({ studentId, children, taskPanel, actions }: { studentId: number; children?: ReactNode; taskPanel?: TaskPanelSlot; actions?: ReactNode }) {
  const { t } = useTranslation(['progress', 'common']);
  const language = useLanguage();
  const toast = useToast();
  const overview = useStudentOverview(studentId);
  const metrics = useStudentMetrics(studentId);
  const review = useReviewSubmission(studentId);
  const [reviewing, setReviewing] = useState<Submission | null>(null);
  const [panelId, setPanelId] = useState<number | null>(null);
  const today = localToday();

  const overviewFailed = overview.isError && !isApiError(overview.error, 403) && !isApiError(overview.error, 404);
  const metricsFailed = metrics.isError && !isApiError(metrics.error, 403) && !isApiError(metrics.error, 404);
  useEffect(() => {
    if (overviewFailed) toast.error(t('errors.overview'));
  }, [overviewFailed, overview.errorUpdatedAt, toast, t]);
  useEffect(() => {
    if (metricsFailed) toast.error(t('errors.metrics'));
  }, [metricsFailed, metrics.errorUpdatedAt, toast, t]);

  if (isApiError(overview.error, 404) || isApiError(metrics.error, 404)) return <Unavailable />;
  if (isApiError(overview.error, 403)) return <Unavailable noAccess />;

  const o = overview.data;
  const k = o?.kpis;
  const dash = '–';

  async function saveReview(body: ReviewBody) {
    if (!reviewing) return;
    try {
      await review.mutateAsync({ id: reviewing.id, body });
      toast.success(t('review.success'));
      setReviewing(null);
    } catch (err) {
      if (!isApiError(err, 422)) toast.error(err instanceof Error && err.message && !/^HTTP /.test(err.message) ? err.message : t('review.error'));
      throw err;
    }
  }

  return (
    <>
      <div className="mb-4">
        <BackLink />
      </div>
      <PersonHeader
        name={o ? o.student.name : null}
        nameTestId="student-name"
        loadingLabel={t('common:actions.loading')}
        subtitle={
          o && (
            <p className="truncate text-sm text-slate-500" title={o.student.email}>
              {o.student.email}
            </p>
          )
        }
      >
        <div className="flex flex-wrap items-center gap-3">
          {actions}
          <Link
            to={`/students/${studentId}/report`}
            className="inline-flex h-11 items-center gap-1.5 rounded-md px-3 text-sm font-medium text-slate-700 ring-1 ring-slate-300 ring-inset hover:bg-slate-50 sm:h-8"
            data-testid="student-report-link"
          >
            <Printer aria-hidden="true" className="size-4" />
            {t('report.open')}
          </Link>
          {k ? (
            <Badge tone="brand" className="px-3 py-1 text-sm">
              <Flame aria-hidden="true" className="size-4" />
              <span data-testid="student-streak">{t('detail.streak', { days: t('days', { count: k.current_streak }) })}</span>
            </Badge>
          ) : (
            <Skeleton className="h-7 w-32 rounded-full" />
          )}
        </div>
      </PersonHeader>

      {overviewFailed && (
        <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {t('errors.overview')}
        </p>
      )}

      <section aria-label={t('stats.title')} className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3 2xl:grid-cols-5">
        <StatCard label={t('cards.completed')} value={k?.completed_submissions ?? dash} icon={CheckCircle2} tone="green" loading={overview.isPending} testId="kpi-completed" />
        <StatCard label={t('cards.open')} value={k?.open_submissions ?? dash} icon={CircleDot} tone="amber" loading={overview.isPending} testId="kpi-open" />
        <StatCard label={t('cards.overdue')} value={k?.overdue_submissions ?? dash} icon={Clock3} tone="red" loading={overview.isPending} testId="kpi-overdue" />
        <StatCard label={t('cards.expired')} value={k?.expired_submissions ?? dash} icon={Hourglass} tone="red" loading={overview.isPending} testId="kpi-expired" />
        <StatCard
          label={t('cards.completionRate')}
          value={k ? formatPercent(k.completion_rate, language) : dash}
          hint={t('cards.completionHint')}
          icon={Percent}
          tone="brand"
          loading={overview.isPending}
          testId="kpi-rate"
          className="col-span-2 2xl:col-span-1"
        />
      </section>

      {metricsFailed && (
        <p role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm font-medium text-red-800">
          {t('errors.metrics')}
        </p>
      )}

      <div className="mt-6 grid gap-6 xl:grid-cols-3">
        <div className="min-w-0 xl:col-span-2">
          <PracticeChart data={metrics.data?.progress_data} loading={metrics.isPending} emptyText={t('chart.emptyTeacher')} />
        </div>
        <LearningStats metrics={metrics.data} loading={metrics.isPending} />
      </div>

      <div className="mt-6">
        <RecentSubmissions submissions={o?.recent_submissions} loading={overview.isPending} today={today} onReview={setReviewing} onOpen={taskPanel ? (s) => setPanelId(s.id) : undefined} />
      </div>

      {children && <div className="mt-6">{children}</div>}

      {taskPanel?.({ submissionId: panelId, onClose: () => setPanelId(null) })}
      <ReviewDialog submission={reviewing} onClose={() => setReviewing(null)} onSave={saveReview} saving={review.isPending} />
    </>
  );
}
