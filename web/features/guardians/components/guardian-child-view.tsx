import '@web/features/guardians/i18n';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { Link } from 'react-router';
import { AlertTriangle, ArrowLeft, CheckCircle2, ChevronDown, ChevronUp, ClipboardList, Clock, Eye, Flame, Layers, MessageSquareText, Mic, NotebookPen, Percent, Repeat, RotateCcw, Timer, UserX } from 'lucide-react';
import { GUARDIAN_RECORDINGS_MAX, GUARDIAN_TASK_DAYS } from '@contract/guardians-limits';
import type { GuardianChildDetail } from '@contract/guardians';
import type { ProgressPoint } from '@contract/metrics';
import type { Recording } from '@contract/recordings';
import type { Submission, TaskSeries } from '@contract/submissions';
import { Badge } from '@web/components/ui/badge';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { StatCard } from '@web/components/ui/stat-card';
import { PersonHeader } from '@web/components/ui/person-header';
import { StatusBadge, displayStatus } from '@web/components/ui/status-badge';
import { isApiError } from '@web/lib/api';
import { formatDate, formatPercent, formatPracticeTime } from '@web/lib/format';
import { useGuardianChild } from '../api/guardians';
import { shiftDate, splitTasks } from '../lib/child-tasks';
import { localToday } from '@web/lib/today';
import { byIso } from '@web/lib/order';

export type GuardianChildViewProps = {
  /** The child's id from the address; null for an address that cannot be an id. */
  childId: number | null;
  /** The practice minutes of the last 30 days as a chart (another feature's component, given by the screen). */
  renderChart: (points: readonly ProgressPoint[]) => ReactNode;
  /** One recording, read-only, with its player and the teacher's comments (given by the screen). */
  renderRecording: (recording: Recording) => ReactNode;
};

function BackLink() {
  const { t } = useTranslation('guardians');
  return (
    <Link to="/" className="inline-flex min-h-11 items-center gap-1.5 rounded text-sm font-medium text-slate-600 hover:text-slate-900 sm:min-h-0">
      <ArrowLeft aria-hidden="true" className="size-4" />
      {t('child.back')}
    </Link>
  );
}

/** 404 (not linked, not existing, removed meanwhile) or a bad id: the same panel, with the way back. */
function NotFound() {
  const { t } = useTranslation('guardians');
  return (
    <div className="mx-auto max-w-lg py-10">
      <Card className="flex flex-col items-center px-6 py-12 text-center" data-testid="guardian-child-not-found">
        <div className="mb-4 flex size-12 items-center justify-center rounded-full bg-slate-100">
          <UserX aria-hidden="true" className="size-6 text-slate-500" />
        </div>
        <h1 className="text-lg font-semibold text-slate-900">{t('child.notFoundTitle')}</h1>
        <p className="mt-1 text-sm text-slate-600">{t('child.notFoundText')}</p>
        <div className="mt-6">
          <BackLink />
        </div>
      </Card>
    </div>
  );
}

/**
 * One child for their guardian (/children/{id}, docs/decisions/schools-and-roles.md), read-only: name and teacher; streak,
 * minutes of the last 7 days, practice sessions and completion rate; the 30-day chart; the tasks of
 * the window with status, the teacher's note, feedback and accuracy; the latest recordings with
 * the teacher's comments. No control that changes anything.
 */
export function GuardianChildView({ childId, renderChart, renderRecording }: GuardianChildViewProps) {
  if (childId === null) return <NotFound />;
  return <ChildPage childId={childId} renderChart={renderChart} renderRecording={renderRecording} />;
}

