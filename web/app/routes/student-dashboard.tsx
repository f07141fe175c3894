import { useNavigate } from 'react-router';
import { useAuth } from '@web/features/auth/auth-provider';
import { TaskCalendar } from '@web/features/calendar/components/TaskCalendar';
import { StudentDashboardView } from '@web/features/progress/components/student-dashboard-view';

/** The student's dashboard at '/', with the read-only calendar of their tasks. */
export default function StudentDashboardScreen() {
  const { user } = useAuth();
  const navigate = useNavigate();
  return (
    <StudentDashboardView
      name={user?.name}
      calendar={<TaskCalendar canCreate={false} onEventClick={(e) => void navigate(`/submissions/${e.submission_id}`)} />}
    />
  );
}
