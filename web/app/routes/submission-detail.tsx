import { useCallback, useEffect, useRef } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@web/features/auth/auth-provider';
import { useToast } from '@web/components/ui/toast';
import { taskKeys, useCompleteSubmission, useSubmission } from '@web/features/tasks/api/submissions';
import { completeErrorKey, loadErrorKey } from '@web/features/tasks/lib/task-status';
import {
  TaskBreadcrumb,
  TaskDescription,
  TaskDetailSkeleton,
  TaskFacts,
  TaskHeader,
  TaskNotFound,
  TaskNotes,
  taskTitle,
} from '@web/features/tasks/components/task-detail';
import { PracticeTimer } from '@web/features/practice/components/practice-timer';
import { PracticeHistory } from '@web/features/practice/components/practice-history';
import { MediaSection } from '@web/features/media/components/media-section';
import { TeacherTaskActions } from '@web/features/tasks/components/teacher-task-actions';

const parseId = (raw: string | undefined) => (raw && /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2147483647 ? Number(raw) : null);

/**
 * /submissions/:id – the task detail. The student practises and marks it done; a teacher sees the
 * same task of one of their students read-only (no timer, no button), with the practice history.
 */
export default function SubmissionDetailScreen() {
  const { t } = useTranslation('tasks');
  const toast = useToast();
  const { isTeacher } = useAuth();
  const viewer = isTeacher ? 'teacher' : 'student';
  const id = parseId(useParams().id);
  const query = useSubmission(id ?? 0, id !== null);
  const complete = useCompleteSubmission();
  const queryClient = useQueryClient();

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

  if (id === null) return <TaskNotFound message={t('detail.loadNotFound')} viewer={viewer} />;
  if (query.isPending) return <TaskDetailSkeleton />;
  if (query.isError) return <TaskNotFound message={t(loadErrorKey(query.error))} viewer={viewer} />;

  const task = query.data;
  const student = viewer === 'student';
  const practising = student && (task.status === 'open' || task.status === 'overdue');

  const onComplete = async () => {
    try {
      await complete.mutateAsync(task.id);
      toast.success(t('complete.success'));
    } catch (err) {
      toast.error(t(completeErrorKey(err)));
      reload();
    }
  };

  return (
    <>
      <TaskBreadcrumb task={task} viewer={viewer} />
      <TaskHeader task={task} canAct={student} completing={complete.isPending} onComplete={() => void onComplete()} />
      {!student && <p className="-mt-3 mb-6 text-sm text-slate-500">{t('detail.teacherView')}</p>}
      {/* Phone: note, practice, description, media, details. Desktop: main column and a side column. */}
      <div className="grid gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr] lg:items-start">
        <div className="space-y-6 lg:col-span-2 lg:row-span-2 lg:row-start-1">
          {practising && <PracticeTimer submissionId={task.id} exerciseTitle={taskTitle(task)} onSessionFinished={reload} />}
          <TaskDescription task={task} />
          <MediaSection files={task.exercise?.media_files ?? []} exerciseId={task.exercise?.id ?? null} />
        </div>
        {(task.teacher_note || task.teacher_feedback) && (
          <div className="order-first lg:order-none lg:col-start-3 lg:row-start-1">
            <TaskNotes task={task} />
          </div>
        )}
        <div className="space-y-6 lg:col-start-3">
          <TaskFacts task={task} viewer={viewer} />
          {!student && <PracticeHistory submissionId={task.id} />}
          {!student && <TeacherTaskActions task={task} />}
        </div>
      </div>
    </>
  );
}
