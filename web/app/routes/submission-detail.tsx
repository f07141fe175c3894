import { Suspense, lazy, useCallback, useDeferredValue, useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@web/features/auth/auth-provider';
import { useToast } from '@web/components/ui/toast';
import { taskKeys, useCompleteSubmission, useSubmission, wasQueued } from '@web/features/tasks/api/submissions';
import { completeErrorKey, loadErrorKey, localToday } from '@web/features/tasks/lib/task-status';
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
import { OfflineNotice } from '@web/features/offline/components/offline-notice';
import { PracticeTimer } from '@web/features/practice/components/practice-timer';
import { PracticeHistory } from '@web/features/practice/components/practice-history';
import { MediaSection } from '@web/features/media/components/media-section';
import { ScoreView } from '@web/features/media/components/score-view';
import { RecordingsSection } from '@web/features/recordings/components/recordings-section';
import { settingsSummary } from '@web/lib/music-names';
import { clearPracticeTempo } from '@web/lib/practice-tempo';
import { Skeleton } from '@web/components/ui/skeleton';
import { WhenVisible } from '@web/components/ui/when-visible';
import type { Submission } from '@contract/submissions';

// Only a teacher sees these (and its confirmation dialog): not in the student's chunk.
const TeacherTaskActions = lazy(() => import('@web/features/tasks/components/teacher-task-actions').then((m) => ({ default: m.TeacherTaskActions })));
const TeacherReviewCard = lazy(() => import('@web/features/tasks/components/teacher-task-actions').then((m) => ({ default: m.TeacherReviewCard })));
// The practice tools (docs/decisions/exercise-settings.md) in their own chunk, set to the exercise's settings.
const ToolsPanel = lazy(() => import('@web/features/tools/components/tools-panel').then((m) => ({ default: m.ToolsPanel })));

const parseId = (raw: string | undefined) => (raw && /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2147483647 ? Number(raw) : null);

/**
 * /submissions/:id – the task detail. The student practises and marks it done; a teacher sees the
 * same task of one of their students read-only (no timer, no button), with the practice history.
 */
export default function SubmissionDetailScreen() {
  const { t } = useTranslation('tasks');
  const toast = useToast();
  const { isTeacher, user } = useAuth();
  const viewer = isTeacher ? 'teacher' : 'student';
  const id = parseId(useParams().id);
  const query = useSubmission(id ?? 0, id !== null);
  const complete = useCompleteSubmission();
  const queryClient = useQueryClient();
  const today = localToday();
  // What lies below the practice controls on a phone (the recordings, finishing, the description,
  // the media, the details) is drawn from a deferred value: React draws it in the background, in
  // slices that yield to input, after the controls have painted. Nothing drawn first moves when it
  // arrives (docs/decisions/react-dom-again.md).
  const restDrawn = useDeferredValue(query.data !== undefined, false);

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

  const onComplete = async () => {
    try {
      const done = await complete.mutateAsync(task.id);
      if (wasQueued(done)) toast.info(t('complete.queued'), 4000);
      else toast.success(t('complete.success'));
    } catch (err) {
      toast.error(t(completeErrorKey(err)));
      reload();
    }
  };

  return (
    // Phones: room under the content for the practice bar fixed above the tab bar.
    <div className={practising ? 'pb-36 lg:pb-0' : undefined}>
      <OfflineNotice updatedAt={query.dataUpdatedAt || undefined} />
      <TaskBreadcrumb task={task} viewer={viewer} />
      <TaskHeader task={task} today={today} />
      {/* The student sees the settings at the top of the tools panel; the teacher here. */}
      {!student && <ExerciseSettingsLine exercise={task.exercise} />}
      {!student && <p className="-mt-3 mb-6 text-sm text-slate-500">{t('detail.teacherView')}</p>}
      {/*
        The practice screen. Phone: note, score, practice (goal, timer – and later the recorder and
        the practice tools, in the 'Üben' region), finishing, description, media, details.
        Desktop: the same in a main column, note and details in a side column.
      */}
      <div className="grid gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr] lg:items-start">
        {/* The note once: first on phones, at the top of the side column from lg. */}
        {(task.teacher_note || task.teacher_feedback) && (
          <div className="lg:col-start-3 lg:row-start-1">
            <TaskNotes task={task} />
          </div>
        )}
        <div className="min-w-0 space-y-6 lg:col-span-2 lg:col-start-1 lg:row-span-2 lg:row-start-1">
          {!student && <RecordingsSection submission={{ id: task.id, status: task.status, title: taskTitle(task) }} viewer="teacher" userId={user?.id ?? null} />}
          {student && <ScoreView files={files} exerciseId={task.exercise?.id ?? null} headingId="task-score-title" />}
          {student && (
            <section aria-labelledby="task-practice-title" className="space-y-4" data-testid="practice-region">
              <h2 id="task-practice-title" className="text-lg font-semibold tracking-tight text-slate-900">
                {t('detail.practiceTitle')}
              </h2>
              <TaskGoal task={task} />
              {practising && (
                <PracticeTimer
                  submissionId={task.id}
                  exerciseTitle={taskTitle(task)}
                  estimatedMinutes={task.exercise?.estimated_minutes}
                  today={today}
                  onSessionFinished={reload}
                />
              )}
              {/* Below the timer: drawn (and its code fetched) when scrolled near or at the first
                  Tab, not as part of the screen's first load on a phone (docs/decisions/first-load-on-a-phone.md). */}
              <WhenVisible fallback={<Skeleton className="h-[40rem] w-full" />} testId="practice-tools">
                <ToolsPanel key={task.exercise?.id ?? 0} initial={toolsSettings(task.exercise)} />
              </WhenVisible>
              {restDrawn && (
                <RecordingsSection submission={{ id: task.id, status: task.status, title: taskTitle(task) }} viewer="student" userId={user?.id ?? null} headingLevel={3} />
              )}
            </section>
          )}
          {restDrawn && (
            <>
              {student && (
                <TaskFinish task={task} practised={task.time_spent_minutes > 0} completing={complete.isPending} onComplete={() => void onComplete()} />
              )}
              <TaskDescription task={task} />
              <MediaSection files={files} exerciseId={task.exercise?.id ?? null} />
            </>
          )}
        </div>
        <div className="space-y-6 lg:col-start-3">
          {/* A teacher's view leads with the review; deleting stays last, as a secondary action. */}
          {!student && (
            <Suspense fallback={null}>
              <TeacherReviewCard task={task} />
            </Suspense>
          )}
          {restDrawn && <TaskFacts task={task} viewer={viewer} />}
          {!student && <PracticeHistory submissionId={task.id} />}
          {!student && (
            <Suspense fallback={null}>
              <TeacherTaskActions task={task} />
            </Suspense>
          )}
        </div>
      </div>
    </div>
  );
}

/** The exercise's settings for the tools: the meter with its grouping as '7/8 (2+2+3)'. */
function toolsSettings(e: Submission['exercise']) {
  if (!e) return {};
  return {
    tempo_bpm: e.tempo_bpm,
    meter: e.meter && e.meter_grouping ? `${e.meter} (${e.meter_grouping})` : e.meter,
    usul: e.usul,
    makam: e.makam,
    durak: e.durak,
    pattern: e.usul_pattern,
  };
}

/** 'Hicaz · Düyek · ♩ = 80' under the title, when the exercise carries settings. */
function ExerciseSettingsLine({ exercise }: { exercise: Submission['exercise'] }) {
  const line = settingsSummary(exercise);
  if (!line) return null;
  return (
    <p className="-mt-3 mb-4 text-base font-semibold text-slate-800" data-testid="exercise-settings-line">
      {line}
    </p>
  );
}
