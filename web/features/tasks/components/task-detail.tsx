import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { Link } from 'react-router';
import { ArrowLeft, CalendarClock, CalendarX2, Check, CheckCircle2, ChevronRight, Clock, LoaderCircle, MessageSquareText, SearchX, Target } from 'lucide-react';
import type { Submission } from '@contract/submissions';
import { formatDate, formatDuration, formatPercent, formatPracticeTime } from '@web/lib/format';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/components/ui/cn';
import { Card } from '@web/components/ui/card';
import { StatusBadge, displayStatus } from '@web/components/ui/status-badge';
import { Skeleton, SkeletonText } from '@web/components/ui/skeleton';
import { Spinner } from '@web/components/ui/spinner';
import { canComplete, competencyKey } from '../lib/task-status';

export const taskTitle = (s: Submission) => s.exercise?.title ?? s.exercise_title;

/** Breadcrumb: 'Meine Aufgaben > title' for the student; 'Schüler > name > title' for the teacher. */
export function TaskBreadcrumb({ task, viewer }: { task: Submission; viewer: 'student' | 'teacher' }) {
  const { t } = useTranslation('tasks');
  const crumbs =
    viewer === 'student'
      ? [{ to: '/submissions', label: t('detail.myTasks') }]
      : [
          { to: '/students', label: t('detail.students') },
          { to: `/students/${task.student.id}`, label: task.student.name },
        ];
  return (
    <nav aria-label={t('detail.breadcrumb')} className="mb-3">
      <ol className="flex flex-wrap items-center gap-1 text-sm text-slate-500">
        {crumbs.map((c) => (
          <li key={c.to} className="flex items-center gap-1">
            <Link to={c.to} className="rounded-sm hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-slate-900">
              {c.label}
            </Link>
            <ChevronRight aria-hidden="true" className="size-4 text-slate-400" />
          </li>
        ))}
        <li aria-current="page" className="max-w-full truncate font-medium text-slate-700">
          {taskTitle(task)}
        </li>
      </ol>
    </nav>
  );
}

/** Title, status (its meaning on hover or tap) and dates. */
export function TaskHeader({ task, today }: { task: Submission; today: string }) {
  const { t } = useTranslation('tasks');
  return (
    <header className="mb-6">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{taskTitle(task)}</h1>
        <StatusBadge status={displayStatus(task.status, task.due_date, today)} explain />
      </div>
      <dl className="mt-3 flex flex-wrap gap-x-6 gap-y-2 text-sm">
        <div className="flex items-center gap-1.5">
          <CalendarClock aria-hidden="true" className="size-4 text-slate-400" />
          <dt className="text-slate-500">{t('detail.due')}:</dt>
          <dd className="font-medium text-slate-800 tabular-nums">{formatDate(task.due_date)}</dd>
        </div>
        {task.completed_at && (
          <div className="flex items-center gap-1.5">
            <CheckCircle2 aria-hidden="true" className="size-4 text-slate-400" />
            <dt className="text-slate-500">{t('detail.completed')}:</dt>
            <dd className="font-medium text-slate-800 tabular-nums">{formatDate(task.completed_at)}</dd>
          </div>
        )}
        {task.status === 'expired' && task.expiration_date && (
          <div className="flex items-center gap-1.5">
            <CalendarX2 aria-hidden="true" className="size-4 text-slate-400" />
            <dt className="text-slate-500">{t('detail.expiredSince')}:</dt>
            <dd className="font-medium text-slate-800 tabular-nums">{formatDate(task.expiration_date)}</dd>
          </div>
        )}
      </dl>
    </header>
  );
}

