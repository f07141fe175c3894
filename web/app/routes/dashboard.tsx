import { lazy, Suspense } from 'react';
import { PageSkeleton } from '@web/components/ui/skeleton';
import { useAuth } from '@web/lib/auth/auth-provider';

const TeacherDashboard = lazy(() => import('./teacher-dashboard'));
const StudentDashboard = lazy(() => import('./student-dashboard'));

/** '/' shows the dashboard of the signed-in user's role (each its own chunk). */
export default function DashboardScreen() {
  const { role } = useAuth();
  if (!role) return <PageSkeleton />;
  return <Suspense fallback={<PageSkeleton />}>{role === 'teacher' ? <TeacherDashboard /> : <StudentDashboard />}</Suspense>;
}
