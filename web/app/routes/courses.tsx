import { useSearchParams } from 'react-router';
import { useSelectedCourse } from '@web/features/course-selection/course-selection';
import { CoursesPage } from '@web/features/courses/components/courses-page';

/** /courses (teacher): the teacher's courses; deleting the selected course clears the selection; `?new=1` (the first steps) opens the form. */
export default function CoursesScreen() {
  const { courseId, setCourseId } = useSelectedCourse();
  const [params] = useSearchParams();
  return <CoursesPage onDeleted={(id) => id === courseId && setCourseId(null)} startCreating={params.get('new') === '1'} />;
}
