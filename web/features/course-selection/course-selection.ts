import { useCallback, useSyncExternalStore } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { EVENTS, STORAGE_KEYS } from '@contract/constants';
import { api } from '@web/lib/api';
import { getSelectedCourseId, setSelectedCourseId } from '@web/lib/storage';

/** GET /api/courses item (CONTRACT.md). */
export type CourseSummary = {
  id: number;
  name: string;
  description: string | null;
  created_at: string;
  students_count: number;
};

export const COURSES_QUERY_KEY = ['courses'] as const;

export function fetchCourses(): Promise<CourseSummary[]> {
  return api<CourseSummary[]>('/api/courses');
}

export const coursesQueryOptions = () =>
  queryOptions({
    queryKey: COURSES_QUERY_KEY,
    queryFn: fetchCourses,
    staleTime: 60_000,
  });

/** The teacher's courses (for the selector). A failure is logged only (SPEC.md section 8). */
export function useCourses(enabled = true) {
  return useQuery({ ...coursesQueryOptions(), enabled });
}

export type CourseChangedDetail = { courseId: number | null };

function subscribe(onChange: () => void): () => void {
  const onStorage = (e: StorageEvent) => {
    if (e.key === STORAGE_KEYS.selectedCourseId || e.key === null) onChange();
  };
  window.addEventListener(EVENTS.courseChanged, onChange);
  window.addEventListener('storage', onStorage);
  return () => {
    window.removeEventListener(EVENTS.courseChanged, onChange);
    window.removeEventListener('storage', onStorage);
  };
}

/** Stores the selection (none = all courses) and announces 'course-changed' with detail {courseId}. */
export function selectCourse(courseId: number | null | undefined): void {
  const id = courseId ? courseId : null;
  setSelectedCourseId(id);
  window.dispatchEvent(new CustomEvent<CourseChangedDetail>(EVENTS.courseChanged, { detail: { courseId: id } }));
}

/**
 * The selected course id (null = all courses), kept in localStorage `selectedCourseId`
 * and followed through the 'course-changed' event. Use `courseId` in query keys and as `course_id`.
 */
export function useSelectedCourse(): { courseId: number | null; setCourseId: (id: number | null) => void } {
  const courseId = useSyncExternalStore(subscribe, getSelectedCourseId, () => null);
  const setCourseId = useCallback((id: number | null) => selectCourse(id), []);
  return { courseId, setCourseId };
}
