import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TeacherAttention, TeacherDashboard } from '@contract/dashboard';
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

export const attentionKey = (courseId: number | null) => [...DASHBOARD_KEY, 'attention', { courseId }] as const;

/** GET /api/dashboard/attention?course_id → quiet students, piling overdue tasks, waiting takes and the first steps. */
export function fetchTeacherAttention(courseId: number | null, signal?: AbortSignal): Promise<TeacherAttention> {
  return api<TeacherAttention>('/api/dashboard/attention', { query: { course_id: courseId, language: currentLanguage() }, signal });
}

/** Under DASHBOARD_KEY: a new task reloads it with the counts. The home's loader reads it beside the screen's chunk. */
export const teacherAttentionQueryOptions = (courseId: number | null) =>
  queryOptions({ queryKey: attentionKey(courseId), queryFn: ({ signal }) => fetchTeacherAttention(courseId, signal) });

export function useTeacherAttention(courseId: number | null) {
  return useQuery({ ...teacherAttentionQueryOptions(courseId), placeholderData: keepPreviousData });
}
