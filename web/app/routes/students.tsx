import { useSearchParams } from 'react-router';
import { useCourses, useSelectedCourse } from '@web/features/course-selection/course-selection';
import { StudentsPage } from '@web/features/students/components/students-page';

/** /students (teacher): the students of the selected course, or of all courses; `?new=1` (the first steps) opens the form. */
export default function StudentsScreen() {
  const { courseId } = useSelectedCourse();
  const courses = useCourses();
  const [params] = useSearchParams();
  return <StudentsPage courseId={courseId} courses={courses.data ?? []} startCreating={params.get('new') === '1'} />;
}
