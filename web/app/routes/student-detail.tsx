import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { CalendarPlus } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { StudentDetailView } from '@web/features/progress/components/student-detail-view';
import { StudentGuardians } from '@web/features/guardians/components/student-guardians';
import { TaskPanel } from '@web/app/compositions/task-panel';
import { localToday } from '@web/lib/today';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';

// Opens on a click: its code is fetched then (docs/decisions/first-load-on-a-phone.md).
const loadAssignmentDialog = () => import('@web/features/assignments/components/assignment-dialog').then((m) => ({ default: m.AssignmentDialog }));
const AssignmentDialog = lazyPart(loadAssignmentDialog);

/**
 * /students/{id} (teacher): one student's overview, practice chart, recent tasks with review,
 * statistics, and the parents (docs/decisions/schools-and-roles.md). 'Aufgabe zuweisen' opens the
 * assignment dialog with this student chosen, over all courses (docs/decisions/teacher-day-actions.md).
 */
export default function StudentDetailScreen() {
  const { id } = useParams();
  const n = Number(id);
  const studentId = Number.isInteger(n) && n > 0 && n <= 2147483647 ? n : null;
  return <StudentDetailWithAssign key={studentId ?? 'none'} studentId={studentId} />;
}

function StudentDetailWithAssign({ studentId }: { studentId: number | null }) {
  const { t } = useTranslation('progress');
  const qc = useQueryClient();
  const [dialogDate, setDialogDate] = useState<string | null>(null);
  const [dialogUsed, setDialogUsed] = useState(false);
  if (!dialogUsed && dialogDate !== null) setDialogUsed(true);
  // The student's overview, tasks and calendars reload with the new task.
  const onCreated = useCallback(() => void qc.invalidateQueries(), [qc]);
  return (
    <>
      <StudentDetailView
        studentId={studentId}
        taskPanel={(panel) => <TaskPanel {...panel} />}
        actions={
          studentId !== null && (
            <Button
              size="sm"
              icon={<CalendarPlus aria-hidden="true" className="size-4" />}
              onClick={() => setDialogDate(localToday())}
              onPointerEnter={() => void loadAssignmentDialog()}
              onFocus={() => void loadAssignmentDialog()}
              className="h-11 sm:h-8"
              data-testid="student-assign"
            >
              {t('detail.assign')}
            </Button>
          )
        }
      >
        {studentId !== null && <StudentGuardians studentId={studentId} />}
      </StudentDetailView>
      {dialogUsed && studentId !== null && (
        <LazySection fallback={null} floating>
          <AssignmentDialog date={dialogDate} studentId={studentId} pickDate courseId={null} onClose={() => setDialogDate(null)} onCreated={onCreated} />
        </LazySection>
      )}
    </>
  );
}
