import { useCallback, useDeferredValue, useEffect, useRef } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@web/lib/auth/auth-provider';
import { useToast } from '@web/components/ui/toast';
import { taskKeys, useSubmission } from '@web/features/tasks/api/submissions';
import { loadErrorKey, localToday } from '@web/features/tasks/lib/task-status';
import { useMarkDone } from '@web/features/tasks/components/use-mark-done';
import { activeSessionQueryOptions } from '@web/features/practice/api/practice-sessions';
import {
  TaskBreadcrumb,
  TaskDescription,
  TaskDetailSkeleton,
  TaskFacts,
  TaskFinish,
  TaskGoal,
  TaskHeader,
  TaskNotFound,
  TaskNotes,
  taskTitle,
} from '@web/features/tasks/components/task-detail';
import { Skeleton } from '@web/components/ui/skeleton';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';
import { WhenVisible } from '@web/components/ui/when-visible';
import { OfflineNotice } from '@web/components/offline-notice';
import { PracticeTimer } from '@web/features/practice/components/practice-timer';
import { PracticeHistory } from '@web/features/practice/components/practice-history';
import { MediaSection } from '@web/features/media/components/media-section';
import { ScoreView } from '@web/features/media/components/score-view';
import { RunRecorder } from '@web/features/recordings/components/run-recorder';
import { LatestFeedback } from '@web/features/recordings/components/latest-feedback';
import { usePendingTakes } from '@web/features/recordings/lib/uploads';
import { useRecordings } from '@web/features/recordings/api/recordings';
import { ToolsDock } from '@web/features/tools/components/tools-dock';
import { settingsSummary } from '@web/lib/music-names';
import { clearPracticeTempo } from '@web/lib/practice-tempo';
import { cn } from '@web/components/ui/cn';
import { SettingsSummary } from '@web/components/settings-summary';
import type { Submission } from '@contract/submissions';
import { analysisOptions, StudentAnalysisView, takeSummarySlot, TeacherAnalysisView } from '../compositions/listening-slots';
import { registerListening } from '../listening-wiring';
import { MessageAboutTake, MessageTeacherLink } from '../compositions/message-links';

// A take sent from this screen sends its pitch track after it (docs/decisions/listening.md).
registerListening();

// Only a teacher sees these (and its confirmation dialog): not in the student's chunk.
const TeacherTaskActions = lazyPart(() => import('@web/features/tasks/components/teacher-task-actions').then((m) => ({ default: m.TeacherTaskActions })));
const TeacherReviewCard = lazyPart(() => import('@web/features/progress/components/teacher-review-card').then((m) => ({ default: m.TeacherReviewCard })));
// The takes with their players, comments and the full recorder: below the practice screen's first
// screen, so a chunk of its own that the first load does not wait for (the router asks for it
// beside a teacher's task, where it leads; docs/decisions/first-load-on-a-phone.md).
const RecordingsSection = lazyPart(() => import('@web/features/recordings/components/recordings-section').then((m) => ({ default: m.RecordingsSection })));

const parseId = (raw: string | undefined) => (raw && /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2147483647 ? Number(raw) : null);

/**
 * /submissions/:id – the task detail. The student practises (the practice screen), records runs
 * and marks it done; a teacher sees the same task of one of their students read-only (no timer,
 * no button), with the practice history.
 */