function ChildPage({ childId, renderChart, renderRecording }: GuardianChildViewProps & { childId: number }) {
  const { t } = useTranslation(['guardians', 'common']);
  const language = useLanguage();
  const query = useGuardianChild(childId);
  if (isApiError(query.error, 404) || isApiError(query.error, 403)) return <NotFound />;
  const d = query.data;
  const dash = '–';

  return (
    <div data-testid="guardian-child">
      <div className="mb-4">
        <BackLink />
      </div>
      <PersonHeader
        name={d ? d.child.name : null}
        nameTestId="child-name"
        loadingLabel={t('child.loading')}
        subtitle={
          d && (
            <p className="truncate text-sm text-slate-600" data-testid="child-teacher" title={t('child.teacher', { name: d.child.teacher.name })}>
              {t('child.teacher', { name: d.child.teacher.name })}
            </p>
          )
        }
      >
        <Badge tone="neutral" className="self-start px-3 py-1 text-sm sm:self-auto">
          <Eye aria-hidden="true" className="size-4" />
          {t('child.readOnly')}
        </Badge>
      </PersonHeader>

      {query.isError && (
        <div role="alert" className="mb-6 flex flex-col gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="guardian-child-error">
          <p className="flex items-center gap-2 text-sm font-medium text-red-800">
            <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
            {t('child.error')}
          </p>
          <Button variant="secondary" size="sm" icon={<RotateCcw aria-hidden="true" className="size-4" />} loading={query.isFetching} onClick={() => void query.refetch()}>
            {t('common:actions.retry')}
          </Button>
        </div>
      )}

      {!query.isError && (
        <>
          <section aria-label={t('child.kpis')} className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
            <StatCard
              label={t('child.streak')}
              value={d ? t('days', { count: d.metrics.current_streak }) : dash}
              icon={Flame}
              tone="brand"
              loading={query.isPending}
              testId="kpi-streak"
            />
            <StatCard
              label={t('child.week')}
              value={d ? formatPracticeTime(d.metrics.weekly_practice_time_minutes, language) : dash}
              icon={Timer}
              tone="green"
              loading={query.isPending}
              testId="kpi-week"
            />
            <StatCard label={t('child.sessions')} value={d?.metrics.total_practice_sessions ?? dash} icon={Layers} tone="neutral" loading={query.isPending} testId="kpi-sessions" />
            <StatCard
              label={t('child.completionRate')}
              value={d ? formatPercent(d.metrics.overall_metrics.completion_rate, language) : dash}
              hint={t('child.completionHint')}
              icon={Percent}
              tone="amber"
              loading={query.isPending}
              testId="kpi-rate"
            />
          </section>

          <div className="mt-6">{d ? renderChart(d.metrics.progress_data) : <ChartSkeleton />}</div>

          <div className="mt-6 grid grid-cols-1 gap-6 xl:grid-cols-2">
            <ChildTasks detail={d} />
            <ChildRecordings detail={d} renderRecording={renderRecording} />
          </div>
        </>
      )}
    </div>
  );
}

/** The chart's place while the data loads: the size of the chart card (no jump). */
export function ChartSkeleton() {
  return <Skeleton className="h-[22rem] w-full rounded-xl sm:h-[24rem]" />;
}

function ListSkeleton() {
  return (
    <ul aria-hidden="true" className="divide-y divide-slate-100">
      {Array.from({ length: 3 }, (_, i) => (
        <li key={i} className="space-y-2 px-5 py-4">
          <div className="flex justify-between gap-3">
            <Skeleton className="h-4 w-1/2" />
            <Skeleton className="h-5 w-16 rounded-full" />
          </div>
          <Skeleton className="h-3.5 w-1/3" />
        </li>
      ))}
    </ul>
  );
}

function Empty({ icon: Icon, title, text }: { icon: typeof ClipboardList; title: string; text: string }) {
  return (
    <div className="flex flex-col items-center px-5 py-10 text-center">
      <Icon aria-hidden="true" className="mb-2 size-6 text-slate-400" />
      <p className="text-sm font-medium text-slate-700">{title}</p>
      <p className="mt-1 max-w-sm text-sm text-slate-500">{text}</p>
    </div>
  );
}

/** The past tasks shown before 'show all' (the latest ones): the page stays short on a phone. */
export const PAST_TASKS_SHOWN = 5;

