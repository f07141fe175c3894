import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Course, CourseBody } from '@contract/courses';
import { api, ApiError, buildUrl } from '@web/lib/api';
import i18n, { currentLanguage } from '@web/lib/i18n';
import { getToken } from '@web/lib/storage';

/** The one key of GET /api/courses: the sidebar's course selector reads the same cache. */
export const COURSES_KEY = ['courses'] as const;

export function fetchCourses(signal?: AbortSignal): Promise<Course[]> {
  return api<Course[]>('/api/courses', { signal });
}

export const coursesListQueryOptions = () => queryOptions({ queryKey: COURSES_KEY, queryFn: ({ signal }) => fetchCourses(signal) });

export function useCoursesList() {
  return useQuery(coursesListQueryOptions());
}

export function createCourse(body: CourseBody): Promise<Course> {
  return api<Course>('/api/courses', { method: 'POST', body });
}

export function updateCourse(id: number, body: CourseBody): Promise<Course> {
  return api<Course>(`/api/courses/${id}`, { method: 'PUT', body });
}

export function deleteCourse(id: number): Promise<void> {
  return api<void>(`/api/courses/${id}`, { method: 'DELETE' });
}

/**
 * Create, rename, delete. Each one refreshes the course list (and with it the sidebar's selector)
 * and the student lists, which show course names; a delete refreshes every query.
 */
export function useCourseMutations() {
  const qc = useQueryClient();
  const refresh = async () => {
    await Promise.all([qc.invalidateQueries({ queryKey: COURSES_KEY }), qc.invalidateQueries({ queryKey: ['students'] })]);
  };
  const save = useMutation({
    mutationFn: ({ id, body }: { id?: number; body: CourseBody }) => (id ? updateCourse(id, body) : createCourse(body)),
    onSuccess: refresh,
  });
  // A deleted course changes tasks (course_id becomes null), counts and filters everywhere: refresh all.
  const remove = useMutation({ mutationFn: (id: number) => deleteCourse(id), onSuccess: () => qc.invalidateQueries() });
  return { save, remove };
}

/**
 * GET /api/courses/{id}/progress.csv, saved as a file: the answer is a download (it needs the
 * Bearer header, so no plain link), handed to the browser through an object URL.
 */
export async function downloadCourseProgressCsv(courseId: number): Promise<string> {
  const headers: Record<string, string> = { Accept: 'text/csv', 'Accept-Language': currentLanguage() };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(buildUrl(`/api/courses/${courseId}/progress.csv`, { language: currentLanguage() }), { headers });
  } catch {
    throw new ApiError(0, i18n.t('common:errors.network'));
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { message?: string } | null;
    throw new ApiError(res.status, body?.message ?? `HTTP ${res.status}`, undefined, body);
  }
  const filename = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `course-${courseId}.csv`;
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return filename;
}