export default function SubmissionDetailScreen() {
  const { t } = useTranslation('tasks');
  const toast = useToast();
  const { isTeacher, user } = useAuth();
  const viewer = isTeacher ? 'teacher' : 'student';
  const id = parseId(useParams().id);
  // The takes are drawn at once, not only when scrolled to, when a "Neues Feedback" link lands on
  // one (?take=…) and while a take of this task waits on this device to be sent.
  const landsOnTake = useSearchParams()[0].has('take');
  const waitingTakes = usePendingTakes(isTeacher ? null : (user?.id ?? null), id ?? undefined).length > 0;
  const query = useSubmission(id ?? 0, id !== null);
  const { markDone, pendingId } = useMarkDone();
  // the session the timer shows as running (read from its cache, not fetched again): its minutes count as practised
  const active = useQuery({ ...activeSessionQueryOptions(id ?? 0), enabled: false });
  const queryClient = useQueryClient();
  const today = localToday();
  // What lies below the practice controls on a phone (the recordings, finishing, the description,
  // the media, the details) is drawn from a deferred value: React draws it in the background, in
  // slices that yield to input, after the controls have painted. Nothing drawn first moves when it
  // arrives (docs/decisions/react-dom-again.md).
  const restDrawn = useDeferredValue(query.data !== undefined, false);

  // The written feedback's card, where 'Neuestes Feedback' leads when no take has a comment.
  const writtenFeedback = useRef<HTMLDivElement>(null);

  // One toast per failed load with SPEC.md's message (403 / 404 / other); the panel stays.
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (!query.error || reported.current === query.error) return;
    reported.current = query.error;
    console.error('Aufgabe konnte nicht geladen werden', query.error);
    toast.error(t(loadErrorKey(query.error)));
  }, [query.error, t, toast]);

  const reload = useCallback(() => {
    if (id !== null) void queryClient.invalidateQueries({ queryKey: taskKeys.detail(id) });
  }, [id, queryClient]);

  // the tempo reached belongs to this task's sessions only
  useEffect(() => clearPracticeTempo, [id]);

  if (id === null) return <TaskNotFound message={t('detail.loadNotFound')} viewer={viewer} />;
  if (query.isError) return <TaskNotFound message={t(loadErrorKey(query.error))} viewer={viewer} />;
  // no connection and this task never opened on this device (docs/decisions/offline-practice.md)
  if (query.isPending && query.fetchStatus === 'paused') return <TaskNotFound message={t('offline:offlineNothing')} viewer={viewer} />;
  if (query.isPending || !query.data) return <TaskDetailSkeleton />;

  const task = query.data;
  const student = viewer === 'student';
  const practising = student && (task.status === 'open' || task.status === 'overdue');
  const files = task.exercise?.media_files ?? [];

  // Asks first when nothing was practised; 'Rückgängig' in the toast; the focus comes back to the finishing part.
  const onComplete = async () => {
    const done = await markDone(task, {
      runningSince: active.data?.started_at ?? null,
      restoreFocus: () => document.querySelector<HTMLElement>('[data-testid="complete-task"], [data-testid="task-done"]')?.focus(),
    });
    if (!done) reload();
  };

  const title = taskTitle(task);
  const settings = toolsSettings(task.exercise);
  const recordingsFor = { id: task.id, status: task.status, title };

  if (!student)
    return (
      <div>
        <OfflineNotice updatedAt={query.dataUpdatedAt || undefined} />
        <TaskBreadcrumb task={task} viewer={viewer} />
        <TaskHeader task={task} today={today} />
        <ExerciseSettingsLine exercise={task.exercise} />
        <p className="-mt-3 mb-6 text-sm text-slate-500">{t('detail.teacherView')}</p>
        <div className="grid gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr] lg:items-start">
          {(task.teacher_note || task.teacher_feedback) && (
            <div className="lg:col-start-3 lg:row-start-1">
              <TaskNotes task={task} />
            </div>
          )}
          <div className="min-w-0 space-y-6 lg:col-span-2 lg:col-start-1 lg:row-span-2 lg:row-start-1">
            <LazySection fallback={<RecordingsPending submissionId={task.id} recorder={false} />}>
              <RecordingsSection submission={recordingsFor} viewer="teacher" userId={user?.id ?? null} AnalysisView={TeacherAnalysisView} TakeActions={MessageAboutTake} />
            </LazySection>
            {restDrawn && (
              <>
                <TaskDescription task={task} />
                <MediaSection files={files} exerciseId={task.exercise?.id ?? null} />
              </>
            )}
          </div>
          <div className="space-y-6 lg:col-start-3">
            {/* A teacher's view leads with the review; deleting stays last, as a secondary action. */}
            <LazySection fallback={null}>
              <TeacherReviewCard task={task} />
            </LazySection>
            {restDrawn && <TaskFacts task={task} viewer={viewer} />}
            <PracticeHistory submissionId={task.id} />
            <LazySection fallback={null}>
              <TeacherTaskActions task={task} />
            </LazySection>
          </div>
        </div>
      </div>
    );

  // What to play: the score (first image, first PDF), else the media (the first item leads).
  const hasScore = files.some((f) => f.type === 'image' || f.type === 'pdf');
  const hasPlay = files.length > 0;
  const userId = user?.id ?? null;
  // From lg the piece fills a column on the left, all along the controls (right column) beside it.
  const side = hasPlay ? 'lg:col-start-2' : undefined;

  return (
    // Phones: room under the content for the practice bar (clock, Start, Diesen Durchgang
    // aufnehmen) fixed above the tab bar.
    <div className={practising ? 'pb-48 lg:pb-0' : undefined}>
      <OfflineNotice updatedAt={query.dataUpdatedAt || undefined} />
      <TaskBreadcrumb task={task} viewer={viewer} />
      <TaskHeader task={task} today={today} />
      {/*
        The practice screen (docs/decisions/practice-screen.md). Phone, first screen: the note, what
        to play, the newest feedback, the tools' sheet; Start and 'Diesen Durchgang aufnehmen' in
        the bar. Then the timer's sessions, the written feedback on the task, the takes, finishing,
        description, media, details.
        From lg: the piece on the left, everything else in the column beside it.
      */}
      <div
        className={
          hasPlay ? 'grid gap-4 lg:grid-cols-[minmax(0,1fr)_26rem] lg:grid-rows-[repeat(10,auto)_1fr] lg:items-start lg:gap-x-8' : 'mx-auto grid max-w-3xl gap-4'
        }
        data-testid="practice-screen"
      >
        {task.teacher_note && (
          <div className={side}>
            <TaskNotes task={task} show="note" />
          </div>
        )}
        {hasPlay && (
          <div className="min-w-0 lg:sticky lg:top-4 lg:col-start-1 lg:row-[1/-1]" data-testid="practice-piece">
            {hasScore ? (
              <ScoreView files={files} exerciseId={task.exercise?.id ?? null} headingId="task-score-title" />
            ) : (
              <MediaSection files={files} exerciseId={task.exercise?.id ?? null} />
            )}
          </div>
        )}
        <div className={side}>
          <LatestFeedback
            submissionId={task.id}
            written={
              task.teacher_feedback
                ? {
                    text: task.teacher_feedback,
                    onShow: () => {
                      writtenFeedback.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
                      writtenFeedback.current?.focus({ preventScroll: true });
                    },
                  }
                : null
            }
          />
        </div>
        <div className={side}>
          <ToolsDock key={task.exercise?.id ?? 0} toolsKey={task.exercise?.id ?? 0} initial={settings} summary={settingsSummary(task.exercise) || null} />
        </div>
        <section aria-labelledby="task-practice-title" className={cn('space-y-4', side)} data-testid="practice-region">
          <h2 id="task-practice-title" className="sr-only">
            {t('detail.practiceTitle')}
          </h2>
          <TaskGoal task={task} />
          {practising && (
            <PracticeTimer
              submissionId={task.id}
              exerciseTitle={title}
              estimatedMinutes={task.exercise?.estimated_minutes}
              today={today}
              onSessionFinished={reload}
              renderRun={userId === null ? undefined : (run) => <RunRecorder submissionId={task.id} userId={userId} title={title} run={run} />}
            />
          )}
        </section>
        {/* The written feedback on the whole task after the controls: the first screen keeps what to play, the newest take comment and the tools. */}
        {task.teacher_feedback && (
          <div ref={writtenFeedback} tabIndex={-1} data-testid="written-feedback" className={cn('scroll-mt-20 rounded-xl focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900', side)}>
            <TaskNotes task={task} show="feedback" />
          </div>
        )}
        {restDrawn && (
          <>
            {/* The takes (the full recorder, each take with its player and analysis) below the
                controls: drawn when their place comes into view or the page is first scrolled or
                tabbed through; at once when a link lands on a take or one waits to be sent
                (docs/decisions/first-load-on-a-phone.md). */}
            <WhenVisible fallback={<RecordingsPending submissionId={task.id} recorder />} rootMargin="0px" onScroll eager={landsOnTake || waitingTakes} className={side} testId="recordings-place">
              <RecordingsSection
                submission={recordingsFor}
                viewer="student"
                userId={userId}
                renderTakeExtra={takeSummarySlot(analysisOptions(task.exercise))}
                AnalysisView={StudentAnalysisView}
              />
            </WhenVisible>
            <div className={side}>
              <TaskFinish task={task} practised={task.time_spent_minutes > 0} completing={pendingId === task.id} onComplete={() => void onComplete()} />
            </div>
            {userId !== null && (
              <div className={side}>
                <MessageTeacherLink studentId={userId} taskId={task.id} />
              </div>
            )}
            <div className={side}>
              <TaskDescription task={task} />
            </div>
            {hasScore && (
              <div className={cn('min-w-0', side)}>
                <MediaSection files={files} exerciseId={task.exercise?.id ?? null} />
              </div>
            )}
            <div className={side}>
              <TaskFacts task={task} viewer={viewer} />
            </div>
          </>
        )}
      </div>
    </div>
  );
}