function ChildTasks({ detail }: { detail: GuardianChildDetail | undefined }) {
  const { t } = useTranslation('guardians');
  const today = localToday();
  // Still to come: one item per series (a daily task once, with today's progress and its streak,
  // docs/decisions/done-means-practised.md); what lies behind: each date, with its feedback.
  const groups = useMemo(() => {
    if (!detail) return null;
    const upcoming = [...detail.series].sort((a, b) => byIso(a.current.due_date, b.current.due_date) || a.current.id - b.current.id);
    return { upcoming, past: splitTasks(detail.submissions, today).past };
  }, [detail, today]);
  const [allPast, setAllPast] = useState(false);
  const listId = useId();
  return (
    <Card className="min-w-0 self-start">
      <CardHeader
        title={t('child.tasksTitle')}
        description={t('child.tasksSubtitle', { from: formatDate(shiftDate(today, -GUARDIAN_TASK_DAYS.back)), to: formatDate(shiftDate(today, GUARDIAN_TASK_DAYS.ahead)) })}
      />
      {!groups ? (
        <ListSkeleton />
      ) : groups.upcoming.length + groups.past.length === 0 ? (
        <Empty icon={ClipboardList} title={t('child.tasksEmpty')} text={t('child.tasksEmptyText')} />
      ) : (
        <div data-testid="child-tasks">
          {groups.upcoming.length > 0 && (
            <section aria-labelledby="child-tasks-upcoming">
              <h3 id="child-tasks-upcoming" className="border-y border-slate-100 bg-slate-50 px-5 py-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                {t('child.upcoming')}
              </h3>
              <ul id={`${listId}-upcoming`} className="divide-y divide-slate-100">
                {groups.upcoming.map((item) => (
                  <SeriesItem key={item.series_id} series={item} today={today} />
                ))}
              </ul>
            </section>
          )}
          {(['past'] as const).map((key) =>
            groups[key].length === 0 ? null : (
              <section key={key} aria-labelledby={`child-tasks-${key}`}>
                <h3 id={`child-tasks-${key}`} className="border-y border-slate-100 bg-slate-50 px-5 py-2 text-xs font-semibold tracking-wide text-slate-600 uppercase">
                  {t(`child.${key}`)}
                </h3>
                <ul id={`${listId}-${key}`} className="divide-y divide-slate-100">
                  {(!allPast ? groups.past.slice(0, PAST_TASKS_SHOWN) : groups[key]).map((s) => (
                    <TaskItem key={s.id} submission={s} today={today} />
                  ))}
                </ul>
                {groups.past.length > PAST_TASKS_SHOWN && (
                  <div className="border-t border-slate-100 px-5 py-3">
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-expanded={allPast}
                      aria-controls={`${listId}-past`}
                      icon={allPast ? <ChevronUp aria-hidden="true" className="size-4" /> : <ChevronDown aria-hidden="true" className="size-4" />}
                      onClick={() => setAllPast((v) => !v)}
                      data-testid="child-tasks-toggle"
                    >
                      {allPast ? t('child.showLess') : t('child.showAllPast', { count: groups.past.length })}
                    </Button>
                  </div>
                )}
              </section>
            ),
          )}
        </div>
      )}
    </Card>
  );
}

/** A task still to come, once per series: its next date, today's minutes or 'done today', how many dates are done and the streak. */
function SeriesItem({ series: item, today }: { series: TaskSeries; today: string }) {
  const { t } = useTranslation('guardians');
  const language = useLanguage();
  const s = item.current;
  const title = s.exercise?.title ?? s.exercise_title;
  const repeating = item.occurrences > 1;
  return (
    <li className="px-5 py-4" data-testid="child-series" data-series-id={item.series_id} data-task-id={s.id}>
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <h4 className="min-w-0 flex-1 basis-40 font-semibold break-words text-slate-900">{title}</h4>
        <StatusBadge status={displayStatus(s.status, s.due_date, today)} />
      </div>
      <p className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600 tabular-nums">
        <span>{t(repeating ? 'child.nextDue' : 'child.due', { date: formatDate(s.due_date) })}</span>
      </p>
      {(item.today || repeating) && (
        <p className="mt-1.5 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-slate-700" data-testid="child-series-progress">
          {item.today &&
            (item.today.done ? (
              <span className="inline-flex items-center gap-1.5 font-medium text-emerald-700">
                <CheckCircle2 aria-hidden="true" className="size-4" />
                {t('child.todayDone')}
              </span>
            ) : (
              <span className="inline-flex items-center gap-1.5 tabular-nums">
                <Clock aria-hidden="true" className="size-4 text-slate-400" />
                {item.today.time_spent_minutes > 0 ? t('child.todayMinutes', { time: formatPracticeTime(item.today.time_spent_minutes, language) }) : t('child.todayNone')}
              </span>
            ))}
          {repeating && (
            <span className="inline-flex items-center gap-1.5 tabular-nums">
              <Repeat aria-hidden="true" className="size-4 text-slate-400" />
              {t('child.repeats', { done: item.completed, count: item.occurrences })}
            </span>
          )}
          {repeating && (
            <span className="inline-flex items-center gap-1.5 tabular-nums" data-testid="child-series-streak">
              <Flame aria-hidden="true" className="size-4 text-brand-600" />
              {t('child.seriesStreak', { count: item.streak })}
            </span>
          )}
        </p>
      )}
      {s.teacher_note && (
        <p className="mt-2 flex gap-1.5 text-sm text-slate-700">
          <NotebookPen aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
          <span>
            <span className="font-medium text-slate-800">{t('child.note')}: </span>
            {s.teacher_note}
          </span>
        </p>
      )}
    </li>
  );
}

