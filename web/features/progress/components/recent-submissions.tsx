import { useTranslation } from 'react-i18next';
import { ClipboardList, MessageSquareText, NotebookPen, Star } from 'lucide-react';
import type { Submission } from '@contract/submissions';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { StatusBadge, displayStatus } from '@web/components/ui/status-badge';
import { formatDate, formatPercent, formatPracticeTime } from '@web/lib/format';
import { competencyKey } from '../lib/progress';

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="text-sm font-medium text-slate-900 tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** The teacher's list of a student's recent tasks; completed ones can be reviewed. */
export function RecentSubmissions({
  submissions,
  loading,
  today,
  onReview,
}: {
  submissions: readonly Submission[] | undefined;
  loading?: boolean;
  today: string;
  onReview: (s: Submission) => void;
}) {
  const { t } = useTranslation(['progress', 'common']);
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
        <ul className="divide-y divide-slate-100" data-testid="recent-submissions">
          {submissions.map((s) => {
            const title = s.exercise?.title ?? s.exercise_title;
            const reviewed = s.accuracy_score !== null || s.competency_level !== null;
            return (
              <li key={s.id} className="px-5 py-4" data-testid={`recent-${s.id}`}>
                <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-2">
                  <p className="min-w-0 flex-1 text-sm font-semibold text-slate-900">{title}</p>
                  <StatusBadge status={displayStatus(s.status, s.due_date, today)} />
                </div>
                <dl className="mt-3 grid grid-cols-3 gap-x-4 gap-y-2 lg:grid-cols-5">
                  <Fact label={t('recent.due')} value={formatDate(s.due_date)} />
                  {s.status === 'expired' && s.expiration_date ? (
                    <Fact label={t('recent.expiredSince')} value={formatDate(s.expiration_date)} />
                  ) : s.completed_at ? (
                    <Fact label={t('recent.completedAt')} value={formatDate(s.completed_at)} />
                  ) : (
                    <Fact label={t('recent.completedAt')} value="–" />
                  )}
                  <Fact label={t('recent.accuracy')} value={formatPercent(s.accuracy_score)} testId={`recent-${s.id}-accuracy`} />
                  <Fact label={t('recent.minutes')} value={formatPracticeTime(s.time_spent_minutes)} />
                  <Fact label={t('recent.level')} value={s.competency_level ? t(competencyKey(s.competency_level)) : '–'} />
                </dl>
                {s.teacher_note && (
                  <p className="mt-3 flex gap-2 text-sm text-slate-600">
                    <NotebookPen aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
                    <span>
                      <span className="font-medium text-slate-700">{t('recent.note')}: </span>
                      {s.teacher_note}
                    </span>
                  </p>
                )}
                {s.teacher_feedback && (
                  <p className="mt-2 flex gap-2 text-sm text-slate-600">
                    <MessageSquareText aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
                    <span>
                      <span className="font-medium text-slate-700">{t('recent.feedback')}: </span>
                      {s.teacher_feedback}
                    </span>
                  </p>
                )}
                {s.status === 'completed' && (
                  <div className="mt-3">
                    <Button
                      variant="secondary"
                      size="sm"
                      icon={<Star aria-hidden="true" className="size-4" />}
                      onClick={() => onReview(s)}
                      aria-label={`${reviewed ? t('recent.editReview') : t('recent.review')}: ${title}`}
                    >
                      {reviewed ? t('recent.editReview') : t('recent.review')}
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