/**
 * While the takes' chunk loads (or until the page is scrolled toward them): the section's frame at
 * about its height, the recorder (~30rem on a phone) and ~28rem per take up to three (their count
 * is in the cache the route's loader filled), so that little below it moves when it is drawn.
 */
function RecordingsPending({ submissionId, recorder }: { submissionId: number; recorder: boolean }) {
  const takes = Math.min(useRecordings(submissionId).data?.length ?? 0, 3);
  return (
    <div style={{ height: `${(recorder ? 30 : 8) + takes * 28}rem` }} data-testid="recordings-pending">
      <Skeleton className="h-full w-full rounded-xl" />
    </div>
  );
}

/** The exercise's settings for the tools: the meter with its grouping as '7/8 (2+2+3)'. */
function toolsSettings(e: Submission['exercise']) {
  if (!e) return {};
  return {
    tempo_bpm: e.tempo_bpm,
    tempo_unit: e.tempo_unit,
    meter: e.meter && e.meter_grouping ? `${e.meter} (${e.meter_grouping})` : e.meter,
    usul: e.usul,
    makam: e.makam,
    durak: e.durak,
    pattern: e.usul_pattern,
  };
}

/** 'Hicaz · Düyek · ♪ = 80' under the title, when the exercise carries settings. */
function ExerciseSettingsLine({ exercise }: { exercise: Submission['exercise'] }) {
  const line = settingsSummary(exercise);
  if (!line) return null;
  return (
    <p className="-mt-3 mb-4 text-base font-semibold text-slate-800" data-testid="exercise-settings-line">
      <SettingsSummary settings={exercise} />
    </p>
  );
}