function TaskItem({ submission: s, today }: { submission: Submission; today: string }) {
  const { t } = useTranslation('guardians');
  const language = useLanguage();
  const title = s.exercise?.title ?? s.exercise_title;
  const reviewed = s.teacher_feedback || s.accuracy_score !== null || s.competency_level !== null;
  return (
    <li className="px-5 py-4" data-testid="child-task" data-task-id={s.id}>
      <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
        <h4 className="min-w-0 flex-1 basis-40 font-semibold break-words text-slate-900">{title}</h4>
        <StatusBadge status={displayStatus(s.status, s.due_date, today)} />
      </div>
      <p className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-slate-600 tabular-nums">
        <span>{t('child.due', { date: formatDate(s.due_date) })}</span>
        {s.completed_at && <span>{t('child.completedAt', { date: formatDate(s.completed_at) })}</span>}
        {s.time_spent_minutes > 0 && (
          <span>
            {t('child.practiced')}: {formatPracticeTime(s.time_spent_minutes, language)}
          </span>
        )}
      </p>
      {s.teacher_note && (
        <p className="mt-2 flex gap-1.5 text-sm text-slate-700">
          <NotebookPen aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-400" />
          <span>
            <span className="font-medium text-slate-800">{t('child.note')}: </span>
            {s.teacher_note}
          </span>
        </p>
      )}
      {reviewed && (
        <div className="mt-3 rounded-lg bg-brand-50/60 px-3 py-2.5 ring-1 ring-brand-100 ring-inset" data-testid="child-task-feedback">
          {s.teacher_feedback && (
            <p className="flex gap-1.5 text-sm text-slate-800">
              <MessageSquareText aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
              <span>
                <span className="font-medium">{t('child.feedback')}: </span>
                <span className="whitespace-pre-line wrap-anywhere">{s.teacher_feedback}</span>
              </span>
            </p>
          )}
          {(s.accuracy_score !== null || s.competency_level) && (
            <dl className="mt-1.5 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-700 first:mt-0">
              {s.accuracy_score !== null && (
                <div className="flex gap-1">
                  <dt>{t('child.accuracy')}:</dt>
                  <dd className="font-semibold tabular-nums" data-testid="child-task-accuracy">
                    {formatPercent(s.accuracy_score, language)}
                  </dd>
                </div>
              )}
              {s.competency_level && (
                <div className="flex gap-1">
                  <dt>{t('child.level')}:</dt>
                  <dd className="font-semibold">{t(`competency.${s.competency_level}`)}</dd>
                </div>
              )}
            </dl>
          )}
        </div>
      )}
    </li>
  );
}

function ChildRecordings({ detail, renderRecording }: { detail: GuardianChildDetail | undefined; renderRecording: (r: Recording) => ReactNode }) {
  const { t } = useTranslation('guardians');
  return (
    <Card className="min-w-0 self-start">
      <CardHeader title={t('child.recordingsTitle')} description={t('child.recordingsSubtitle', { count: GUARDIAN_RECORDINGS_MAX })} />
      {!detail ? (
        <ListSkeleton />
      ) : detail.recordings.length === 0 ? (
        <Empty icon={Mic} title={t('child.recordingsEmpty')} text={t('child.recordingsEmptyText')} />
      ) : (
        <ul className="space-y-4 p-4 sm:p-5" data-testid="child-recordings">
          {detail.recordings.map((r) => (
            <li key={r.id}>{renderRecording(r)}</li>
          ))}
        </ul>
      )}
    </Card>
  );
}
