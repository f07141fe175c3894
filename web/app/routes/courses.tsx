import { useSelectedCourse } from '@web/features/course-selection/course-selection';
import { CoursesPage } from '@web/features/courses/components/courses-page';

/** /courses (teacher): the teacher's courses; deleting the selected course clears the selection. */
export default function CoursesScreen() {
  const { courseId, setCourseId } = useSelectedCourse();
  return <CoursesPage onDeleted={(id) => id === courseId && setCourseId(null)} />;
}
