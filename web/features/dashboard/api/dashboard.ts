import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TeacherDashboard } from '@contract/dashboard';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';

export const DASHBOARD_KEY = ['dashboard'] as const;
export const dashboardKey = (courseId: number | null) => [...DASHBOARD_KEY, { courseId }] as const;

/** GET /api/dashboard?course_id → the teacher's counts and recent students. */
export function fetchTeacherDashboard(courseId: number | null, signal?: AbortSignal): Promise<TeacherDashboard> {
  return api<TeacherDashboard>('/api/dashboard', { query: { course_id: courseId, language: currentLanguage() }, signal });
}

export const teacherDashboardQueryOptions = (courseId: number | null) =>
  queryOptions({ queryKey: dashboardKey(courseId), queryFn: ({ signal }) => fetchTeacherDashboard(courseId, signal) });

/** Reloads when the course changes; the previous numbers stay visible meanwhile. */
export function useTeacherDashboard(courseId: number | null) {
  return useQuery({ ...teacherDashboardQueryOptions(courseId), placeholderData: keepPreviousData });
}
