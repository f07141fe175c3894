import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import type { Exercise } from '@contract/exercises';
import { useCourses, useSelectedCourse } from '@web/features/course-selection/course-selection';
import { ExercisesPage } from '@web/features/exercises/components/exercises-page';
import { localToday } from '@web/features/tasks/lib/task-status';
import { LazySection, lazyPart } from '@web/components/ui/lazy-section';

// Opens on a click: its code is fetched then (docs/decisions/first-load-on-a-phone.md).
const AssignmentDialog = lazyPart(() => import('@web/features/assignments/components/assignment-dialog').then((m) => ({ default: m.AssignmentDialog })));

/**
 * /exercises (teacher): the exercise library of the selected course (or all courses). 'Zuweisen' on
 * a card opens the assignment dialog with that exercise chosen; `?new=1` (the first steps) opens
 * the form for a new exercise (docs/decisions/teacher-day-actions.md).
 */
export default function ExercisesScreen() {
  const { courseId } = useSelectedCourse();
  const courses = useCourses();
  const qc = useQueryClient();
  const [params] = useSearchParams();
  // The exercise stays chosen while the dialog animates out; the date says whether it is open.
  const [exerciseId, setExerciseId] = useState<number | null>(null);
  const [dialogDate, setDialogDate] = useState<string | null>(null);
  const onAssign = useCallback((e: Exercise) => {
    setExerciseId(e.id);
    setDialogDate(localToday());
  }, []);
  // Tasks, calendars and the dashboard reload when next shown.
  const onCreated = useCallback(() => void qc.invalidateQueries({ refetchType: 'none' }), [qc]);
  return (
    <>
      <ExercisesPage courseId={courseId} courses={courses.data ?? []} onAssign={onAssign} startCreating={params.get('new') === '1'} />
      {exerciseId !== null && (
        <LazySection fallback={null} floating>
          <AssignmentDialog
            date={dialogDate}
            exerciseId={exerciseId}
            pickDate
            courseId={courseId}
            onClose={() => setDialogDate(null)}
            onCreated={onCreated}
          />
        </LazySection>
      )}
    </>
  );
}
