import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReviewBody, StudentMetrics, StudentOverview } from '@contract/metrics';
import { UPCOMING_TASKS } from '@contract/constants';
import type { Submission, TaskSeries } from '@contract/submissions';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';
import { refetchUnlessJustFetched } from '@web/lib/query-client';

/** Query keys of this feature. A review refreshes all of them (and every task list). */
export const progressKeys = {
  myMetrics: ['my-metrics'] as const,
  student: (id: number) => ['students', id] as const,
  studentMetrics: (id: number) => ['students', id, 'metrics'] as const,
  studentOverview: (id: number) => ['students', id, 'overview'] as const,
  /** Under ['submissions']: every task change marks it stale. */
  upcoming: ['submissions', 'series', 'current'] as const,
};

/** GET /api/my-metrics (the signed-in student). */
export function fetchMyMetrics(signal?: AbortSignal): Promise<StudentMetrics> {
  return api<StudentMetrics>('/api/my-metrics', { signal });
}

/** GET /api/students/{id}/metrics (the student's teacher). */
export function fetchStudentMetrics(id: number, signal?: AbortSignal): Promise<StudentMetrics> {
  return api<StudentMetrics>(`/api/students/${id}/metrics`, { signal });
}

/** GET /api/students/{id}/overview (the student's teacher). */
export function fetchStudentOverview(id: number, signal?: AbortSignal): Promise<StudentOverview> {
  return api<StudentOverview>(`/api/students/${id}/overview`, { signal });
}

/**
 * The student's next tasks, a repeating task once (GET /api/submissions/series?scope=current&limit=5):
 * each with today's progress and its streak (docs/decisions/done-means-practised.md).
 */
export function fetchCurrentSeries(signal?: AbortSignal): Promise<TaskSeries[]> {
  return api<TaskSeries[]>('/api/submissions/series', { query: { scope: 'current', limit: UPCOMING_TASKS, language: currentLanguage() }, signal });
}

/** PATCH /api/submissions/{id}/review (teacher). */
export function reviewSubmission(id: number, body: ReviewBody): Promise<Submission> {
  return api<Submission>(`/api/submissions/${id}/review`, { method: 'PATCH', body });
}

/**
 * Progress changes elsewhere (a task completed, a session stopped – other features' calls), so the
 * numbers are re-read whenever a dashboard mounts: the cached ones show at once, then update.
 * (4xx answers are not retried: the app's QueryClient default.)
 */
const fresh = { staleTime: 0, refetchOnMount: refetchUnlessJustFetched } as const;

export const myMetricsQueryOptions = () =>
  queryOptions({ queryKey: progressKeys.myMetrics, queryFn: ({ signal }) => fetchMyMetrics(signal), ...fresh });

export function useMyMetrics() {
  return useQuery(myMetricsQueryOptions());
}

export function useStudentMetrics(id: number, enabled = true) {
  return useQuery({ queryKey: progressKeys.studentMetrics(id), queryFn: ({ signal }) => fetchStudentMetrics(id, signal), enabled, ...fresh });
}

export function useStudentOverview(id: number, enabled = true) {
  return useQuery({ queryKey: progressKeys.studentOverview(id), queryFn: ({ signal }) => fetchStudentOverview(id, signal), enabled, ...fresh });
}

export const currentSeriesQueryOptions = () =>
  queryOptions({ queryKey: progressKeys.upcoming, queryFn: ({ signal }) => fetchCurrentSeries(signal), ...fresh });

export function useCurrentSeries() {
  return useQuery(currentSeriesQueryOptions());
}

/** Saves a review; then the student's overview and metrics, and every task list, load again. */
export function useReviewSubmission(studentId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ReviewBody }) => reviewSubmission(id, body),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: progressKeys.student(studentId) }),
        qc.invalidateQueries({ queryKey: ['submissions'] }),
      ]),
  });
}
