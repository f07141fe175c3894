import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { ClipboardList, MessageSquareText, NotebookPen, PanelRightOpen, Star } from 'lucide-react';
import type { Submission } from '@contract/submissions';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { cn } from '@web/components/ui/cn';
import { StatusBadge, displayStatus } from '@web/components/ui/status-badge';
import { formatDate, formatPercent, formatPracticeTime } from '@web/lib/format';
import { competencyKey } from '@web/lib/competency';

/** An empty cell says so to screen readers, and shows nothing instead of a dash. */
function Empty() {
  const { t } = useTranslation('progress');
  return <span className="sr-only">{t('recent.none')}</span>;
}

/** A cell: on phones (rows are cards there) with its label in front. */
function Cell({ label, children, className, testId }: { label: string; children: ReactNode; className?: string; testId?: string }) {
  return (
    <td className={cn('px-2 py-3 whitespace-nowrap max-md:flex max-md:justify-between max-md:gap-3 max-md:px-0 max-md:py-1', className)}>
      <span className="text-slate-500 md:hidden">{label}</span>
      <span className="text-slate-900 tabular-nums" data-testid={testId}>
        {children}
      </span>
    </td>
  );
}

/** The teacher's list of a student's recent tasks; completed ones can be reviewed. */
export function RecentSubmissions({
  submissions,
  loading,
  today,
  onReview,
  onOpen,
}: {
  submissions: readonly Submission[] | undefined;
  loading?: boolean;
  today: string;
  onReview: (s: Submission) => void;
  /** Opens the task in the side panel. */
  onOpen?: (s: Submission) => void;
}) {
  const { t } = useTranslation(['progress', 'common']);
  const language = useLanguage();
  return (
    <Card>
      <CardHeader title={t('recent.title')} description={t('recent.subtitle')} />
      {loading ? (
        <ul aria-hidden="true" className="divide-y divide-slate-100">
          {Array.from({ length: 3 }, (_, i) => (
            <li key={i} className="space-y-3 px-5 py-4">
              <div className="flex justify-between gap-3">
                <Skeleton className="h-4 w-1/2" />
                <Skeleton className="h-5 w-16 rounded-full" />
              </div>
              <Skeleton className="h-8 w-full" />
            </li>
          ))}
        </ul>
      ) : !submissions || submissions.length === 0 ? (
        <div className="flex flex-col items-center px-5 py-10 text-center">
          <ClipboardList aria-hidden="true" className="mb-2 size-6 text-slate-400" />
          <p className="text-sm font-medium text-slate-700">{t('recent.empty')}</p>
          <p className="mt-1 text-sm text-slate-500">{t('recent.emptyText')}</p>
        </div>
      ) : (
        // Eight columns on a wide screen: narrow gaps, and a scroll of its own rather than a cut-off column where a long text still does not fit.
        <div className="md:overflow-x-auto">
          <table className="w-full text-left text-sm max-md:block" data-testid="recent-submissions">
            <thead className="border-y border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-600 uppercase max-md:hidden">
              <tr>
                <th scope="col" className="py-2 pr-3 pl-5">
                  {t('recent.task')}
                </th>
                <th scope="col" className="px-2 py-2">
                  {t('recent.status')}
                </th>
                <th scope="col" className="px-2 py-2">
                  {t('recent.due')}
                </th>
                <th scope="col" className="px-2 py-2">
                  {t('recent.completedAt')}
                </th>
                <th scope="col" className="px-2 py-2 text-right">
                  {t('recent.accuracy')}
                </th>
                <th scope="col" className="px-2 py-2 text-right">
                  {t('recent.minutes')}
                </th>
                <th scope="col" className="px-2 py-2">
                  {t('recent.level')}
                </th>
                <th scope="col" className="py-2 pr-5 pl-3 text-right">
                  {t('recent.actions')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 max-md:block">
              {submissions.map((s) => {
                const title = s.exercise?.title ?? s.exercise_title;
                const reviewed = s.accuracy_score !== null || s.competency_level !== null;
                const expired = s.status === 'expired' && s.expiration_date;
                return (
                  <tr key={s.id} className="align-top max-md:block max-md:px-5 max-md:py-4" data-testid={`recent-${s.id}`}>
                    <td className="py-3 pr-3 pl-5 max-md:block max-md:p-0 max-md:pb-2">
                      <p className="font-semibold text-slate-900">{title}</p>
                      {s.teacher_note && (
                        <p className="mt-1 flex gap-1.5 text-xs text-slate-600">
                          <NotebookPen aria-hidden="true" className="mt-px size-3.5 shrink-0 text-slate-400" />
                          <span>
                            <span className="font-medium text-slate-700">{t('recent.note')}: </span>
                            {s.teacher_note}
                          </span>
                        </p>
                      )}
                      {s.teacher_feedback && (
                        <p className="mt-1 flex gap-1.5 text-xs text-slate-600">
                          <MessageSquareText aria-hidden="true" className="mt-px size-3.5 shrink-0 text-slate-400" />
                          <span>
                            <span className="font-medium text-slate-700">{t('recent.feedback')}: </span>
                            {s.teacher_feedback}
                          </span>
                        </p>
                      )}
                    </td>
                    <td className="px-2 py-3 max-md:block max-md:p-0 max-md:pb-1">
                      <StatusBadge status={displayStatus(s.status, s.due_date, today)} />
                    </td>
                    <Cell label={t('recent.due')}>{formatDate(s.due_date)}</Cell>
                    <Cell label={expired ? t('recent.expiredSince') : t('recent.completedAt')}>
                      {expired ? (
                        <span className="text-red-700" title={t('recent.expiredSince')}>
                          {formatDate(s.expiration_date)}
                        </span>
                      ) : s.completed_at ? (
                        formatDate(s.completed_at)
                      ) : (
                        <Empty />
                      )}
                    </Cell>
                    <Cell label={t('recent.accuracy')} className="md:text-right" testId={`recent-${s.id}-accuracy`}>
                      {s.accuracy_score === null ? <Empty /> : formatPercent(s.accuracy_score, language)}
                    </Cell>
                    <Cell label={t('recent.minutes')} className="md:text-right">
                      {s.time_spent_minutes > 0 ? formatPracticeTime(s.time_spent_minutes, language) : <Empty />}
                    </Cell>
                    <Cell label={t('recent.level')}>{s.competency_level ? t(competencyKey(s.competency_level)) : <Empty />}</Cell>
                    <td className="py-2 pr-5 pl-3 max-md:block max-md:p-0 max-md:pt-2">
                      <div className="flex flex-wrap justify-end gap-1">
                        {onOpen && (
                          <Button
                            variant="ghost"
                            size="sm"
                            icon={<PanelRightOpen aria-hidden="true" className="size-4" />}
                            onClick={() => onOpen(s)}
                            aria-label={t('recent.openLabel', { title })}
                            data-testid={`recent-${s.id}-open`}
                          >
                            {t('recent.open')}
                          </Button>
                        )}
                        {s.status === 'completed' && (
                          <Button
                            variant="secondary"
                            size="sm"
                            icon={<Star aria-hidden="true" className="size-4" />}
                            onClick={() => onReview(s)}
                            aria-label={`${reviewed ? t('recent.editReview') : t('recent.review')}: ${title}`}
                          >
                            {reviewed ? t('recent.editReview') : t('recent.review')}
                          </Button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
