import { SchoolDashboardView } from '@web/features/school/components/school-dashboard-view';

/** / (admin): the school's dashboard. */
export default function SchoolDashboardScreen() {
  return <SchoolDashboardView />;
}
