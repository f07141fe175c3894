import { useCourses, useSelectedCourse } from '@web/features/course-selection/course-selection';
import { ExercisesPage } from '@web/features/exercises/components/exercises-page';

/** /exercises (teacher): the exercise library of the selected course (or all courses). */
export default function ExercisesScreen() {
  const { courseId } = useSelectedCourse();
  const courses = useCourses();
  return <ExercisesPage courseId={courseId} courses={courses.data ?? []} />;
}
