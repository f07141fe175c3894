import { useNavigate } from 'react-router';
import { useAuth } from '@web/lib/auth/auth-provider';
import { StudentDashboardView } from '@web/features/progress/components/student-dashboard-view';
import { StudentRecordingNotes } from '@web/features/recordings/components/feedback-badges';
import { CalendarSubscription } from '@web/features/calendar/components/calendar-subscription';
import { OfflineNotice, useLastUpdated } from '@web/components/offline-notice';
import { CompleteTaskButton } from '@web/features/tasks/components/complete-button';
import { lazyPart } from '@web/components/ui/lazy-section';

// FullCalendar is large: its chunk loads only when the calendar comes near the screen.
const TaskCalendar = lazyPart(() => import('@web/features/calendar/components/TaskCalendar').then((m) => ({ default: m.TaskCalendar })));

/** The student's home at '/' (today first), with the read-only calendar of their tasks further down. */
export default function StudentDashboardScreen() {
  const { user } = useAuth();
  const navigate = useNavigate();
  const updatedAt = useLastUpdated('submissions');
  return (
    <StudentDashboardView
      name={user?.name}
      doneAction={(task) => (
        <CompleteTaskButton
          task={task}
          onRestoreFocus={() => document.querySelector<HTMLElement>(`[data-testid="upcoming-item"] a[href="/submissions/${task.id}"]`)?.focus()}
        />
      )}
      notice={
        <>
          <OfflineNotice updatedAt={updatedAt} />
          <StudentRecordingNotes userId={user?.id ?? null} />
        </>
      }
      calendar={
        <>
          <TaskCalendar canCreate={false} onEventClick={(e) => void navigate(`/submissions/${e.submission_id}`)} />
          <CalendarSubscription audience="student" className="mt-4" />
        </>
      }
    />
  );
}
