import { useAuth } from '@web/lib/auth/auth-provider';
import { useSelectedCourse } from '@web/features/course-selection/course-selection';
import { ReviewInbox } from '@web/features/recordings/components/review-inbox';
import { useSubmission } from '@web/features/tasks/api/submissions';
import { TeacherReviewCard } from '@web/features/progress/components/teacher-review-card';
import { Skeleton } from '@web/components/ui/skeleton';
import { TeacherAnalysisView } from '../compositions/listening-slots';
import { MessageAboutTake } from '../compositions/message-links';

/** The task's existing review (accuracy, competency, feedback) beside the recording. */
function TaskReview({ submissionId }: { submissionId: number }) {
  const task = useSubmission(submissionId);
  if (!task.data) return task.isError ? null : <Skeleton className="h-64 w-full rounded-xl" />;
  return <TeacherReviewCard task={task.data} />;
}

/** /review – 'Zu prüfen': the teacher's unanswered recordings, opened in place; `?take={id}` opens that one first (the attention card's links). */
export default function ReviewInboxScreen() {
  const { user } = useAuth();
  const { courseId } = useSelectedCourse();
  return <ReviewInbox courseId={courseId} userId={user?.id ?? null} renderReview={(id) => <TaskReview submissionId={id} />} AnalysisView={TeacherAnalysisView} TakeActions={MessageAboutTake} />;
}
