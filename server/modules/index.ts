import type { FastifyInstance } from 'fastify';
import auth from './auth/auth.routes';
import courses from './courses/courses.routes';
import students from './students/students.routes';
import exercises from './exercises/exercises.routes';
import media from './media/media.routes';
import submissions from './submissions/submissions.routes';
import assignments from './assignments/assignments.routes';
import calendar from './calendar/calendar.routes';
import practice from './practice/practice.routes';
import metrics from './metrics/metrics.routes';
import dashboard from './dashboard/dashboard.routes';
import recordings from './recordings/recordings.routes';
import calendarFeed from './calendar-feed/calendar-feed.routes';
import reports from './reports/reports.routes';
import school from './school/school.routes';
import guardians from './guardians/guardians.routes';
import storage from './storage/storage.routes';
import quickReplies from './quick-replies/quick-replies.routes';
import reminders from './reminders/reminders.routes';
import messages from './messages/messages.routes';

/** Every API module, registered in this order by buildApp. Each module owns its folder. */
export const modules: Array<(app: FastifyInstance) => Promise<void>> = [
  auth,
  courses,
  students,
  exercises,
  media,
  submissions,
  assignments,
  calendar,
  practice,
  metrics,
  dashboard,
  recordings,
  calendarFeed,
  reports,
  school,
  guardians,
  storage,
  quickReplies,
  reminders,
  messages,
];
