import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Submission } from '@contract/submissions';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';

/** Every submissions query starts with ['submissions']: invalidate that after any change. */
export const taskKeys = {
  all: ['submissions'] as const,
  list: (courseId: number | null) => ['submissions', 'list', { courseId }] as const,
  detail: (id: number) => ['submissions', 'detail', id] as const,
};

/** GET /api/submissions?language&course_id: the student's own tasks by due date. */
export function fetchSubmissions(courseId: number | null, signal?: AbortSignal): Promise<Submission[]> {
  return api<Submission[]>('/api/submissions', { query: { language: currentLanguage(), course_id: courseId }, signal });
}

/** GET /api/submissions/{id}: one task with its exercise and media. */
export function fetchSubmission(id: number, signal?: AbortSignal): Promise<Submission> {
  return api<Submission>(`/api/submissions/${id}`, { signal });
}

/** PATCH /api/submissions/{id}/complete. */
export function completeSubmission(id: number): Promise<Submission> {
  return api<Submission>(`/api/submissions/${id}/complete`, { method: 'PATCH' });
}

export const submissionsQueryOptions = (courseId: number | null) =>
  queryOptions({ queryKey: taskKeys.list(courseId), queryFn: ({ signal }) => fetchSubmissions(courseId, signal) });

export const submissionQueryOptions = (id: number) =>
  queryOptions({ queryKey: taskKeys.detail(id), queryFn: ({ signal }) => fetchSubmission(id, signal) });

export function useSubmissions(courseId: number | null) {
  return useQuery(submissionsQueryOptions(courseId));
}

export function useSubmission(id: number, enabled = true) {
  return useQuery({ ...submissionQueryOptions(id), enabled });
}

/**
 * Marks a task done. The answer replaces the task in the caches at once; then everything that
 * counts tasks (lists, dashboards, metrics, calendar, practice) is marked stale. Signed media
 * links stay as they are.
 */
export function useCompleteSubmission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => completeSubmission(id),
    onSuccess: (updated) => {
      queryClient.setQueryData(taskKeys.detail(updated.id), updated);
      queryClient.setQueriesData<Submission[]>({ queryKey: ['submissions', 'list'] }, (list) =>
        list?.map((s) => (s.id === updated.id ? { ...s, ...updated, exercise: s.exercise ?? updated.exercise } : s)),
      );
      void queryClient.invalidateQueries({
        predicate: (q) => q.queryKey[0] !== 'media-url' && !(q.queryKey[0] === 'submissions' && q.queryKey[1] === 'detail' && q.queryKey[2] === updated.id),
      });
    },
  });
}

/** DELETE /api/submissions/{id} (teacher); `series` also removes the not yet completed tasks of its series from its date on. */
export function deleteSubmission(id: number, scope: 'one' | 'series'): Promise<void> {
  return api<void>(`/api/submissions/${id}`, { method: 'DELETE', query: { scope } });
}

/** Deletes a task (or the rest of its series) and marks everything that shows tasks as stale. */
export function useDeleteSubmission() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, scope }: { id: number; scope: 'one' | 'series' }) => deleteSubmission(id, scope),
    onSuccess: (_r, { id }) => {
      queryClient.removeQueries({ queryKey: taskKeys.detail(id) });
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'media-url' });
    },
  });
}
