import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { Link } from 'react-router';
import { Dialog, DialogBackdrop, DialogPanel, DialogTitle } from '@headlessui/react';
import { AlertTriangle, ArrowRight, NotebookPen, UserRound, X } from 'lucide-react';
import type { ReviewBody } from '@contract/metrics';
import type { Submission } from '@contract/submissions';
import { Skeleton } from '@web/components/ui/skeleton';
import { StatusBadge, displayStatus } from '@web/components/ui/status-badge';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { formatDate, formatPercent } from '@web/lib/format';
import { useSubmission } from '@web/features/tasks/api/submissions';
import { useSessions } from '@web/features/practice/api/practice-sessions';
import { SessionList } from '@web/features/practice/components/session-list';
import { useReviewSubmission } from '@web/features/progress/api/progress';
import { ReviewForm } from '@web/features/progress/components/review-dialog';
import { competencyKey } from '@web/lib/competency';
import { localToday } from '@web/lib/today';

/**
 * The teacher's side panel of one task (a slide-over from the right): student, exercise, dates,
 * status, its practice sessions and the review form, with a link to the full task view. Opened
 * from the calendar, the agenda and the student page; `submissionId` null = closed.
 */
export function TaskPanel({ submissionId: id, onClose }: { submissionId: number | null; onClose: () => void }) {
  const { t } = useTranslation('dashboard');
  return (
    <Dialog open={id !== null} onClose={onClose} className="fixed inset-0 z-50">
      {/* Slides in with CSS alone and closes at once: docs/decisions/dialogs.md */}
      <DialogBackdrop className="fixed inset-0 bg-slate-900/40 transition-opacity duration-200 starting:opacity-0 motion-reduce:transition-none" />
      <div className="fixed inset-y-0 right-0 flex w-full max-w-md pl-6 sm:pl-10">
        <DialogPanel
          data-testid="task-panel"
          className="flex h-full w-full flex-col bg-white shadow-2xl ring-1 ring-slate-900/5 transition duration-200 ease-out starting:translate-x-full motion-reduce:transition-none"
        >
          <div className="flex items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
            <div className="min-w-0">
              <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">{t('panel.title')}</p>
              {id !== null ? <PanelTitle id={id} /> : <DialogTitle className="sr-only">{t('panel.title')}</DialogTitle>}
            </div>
            <button
              type="button"
              onClick={onClose}
              aria-label={t('panel.close')}
              className="-mr-2 inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-brand-600"
            >
              <X aria-hidden="true" className="size-5" />
            </button>
          </div>
          {id !== null && <PanelBody key={id} id={id} />}
        </DialogPanel>
      </div>
    </Dialog>
  );
}

function PanelTitle({ id }: { id: number }) {
  const { t } = useTranslation('dashboard');
  const task = useSubmission(id);
  const title = task.data ? (task.data.exercise?.title ?? task.data.exercise_title) : t('panel.title');
  return <DialogTitle className="mt-0.5 text-lg leading-snug font-semibold text-slate-900">{title}</DialogTitle>;
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium text-slate-900 tabular-nums">{children}</dd>
    </div>
  );
}

function PanelBody({ id }: { id: number }) {
  const { t } = useTranslation(['dashboard', 'progress', 'common']);
  const toast = useToast();
  const query = useSubmission(id);
  const task = query.data;
  const sessions = useSessions(id);
  const review = useReviewSubmission(task?.student.id ?? 0);

  if (query.isPending) {
    return (
      <div className="space-y-4 px-5 py-5" aria-busy="true">
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="h-16 w-full" />
        <Skeleton className="h-24 w-full" />
      </div>
    );
  }
  if (query.isError || !task) {
    return (
      <p role="alert" className="m-5 flex items-center gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800">
        <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
        {t('dashboard:panel.loadError')}
      </p>
    );
  }

  async function save(body: ReviewBody) {
    try {
      await review.mutateAsync({ id, body });
      toast.success(t('progress:review.success'));
    } catch (err) {
      if (!isApiError(err, 422)) toast.error(t('progress:review.error'));
      throw err;
    }
  }

  return (
    <>
      <div className="min-h-0 flex-1 space-y-6 overflow-y-auto px-5 py-5">
        <TaskSummary task={task} />
        <section aria-labelledby="task-panel-sessions" className="border-t border-slate-100 pt-5">
          <h3 id="task-panel-sessions" className="sr-only">
            {t('dashboard:panel.sessions')}
          </h3>
          <SessionList sessions={sessions.data} loading={sessions.isPending} failed={sessions.isError} emptyText={t('dashboard:panel.sessionsEmpty')} />
        </section>
        <section aria-labelledby="task-panel-review" className="border-t border-slate-100 pt-5">
          <h3 id="task-panel-review" className="text-sm font-semibold text-slate-900">
            {t('dashboard:panel.review')}
          </h3>
          <p className="mt-0.5 mb-3 text-sm text-slate-500">{t('dashboard:panel.reviewHint')}</p>
          <ReviewForm submission={task} onSave={save} saving={review.isPending} />
        </section>
      </div>
      <div className="border-t border-slate-100 bg-slate-50 px-5 py-3">
        <Link
          to={`/submissions/${task.id}`}
          className="inline-flex h-11 w-full items-center justify-center gap-2 rounded-lg bg-white px-4 text-sm font-semibold text-brand-700 shadow-xs ring-1 ring-slate-300 ring-inset hover:bg-brand-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
        >
          {t('dashboard:panel.openTask')}
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
    </>
  );
}

/** Student, status and dates of a task (shared by the panel and the teacher's task view). */
export function TaskSummary({ task }: { task: Submission }) {
  const { t } = useTranslation(['dashboard', 'progress']);
  const language = useLanguage();
  const today = localToday();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link
          to={`/students/${task.student.id}`}
          className="inline-flex min-h-11 items-center gap-2 rounded-md text-sm font-semibold text-slate-900 hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
          aria-label={t('dashboard:panel.studentPage', { name: task.student.name })}
        >
          <UserRound aria-hidden="true" className="size-4 text-slate-400" />
          {task.student.name}
        </Link>
        <StatusBadge status={displayStatus(task.status, task.due_date, today)} />
      </div>
      <dl className="grid grid-cols-2 gap-x-4 gap-y-3">
        <Fact label={t('dashboard:panel.due')}>{formatDate(task.due_date)}</Fact>
        {task.completed_at ? (
          <Fact label={t('dashboard:panel.completed')}>{formatDate(task.completed_at)}</Fact>
        ) : task.expiration_date ? (
          <Fact label={task.status === 'expired' ? t('dashboard:panel.expiredSince') : t('dashboard:panel.expires')}>{formatDate(task.expiration_date)}</Fact>
        ) : null}
        {task.accuracy_score !== null && <Fact label={t('progress:recent.accuracy')}>{formatPercent(task.accuracy_score, language)}</Fact>}
        {task.competency_level && <Fact label={t('progress:recent.level')}>{t(`progress:${competencyKey(task.competency_level)}`)}</Fact>}
      </dl>
      {task.teacher_note && (
        <p className="flex gap-2 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">
          <NotebookPen aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
          <span>
            <span className="font-medium">{t('dashboard:panel.note')}: </span>
            {task.teacher_note}
          </span>
        </p>
      )}
    </div>
  );
}
