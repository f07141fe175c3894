import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { Link } from 'react-router';
import { ArrowLeft, Printer } from 'lucide-react';
import type { StudentMetrics, StudentOverview } from '@contract/metrics';
import { BrandMark } from '@web/components/brand-mark';
import { Button } from '@web/components/ui/button';
import { Skeleton } from '@web/components/ui/skeleton';
import { StatusBadge, displayStatus } from '@web/components/ui/status-badge';
import { isApiError } from '@web/lib/api';
import { formatDate, formatPercent, formatPracticeTime } from '@web/lib/format';
import { useStudentMetrics, useStudentOverview } from '../api/progress';
import { competencyKey } from '@web/lib/competency';
import { localToday } from '@web/lib/today';
import { shortDate } from '../lib/progress';
import './student-report.css';

/**
 * The printable one-page report of one student (/students/{id}/report, teacher): the figures of
 * the student's dashboard (overview and metrics, the same two calls) on an A4 sheet; 'Drucken'
 * opens the browser's print dialog, which also saves it as a PDF. Outside the app's layout, so
 * nothing but the sheet is printed.
 */
export function StudentReport({ studentId }: { studentId: number | null }) {
  const { t } = useTranslation(['progress', 'common']);
  const valid = studentId !== null;
  const overview = useStudentOverview(studentId ?? 0, valid);
  const metrics = useStudentMetrics(studentId ?? 0, valid);
  const notFound = !valid || isApiError(overview.error, 404) || isApiError(metrics.error, 404) || isApiError(overview.error, 403);
  const failed = !notFound && (overview.isError || metrics.isError);
  const loading = valid && (overview.isPending || metrics.isPending) && !notFound && !failed;

  return (
    <div className="min-h-dvh bg-slate-100 px-3 py-4 sm:px-6 sm:py-8 print:min-h-0 print:bg-white print:p-0">
      <div className="mx-auto mb-4 flex max-w-[210mm] flex-wrap items-center justify-between gap-3 print:hidden">
        <Link
          to={valid ? `/students/${studentId}` : '/students'}
          className="inline-flex items-center gap-1.5 rounded text-sm font-medium text-slate-700 hover:text-slate-900"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          {t('progress:report.back')}
        </Link>
        <Button icon={<Printer aria-hidden="true" className="size-4" />} onClick={() => window.print()} disabled={!overview.data || !metrics.data} data-testid="report-print">
          {t('progress:report.print')}
        </Button>
      </div>
      <main className="uk-report-sheet mx-auto max-w-[210mm] rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-10" data-testid="student-report">
        {notFound ? (
          <div className="py-10 text-center">
            <h1 className="text-lg font-semibold text-slate-900">{t('progress:detail.notFoundTitle')}</h1>
            <p className="mt-1 text-sm text-slate-600">{t('progress:detail.notFoundText')}</p>
          </div>
        ) : failed ? (
          <div role="alert" className="py-10 text-center">
            <h1 className="text-lg font-semibold text-slate-900">{t('progress:report.title')}</h1>
            <p className="mt-1 text-sm text-red-800">{t('progress:report.error')}</p>
            <Button
              className="mt-4"
              variant="secondary"
              loading={overview.isFetching || metrics.isFetching}
              onClick={() => {
                void overview.refetch();
                void metrics.refetch();
              }}
            >
              {t('common:actions.retry')}
            </Button>
          </div>
        ) : loading || !overview.data || !metrics.data ? (
          <div role="status" aria-label={t('common:actions.loading')} className="space-y-4">
            <h1 className="sr-only">{t('progress:report.title')}</h1>
            <Skeleton className="h-8 w-64" />
            <Skeleton className="h-24 w-full" />
            <Skeleton className="h-40 w-full" />
          </div>
        ) : (
          <ReportBody overview={overview.data} metrics={metrics.data} />
        )}
      </main>
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 px-3 py-2">
      <dt className="text-xs break-words text-slate-600">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold break-words text-slate-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

function ReportBody({ overview, metrics }: { overview: StudentOverview; metrics: StudentMetrics }) {
  const { t } = useTranslation(['progress', 'common']);
  const language = useLanguage();
  const k = overview.kpis;
  const today = localToday();
  const days = metrics.progress_data;
  const max = Math.max(1, ...days.map((d) => d.practice_time_minutes));
  const total30 = days.reduce((s, d) => s + d.practice_time_minutes, 0);
  const recent = overview.recent_submissions.slice(0, 8);

  return (
    <article className="space-y-5">
      {/* On a phone the brand and date above the name: beside it they left a long name a third of the width. */}
      <header className="flex flex-col-reverse gap-3 border-b border-slate-200 pb-4 sm:flex-row sm:items-start sm:justify-between sm:gap-4">
        <div className="min-w-0">
          <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{t('progress:report.title')}</p>
          <h1 className="mt-1 text-2xl font-semibold break-words text-slate-900" data-testid="report-student-name">
            {overview.student.name}
          </h1>
          <p className="text-sm wrap-anywhere text-slate-600">{overview.student.email}</p>
        </div>
        <div className="shrink-0 text-right text-xs text-slate-600">
          <div className="flex items-center justify-end gap-2 text-sm font-semibold text-slate-900">
            <BrandMark className="size-5" />
            Übungskontrolle
          </div>
          <p className="mt-1">{t('progress:report.date', { date: formatDate(today) })}</p>
        </div>
      </header>

      <section aria-labelledby="report-tasks">
        <h2 id="report-tasks" className="mb-2 text-sm font-semibold text-slate-900">
          {t('progress:report.tasks')}
        </h2>
        {/* Two a row on a phone: three left 'Abschlussquote' wider than its card. */}
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-6">
          <Figure label={t('progress:cards.completed')} value={k.completed_submissions} testId="report-completed" />
          <Figure label={t('progress:cards.open')} value={k.open_submissions} />
          <Figure label={t('progress:cards.overdue')} value={k.overdue_submissions} />
          <Figure label={t('progress:cards.expired')} value={k.expired_submissions} />
          <Figure label={t('progress:cards.completionRate')} value={formatPercent(k.completion_rate, language)} testId="report-rate" />
          <Figure label={t('progress:cards.streak')} value={t('progress:days', { count: k.current_streak })} />
        </dl>
      </section>

      <section aria-labelledby="report-practice">
        <h2 id="report-practice" className="mb-2 text-sm font-semibold text-slate-900">
          {t('progress:stats.title')}
        </h2>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-5">
          <Figure label={t('progress:stats.total')} value={formatPracticeTime(metrics.total_practice_time_minutes, language)} testId="report-total" />
          <Figure label={t('progress:stats.weekly')} value={formatPracticeTime(metrics.weekly_practice_time_minutes, language)} />
          <Figure label={t('progress:stats.averageSession')} value={formatPracticeTime(metrics.average_session_time_minutes, language)} />
          <Figure label={t('progress:cards.accuracy')} value={metrics.average_accuracy === null ? '–' : formatPercent(metrics.average_accuracy, language)} />
          <Figure label={t('progress:stats.topLevel')} value={t(competencyKey(metrics.top_competency_level))} />
        </dl>
      </section>

      <section aria-labelledby="report-chart">
        <h2 id="report-chart" className="mb-2 text-sm font-semibold text-slate-900">
          {t('progress:chart.title')} · {t('progress:chart.subtitle')} · {formatPracticeTime(total30, language)}
        </h2>
        {/* Plain bars (no canvas): they print sharp on any printer. */}
        <div
          role="img"
          aria-label={t('progress:chart.aria', { total: formatPracticeTime(total30, language) })}
          className="flex h-28 items-end gap-[2px] border-b border-slate-300"
          data-testid="report-chart"
        >
          {days.map((d) => (
            <div key={d.date} className="flex h-full flex-1 items-end" title={`${shortDate(d.date)}: ${formatPracticeTime(d.practice_time_minutes, language)}`}>
              <div className="w-full rounded-t-sm bg-brand-600" style={{ height: `${(d.practice_time_minutes / max) * 100}%`, minHeight: d.practice_time_minutes > 0 ? 2 : 0 }} />
            </div>
          ))}
        </div>
        <div className="mt-1 flex justify-between text-[10px] text-slate-600 tabular-nums">
          <span>{days[0] ? shortDate(days[0].date) : ''}</span>
          <span>{days.at(-1) ? shortDate(days.at(-1)!.date) : ''}</span>
        </div>
      </section>

      <section aria-labelledby="report-recent">
        <h2 id="report-recent" className="mb-2 text-sm font-semibold text-slate-900">
          {t('progress:recent.title')}
        </h2>
        {recent.length === 0 ? (
          <p className="text-sm text-slate-600">{t('progress:recent.empty')}</p>
        ) : (
          <table className="w-full text-left text-xs">
            <thead className="border-b border-slate-200 text-slate-600">
              <tr>
                <th scope="col" className="py-1.5 pr-2 font-medium">
                  {t('progress:recent.task')}
                </th>
                <th scope="col" className="py-1.5 pr-2 font-medium">
                  {t('progress:recent.due')}
                </th>
                <th scope="col" className="py-1.5 pr-2 font-medium">
                  {t('progress:recent.status')}
                </th>
                <th scope="col" className="py-1.5 pr-2 text-right font-medium">
                  {t('progress:recent.accuracy')}
                </th>
                <th scope="col" className="py-1.5 text-right font-medium">
                  {/* The short word on a phone, where 'Übungszeit' made the table wider than the sheet. */}
                  <span className="sm:hidden" title={t('progress:recent.minutes')}>
                    {t('progress:recent.minutesShort')}
                  </span>
                  <span className="max-sm:hidden">{t('progress:recent.minutes')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {recent.map((s) => (
                <tr key={s.id}>
                  <td className="max-w-0 truncate py-1.5 pr-2 text-slate-900" style={{ width: '40%' }}>
                    {s.exercise_title}
                  </td>
                  <td className="py-1.5 pr-2 text-slate-700 tabular-nums">{formatDate(s.due_date)}</td>
                  <td className="py-1.5 pr-2">
                    <StatusBadge status={displayStatus(s.status, s.due_date, today)} />
                  </td>
                  <td className="py-1.5 pr-2 text-right text-slate-700 tabular-nums">{s.accuracy_score === null ? '–' : formatPercent(s.accuracy_score, language)}</td>
                  <td className="py-1.5 text-right whitespace-nowrap text-slate-700 tabular-nums">{formatPracticeTime(s.time_spent_minutes, language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <footer className="border-t border-slate-200 pt-3 text-[10px] text-slate-500">{t('progress:report.footer', { date: formatDate(today) })}</footer>
    </article>
  );
}
