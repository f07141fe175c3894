import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Card, CardHeader } from '@web/components/ui/card';
import { PageHeader } from '@web/components/ui/page-header';
import { useSelectedCourse } from '@web/features/course-selection/course-selection';
import { DASHBOARD_KEY, useTeacherDashboard } from '@web/features/dashboard/api/dashboard';
import { StatCards } from '@web/features/dashboard/components/stat-cards';
import { RecentStudents } from '@web/features/dashboard/components/recent-students';
import { TaskCalendar } from '@web/features/calendar/components/TaskCalendar';
import { CALENDAR_EVENTS_KEY } from '@web/features/calendar/api/calendar-events';
import { AssignmentDialog } from '@web/features/assignments/components/assignment-dialog';

/**
 * The teacher's dashboard (SPEC.md): stat cards, the calendar (a day click opens the assignment
 * dialog) and the 8 most recently registered students, all for the selected course.
 */
export default function TeacherDashboardScreen() {
  const { t } = useTranslation(['dashboard', 'common']);
  const { courseId } = useSelectedCourse();
  const dashboard = useTeacherDashboard(courseId);
  const qc = useQueryClient();
  const [dialogDate, setDialogDate] = useState<string | null>(null);

  const onCreated = useCallback(() => {
    void qc.invalidateQueries({ queryKey: CALENDAR_EVENTS_KEY });
    void qc.invalidateQueries({ queryKey: DASHBOARD_KEY });
    // Task lists and student overviews elsewhere reload when next shown.
    void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] !== CALENDAR_EVENTS_KEY[0] && q.queryKey[0] !== DASHBOARD_KEY[0], refetchType: 'none' });
  }, [qc]);

  const loading = dashboard.isPending || (dashboard.isPlaceholderData && dashboard.isFetching);

  return (
    <>
      <PageHeader title={t('dashboard:title')} subtitle={courseId ? t('dashboard:subtitleCourse') : t('dashboard:subtitleAll')} />
      <div className="space-y-6">
        {dashboard.isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            <AlertTriangle aria-hidden="true" className="size-5 shrink-0" />
            <div className="min-w-0 flex-1">
              <p className="font-semibold">{t('dashboard:error.title')}</p>
              <p>{t('dashboard:error.text')}</p>
            </div>
            <Button variant="secondary" size="sm" loading={dashboard.isFetching} onClick={() => void dashboard.refetch()}>
              {t('common:actions.retry')}
            </Button>
          </div>
        ) : (
          <StatCards data={dashboard.data} loading={loading} />
        )}

        <Card className="min-w-0">
          <CardHeader title={t('dashboard:calendar.title')} description={t('dashboard:calendar.hint')} />
          <div className="p-3 sm:p-5">
            <TaskCalendar canCreate courseId={courseId} onDateClick={setDialogDate} />
          </div>
        </Card>
        <RecentStudents students={dashboard.data?.recent_students} loading={dashboard.isPending} failed={dashboard.isError} />
      </div>
      <AssignmentDialog date={dialogDate} courseId={courseId} onClose={() => setDialogDate(null)} onCreated={onCreated} />
    </>
  );
}
