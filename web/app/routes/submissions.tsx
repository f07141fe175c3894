import { useEffect } from 'react';
import { useCourses, useSelectedCourse } from '@web/features/course-selection/course-selection';
import { CourseFilter } from '@web/features/tasks/components/course-filter';
import { TaskList } from '@web/features/tasks/components/task-list';

/** /submissions (student): the task list, filtered by the selected course. */
export default function SubmissionsScreen() {
  const { courseId, setCourseId } = useSelectedCourse();
  const courses = useCourses(true);

  // A stored course the student is not enrolled in (any more) means all courses.
  useEffect(() => {
    if (courses.isSuccess && courseId !== null && !courses.data.some((c) => c.id === courseId)) setCourseId(null);
  }, [courses.isSuccess, courses.data, courseId, setCourseId]);

  useEffect(() => {
    if (courses.error) console.error('Kurse konnten nicht geladen werden', courses.error);
  }, [courses.error]);

  const list = courses.data ?? [];
  const filter =
    courses.isError || (courses.isSuccess && list.length === 0) ? undefined : (
      <CourseFilter courses={list} value={courseId} onChange={setCourseId} loading={courses.isPending} />
    );
  // While the courses load, a stored course id still filters: the list does not jump afterwards.
  return <TaskList courseId={courseId} filter={filter} />;
}
