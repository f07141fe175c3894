import { infiniteQueryOptions, queryOptions, type InfiniteData } from '@tanstack/react-query';
import type { Submission, SubmissionCounts } from '@contract/submissions';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';
import { TAB_QUERY, TASK_PAGE_SIZE, type TaskTab } from '../lib/task-status';

/*
 * The task screens' reads: keys, calls and query options, without the writes and their offline
 * queue. Small, so the router can start a screen's first reads right after the app's script,
 * beside the screen's own chunk (docs/decisions/first-load-on-a-phone.md: the first paint on a phone waits for data).
 */

/** Every submissions query starts with ['submissions']: invalidate that after any change. */
export const taskKeys = {
  all: ['submissions'] as const,
  /** Every page list of the task screen (all courses, all tabs). */
  lists: ['submissions', 'list'] as const,
  list: (courseId: number | null, tab: TaskTab) => ['submissions', 'list', { courseId, tab }] as const,
  counts: (courseId: number | null) => ['submissions', 'counts', { courseId }] as const,
  detail: (id: number) => ['submissions', 'detail', id] as const,
};

/** The pages of one tab: each page is a Submission[] of up to TASK_PAGE_SIZE, the page param its offset. */
export type TaskPages = InfiniteData<Submission[], number>;

/** GET /api/submissions?language&course_id&status&order&limit&offset: one page of the student's own tasks. */
export function fetchSubmissionPage(
  params: { courseId: number | null; tab: TaskTab; offset: number; limit?: number },
  signal?: AbortSignal,
): Promise<Submission[]> {
  const { status, order } = TAB_QUERY[params.tab];
  return api<Submission[]>('/api/submissions', {
    query: { language: currentLanguage(), course_id: params.courseId, status, order, limit: params.limit ?? TASK_PAGE_SIZE, offset: params.offset },
    signal,
  });
}

/** GET /api/submissions/counts?course_id: how many of the student's tasks are in each status. */
export function fetchSubmissionCounts(courseId: number | null, signal?: AbortSignal): Promise<SubmissionCounts> {
  return api<SubmissionCounts>('/api/submissions/counts', { query: { course_id: courseId }, signal });
}

/** GET /api/submissions/{id}: one task with its exercise and media. */
export function fetchSubmission(id: number, signal?: AbortSignal): Promise<Submission> {
  return api<Submission>(`/api/submissions/${id}`, { signal });
}

/** One tab of the task list, page by page (offset paging; a short page is the last). */
export const submissionPagesQueryOptions = (courseId: number | null, tab: TaskTab) =>
  infiniteQueryOptions({
    queryKey: taskKeys.list(courseId, tab),
    queryFn: ({ signal, pageParam }) => fetchSubmissionPage({ courseId, tab, offset: pageParam }, signal),
    initialPageParam: 0,
    getNextPageParam: (last: Submission[], _all: Submission[][], lastOffset: number) => (last.length < TASK_PAGE_SIZE ? undefined : lastOffset + last.length),
  });

export const submissionCountsQueryOptions = (courseId: number | null) =>
  queryOptions({ queryKey: taskKeys.counts(courseId), queryFn: ({ signal }) => fetchSubmissionCounts(courseId, signal) });

export const submissionQueryOptions = (id: number) =>
  queryOptions({ queryKey: taskKeys.detail(id), queryFn: ({ signal }) => fetchSubmission(id, signal) });
