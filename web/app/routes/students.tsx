import { useCourses, useSelectedCourse } from '@web/features/course-selection/course-selection';
import { StudentsPage } from '@web/features/students/components/students-page';

/** /students (teacher): the students of the selected course, or of all courses. */
export default function StudentsScreen() {
  const { courseId } = useSelectedCourse();
  const courses = useCourses();
  return <StudentsPage courseId={courseId} courses={courses.data ?? []} />;
}