/** The exercise's goal (target) and estimated minutes, when the teacher set them. */
export function TaskGoal({ task }: { task: Submission }) {
  const { t } = useTranslation('tasks');
  const language = useLanguage();
  const target = task.exercise?.target?.trim();
  const minutes = task.exercise?.estimated_minutes;
  if (!target && !minutes) return null;
  return (
    <dl className="grid gap-3 rounded-xl border border-slate-200 bg-white px-5 py-4 shadow-xs sm:grid-cols-[1fr_auto]" data-testid="task-goal">
      {target && (
        <div className="min-w-0">
          <dt className="flex items-center gap-2 text-xs font-medium tracking-wide text-slate-500 uppercase">
            <Target aria-hidden="true" className="size-4 shrink-0 text-brand-600" />
            {t('detail.goal')}
          </dt>
          <dd className="mt-1 text-base font-medium text-slate-900">{target}</dd>
        </div>
      )}
      {minutes ? (
        <div>
          <dt className="flex items-center gap-2 text-xs font-medium tracking-wide text-slate-500 uppercase">
            <Clock aria-hidden="true" className="size-4 shrink-0 text-brand-600" />
            {t('detail.estimated')}
          </dt>
          <dd className="mt-1 text-base font-medium text-slate-900 tabular-nums">{t('detail.estimatedValue', { time: formatPracticeTime(minutes, language) })}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/**
 * 'Abschließen': 'Als erledigt markieren' after the practising part. Before any practice time it
 * is a quiet secondary button (the timer leads); once the student has practised it is the primary
 * action. When the task is done, the focus moves to the line that says so.
 */
export function TaskFinish({
  task,
  practised,
  completing,
  onComplete,
}: {
  task: Submission;
  practised: boolean;
  completing: boolean;
  onComplete: () => void;
}) {
  const { t } = useTranslation('tasks');
  const doneRef = useRef<HTMLParagraphElement>(null);
  const wasOpen = useRef(canComplete(task));
  const open = canComplete(task);
  useEffect(() => {
    // The button is gone once the task is done (SPEC.md): keep the keyboard user here.
    if (wasOpen.current && !open && doneRef.current && document.activeElement === document.body) doneRef.current.focus();
    wasOpen.current = open;
  }, [open]);
  if (task.status !== 'completed' && !open) return null;
  return (
    <section aria-labelledby="task-finish-title" className="rounded-xl border border-slate-200 bg-white px-5 py-4 shadow-xs" data-testid="task-finish">
      <h2 id="task-finish-title" className="text-base font-semibold text-slate-900">
        {t('detail.finishTitle')}
      </h2>
      {open ? (
        <>
          <p className="mt-1 text-sm text-slate-600">{practised ? t('detail.finishText') : t('detail.finishBeforePractice')}</p>
          <Button
            size="lg"
            variant={practised ? 'primary' : 'secondary'}
            className="mt-4 h-14 w-full px-6 text-base sm:w-auto"
            icon={completing ? <LoaderCircle aria-hidden="true" className="size-5 animate-spin" /> : <Check aria-hidden="true" className="size-5" />}
            aria-disabled={completing || undefined}
            aria-busy={completing || undefined}
            onClick={() => {
              if (!completing) onComplete();
            }}
            data-testid="complete-task"
          >
            {completing ? t('complete.busy') : t('complete.action')}
          </Button>
        </>
      ) : (
        <p ref={doneRef} tabIndex={-1} className="mt-1 flex items-center gap-2 text-sm font-medium text-slate-700 outline-none" data-testid="task-done">
          <CheckCircle2 aria-hidden="true" className="size-5 text-emerald-600" />
          {t('detail.doneText')}
        </p>
      )}
    </section>
  );
}

/** 'Aufgabenbeschreibung' with its fallback text. */
export function TaskDescription({ task }: { task: Submission }) {
  const { t } = useTranslation('tasks');
  const text = task.exercise?.description?.trim();
  return (
    <Card className="px-5 py-4">
      <h2 className="mb-2 text-base font-semibold text-slate-900">{t('detail.descriptionTitle')}</h2>
      {text ? (
        <p className="text-sm leading-relaxed whitespace-pre-line wrap-anywhere text-slate-700">{text}</p>
      ) : (
        <p className="text-sm text-slate-500 italic">{t('detail.noDescription')}</p>
      )}
    </Card>
  );
}

/**
 * A note's or a feedback's text. On a phone at most three lines, with 'Ganzen Text zeigen' when it
 * is longer: a long note and a long feedback must not push the practice screen's first screen
 * (what to play, the newest feedback, the tools) below the fold (docs/decisions/practice-screen.md).
 * Whole from lg, where they sit in a column of their own.
 */
function NoteText({ text, className }: { text: string; className: string }) {
  const { t } = useTranslation('tasks');
  const id = useId();
  const [whole, setWhole] = useState(false);
  const [overflows, setOverflows] = useState(false);
  // Whether the clamped text hides lines, again whenever its box changes (a turned phone, a font)
  // and for a new text (keyed below: a new text of the same three-line box would not resize it).
  const watch = (el: HTMLParagraphElement | null) => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setOverflows(el.scrollHeight > el.clientHeight + 1));
    observer.observe(el);
    return () => observer.disconnect();
  };
  return (
    <>
      <p key={text} ref={watch} id={id} className={cn('text-sm whitespace-pre-line wrap-anywhere', className, !whole && 'line-clamp-3 lg:line-clamp-none')}>
        {text}
      </p>
      {(whole || overflows) && (
        <button
          type="button"
          aria-expanded={whole}
          aria-controls={id}
          onClick={() => setWhole((v) => !v)}
          className="mt-1 rounded-sm text-sm font-medium text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-slate-900 lg:hidden"
        >
          {whole ? t('detail.shorterText') : t('detail.wholeText')}
        </button>
      )}
    </>
  );
}

/** 'Notiz vom Lehrer' and the teacher's feedback, when present; `show` picks one of them. */
export function TaskNotes({ task, show = 'both' }: { task: Submission; show?: 'both' | 'note' | 'feedback' }) {
  const { t } = useTranslation('tasks');
  const note = show !== 'feedback' ? task.teacher_note : null;
  const feedback = show !== 'note' ? task.teacher_feedback : null;
  if (!note && !feedback) return null;
  return (
    <div className="space-y-4">
      {note && (
        <Card className="border-amber-200 bg-amber-50/60 px-5 py-4" data-testid="teacher-note">
          <h2 className="mb-1.5 flex items-center gap-2 text-sm font-semibold text-amber-900">
            <MessageSquareText aria-hidden="true" className="size-4" />
            {t('detail.teacherNote')}
          </h2>
          <NoteText text={note} className="text-slate-800" />
        </Card>
      )}
      {feedback && (
        <Card className="px-5 py-4" data-testid="teacher-feedback">
          <h2 className="mb-1.5 flex items-center gap-2 text-sm font-semibold text-slate-900">
            <MessageSquareText aria-hidden="true" className="size-4 text-brand-600" />
            {t('detail.teacherFeedback')}
          </h2>
          <NoteText text={feedback} className="text-slate-700" />
        </Card>
      )}
    </div>
  );
}

/** Details box: created date, accuracy, practised time and competency level (each if set). */
export function TaskFacts({ task, viewer }: { task: Submission; viewer: 'student' | 'teacher' }) {
  const { t } = useTranslation('tasks');
  const language = useLanguage();
  const rows: { label: string; value: string; testId?: string }[] = [];
  if (viewer === 'teacher') rows.push({ label: t('detail.student'), value: task.student.name });
  rows.push({ label: t('detail.created'), value: formatDate(task.created_at) });
  if (task.accuracy_score !== null) rows.push({ label: t('detail.accuracy'), value: formatPercent(task.accuracy_score, language) });
  if (task.time_spent_minutes > 0) rows.push({ label: t('detail.timeSpent'), value: formatDuration(task.time_spent_minutes, language), testId: 'time-spent' });
  if (task.competency_level) rows.push({ label: t('detail.competency'), value: t(competencyKey(task.competency_level)) });
  return (
    <Card className="px-5 py-4">
      <h2 className="mb-3 text-base font-semibold text-slate-900">{t('detail.detailsTitle')}</h2>
      <dl className="divide-y divide-slate-100 text-sm">
        {rows.map((r) => (
          <div key={r.label} className="flex items-center justify-between gap-4 py-2">
            <dt className="text-slate-500">{r.label}</dt>
            <dd className="text-right font-medium text-slate-900 tabular-nums" data-testid={r.testId}>
              {r.value}
            </dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** The not-found panel: 'Aufgabe nicht gefunden' with the reason and a link back. */
export function TaskNotFound({ message, viewer }: { message: string; viewer: 'student' | 'teacher' }) {
  const { t } = useTranslation('tasks');
  return (
    <div className="mx-auto max-w-lg rounded-xl border border-slate-200 bg-white px-6 py-12 text-center" data-testid="task-not-found">
      <div className="mx-auto mb-4 flex size-12 items-center justify-center rounded-full bg-slate-100">
        <SearchX aria-hidden="true" className="size-6 text-slate-500" />
      </div>
      <h1 className="text-lg font-semibold text-slate-900">{t('detail.notFoundTitle')}</h1>
      <p className="mt-1 text-sm text-slate-600">{message}</p>
      <p className="mt-1 text-sm text-slate-500">{t('detail.notFoundText')}</p>
      <Link
        to={viewer === 'student' ? '/submissions' : '/'}
        className="mt-6 inline-flex h-10 items-center gap-2 rounded-lg bg-brand-600 px-4 text-sm font-medium text-white hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {viewer === 'student' ? t('detail.backToTasks') : t('detail.backToDashboard')}
      </Link>
    </div>
  );
}

/** The shape of the detail screen while it loads (no layout jump). */
export function TaskDetailSkeleton() {
  const { t } = useTranslation('tasks');
  return (
    <div aria-busy="true">
      <div className="mb-3 flex items-center gap-3">
        <Spinner size="sm" label={t('detail.loading')} />
        <Skeleton className="h-4 w-48" />
      </div>
      <Skeleton className="mb-3 h-8 w-2/3" />
      <Skeleton className="mb-6 h-4 w-1/3" />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Skeleton className="h-72 w-full rounded-xl" />
          <div className="rounded-xl border border-slate-200 bg-white p-5">
            <SkeletonText lines={4} />
          </div>
        </div>
        <Skeleton className="h-48 w-full rounded-xl" />
      </div>
    </div>
  );
}
