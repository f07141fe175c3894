import { SchoolDashboardView } from '@web/features/school/components/school-dashboard-view';
import { MessageRetentionCard } from '@web/features/school/components/message-retention-card';

/** / (admin): the school's dashboard, with how long messages are kept (docs/decisions/messages.md). */
export default function SchoolDashboardScreen() {
  return <SchoolDashboardView settings={<MessageRetentionCard />} />;
}
