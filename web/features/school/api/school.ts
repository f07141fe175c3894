import '@web/features/school/i18n';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { School, SchoolDashboard, SchoolUpdateBody } from '@contract/school';
import type { SchoolStorage, SchoolStorageBody } from '@contract/storage';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';

/** Every query of the school's administration starts with this key: a change refreshes them together. */
export const SCHOOL_KEY = ['school'] as const;
export const schoolDashboardKey = [...SCHOOL_KEY, 'dashboard'] as const;

/** GET /api/school/dashboard: the school, its counts and SCHOOL_WEEKS weeks of practice minutes and completed tasks. */
export function fetchSchoolDashboard(signal?: AbortSignal): Promise<SchoolDashboard> {
  return api<SchoolDashboard>('/api/school/dashboard', { query: { language: currentLanguage() }, signal });
}

export const schoolDashboardQueryOptions = () => queryOptions({ queryKey: schoolDashboardKey, queryFn: ({ signal }) => fetchSchoolDashboard(signal) });

export function useSchoolDashboard() {
  return useQuery(schoolDashboardQueryOptions());
}

/** GET /api/school: the school's name and time zone. */
export const schoolQueryOptions = () =>
  queryOptions({
    queryKey: [...SCHOOL_KEY, 'school'] as const,
    queryFn: ({ signal }) => api<School>('/api/school', { query: { language: currentLanguage() }, signal }),
    staleTime: 5 * 60_000,
  });

/** PATCH /api/school: the administrator renames the school. */
export function renameSchool(body: SchoolUpdateBody): Promise<School> {
  return api<School>('/api/school', { method: 'PATCH', body });
}

export function useRenameSchool() {
  const qc = useQueryClient();
  return useMutation({ mutationFn: renameSchool, onSuccess: () => qc.invalidateQueries({ queryKey: SCHOOL_KEY }) });
}

/** GET /api/school/storage: the school's storage against its quota, and the students who take the most. */
export function useSchoolStorage() {
  return useQuery({
    queryKey: [...SCHOOL_KEY, 'storage'] as const,
    queryFn: ({ signal }) => api<SchoolStorage>('/api/school/storage', { query: { language: currentLanguage() }, signal }),
  });
}

/** PUT /api/school/storage: the administrator sets the quotas (null: the server's default). */
export function useUpdateSchoolStorage() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SchoolStorageBody) => api<SchoolStorage>('/api/school/storage', { method: 'PUT', body, query: { language: currentLanguage() } }),
    onSuccess: () => qc.invalidateQueries({ queryKey: SCHOOL_KEY }),
  });
}
