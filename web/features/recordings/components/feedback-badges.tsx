import '@web/features/recordings/i18n';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CloudUpload, MessageSquareText } from 'lucide-react';
import { useInboxCount, useNewFeedbackCount } from '../api/recordings';
import { feedbackHref } from '@web/lib/feedback-landing';
import { usePendingTakes } from '../lib/uploads';

/** The count of 'Zu prüfen' on the teacher's navigation item (nothing at 0). */
export function InboxCountBadge({ courseId }: { courseId: number | null }) {
  const { t } = useTranslation('recordings');
  const count = useInboxCount(courseId);
  if (!count.data) return null;
  return (
    <span className="ml-auto inline-flex min-w-6 items-center justify-center rounded-full bg-brand-600 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums" data-testid="inbox-badge">
      <span aria-hidden="true">{count.data > 99 ? '99+' : count.data}</span>
      <span className="sr-only">{t('inbox.count', { count: count.data })}</span>
    </span>
  );
}

/** The student's home: new feedback on recordings, and takes still waiting on this device. */
export function StudentRecordingNotes({ userId }: { userId: number | null }) {
  const { t } = useTranslation('recordings');
  const feedback = useNewFeedbackCount(userId !== null);
  const pending = usePendingTakes(userId);
  const n = feedback.data?.count ?? 0;
  // the take with the newest feedback, at its newest comment, playing from there
  const latest = feedback.data?.latest ?? null;
  if (n === 0 && pending.length === 0) return null;
  const first = pending[0];
  return (
    <div className="mb-6 space-y-3">
      {n > 0 && (
        <Link
          to={latest ? feedbackHref(`/submissions/${latest.submission_id}`, latest) : '/submissions'}
          className="flex items-center gap-3 rounded-xl border border-violet-200 bg-violet-50 px-4 py-3 text-sm font-medium text-violet-900 hover:bg-violet-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
          data-testid="new-feedback-note"
        >
          <MessageSquareText aria-hidden="true" className="size-5 shrink-0" />
          <span className="flex-1">{t('feedback.home', { count: n })}</span>
          <span className="text-violet-800 underline underline-offset-2">{t('feedback.open')}</span>
        </Link>
      )}
      {first && (
        <Link
          to={`/submissions/${first.submissionId}`}
          className="flex items-center gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
          data-testid="pending-note"
        >
          <CloudUpload aria-hidden="true" className="size-5 shrink-0" />
          <span className="flex-1">{t('pending.home', { count: pending.length, title: first.title })}</span>
          <span className="underline underline-offset-2">{t('pending.retry')}</span>
        </Link>
      )}
    </div>
  );
}
