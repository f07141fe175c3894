import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Submission, SubmissionCounts } from '@contract/submissions';
import { api, isApiError } from '@web/lib/api';
import { isConnected } from '@web/lib/connectivity';
import { authStore } from '@web/lib/auth/auth-store';
import { newWriteId, writes } from '@web/lib/outbox/writes';
import { localSessions } from '@web/lib/offline-session';
import { countsAfterComplete, countsAfterReopen, type TaskTab } from '../lib/task-status';
import { submissionCountsQueryOptions, submissionPagesQueryOptions, submissionQueryOptions, taskKeys, type TaskPages } from './task-queries';

export * from './task-queries';

/** PATCH /api/submissions/{id}/complete (with an Idempotency-Key: a retry never completes twice). */
export function completeSubmission(id: number, idempotencyKey?: string): Promise<Submission> {
  return api<Submission>(`/api/submissions/${id}/complete`, { method: 'PATCH', idempotencyKey });
}

function cachedInLists(queryClient: QueryClient, id: number): Submission | undefined {
  for (const [, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists })) {
    const found = data?.pages.flat().find((s) => s.id === id);
    if (found) return found;
  }
  return undefined;
}

/** DELETE /api/submissions/{id}/complete: takes a completion back (docs/decisions/done-means-practised.md). */
export function reopenSubmission(id: number, idempotencyKey?: string): Promise<Submission> {
  return api<Submission>(`/api/submissions/${id}/complete`, { method: 'DELETE', idempotencyKey });
}

/** Completions made without a connection: shown as done at once, sent by the outbox later; the value is the outbox entry's id. */
const queuedCompletions = new WeakMap<Submission, string>();
export const wasQueued = (s: Submission) => queuedCompletions.has(s);
/** The outbox entry of a completion made without a connection (undo removes it). */
export const queuedWriteOf = (s: Submission) => queuedCompletions.get(s);

/**
 * Marks a task done without a connection (docs/decisions/offline-practice.md): a session timed on this device for the task
 * is stopped and queued first, then the completion, with the same key the online call had; the
 * task shows as done from the cached copy.
 */
async function queueCompletion(queryClient: QueryClient, id: number, key: string): Promise<Submission> {
  const userId = authStore.get().user?.id;
  const cached = queryClient.getQueryData<Submission>(taskKeys.detail(id)) ?? cachedInLists(queryClient, id);
  if (userId === undefined || !cached) throw new Error('offline completion needs the cached task');
  if (localSessions.get(userId)?.submissionId === id) await localSessions.finish(userId);
  await writes.add({ id: key, userId, kind: 'complete', submissionId: id, title: cached.exercise?.title ?? '', method: 'PATCH', path: `/api/submissions/${id}/complete` });
  const done: Submission = { ...cached, status: 'completed', completed_at: new Date().toISOString() };
  queuedCompletions.set(done, key);
  return done;
}

export function useSubmissionPages(courseId: number | null, tab: TaskTab) {
  return useInfiniteQuery(submissionPagesQueryOptions(courseId, tab));
}

export function useSubmissionCounts(courseId: number | null) {
  return useQuery(submissionCountsQueryOptions(courseId));
}

export function useSubmission(id: number, enabled = true) {
  return useQuery({ ...submissionQueryOptions(id), enabled });
}

/** The status a task had in the caches before it changed (the detail, else any loaded page). */
function cachedStatus(queryClient: QueryClient, id: number): Submission['status'] | undefined {
  const detail = queryClient.getQueryData<Submission>(taskKeys.detail(id));
  if (detail) return detail.status;
  for (const [, data] of queryClient.getQueriesData<TaskPages>({ queryKey: taskKeys.lists })) {
    for (const page of data?.pages ?? []) {
      const found = page.find((s) => s.id === id);
      if (found) return found.status;
    }
  }
  return undefined;
}

/**
 * Marks a task done. The answer replaces the task in the caches at once (its detail, every loaded
 * page; the counts move it to completed); then everything that counts tasks (lists, counts,
 * dashboards, metrics, calendar, practice) is marked stale and the shown ones load again. Signed
 * media links stay as they are.
 */
export function useCompleteSubmission() {
  const queryClient = useQueryClient();
  return useMutation({
    // without a connection the mutation must run (and queue) instead of waiting paused
    networkMode: 'always',
    mutationFn: async (id: number) => {
      const key = newWriteId();
      if (isConnected()) {
        try {
          return await completeSubmission(id, key);
        } catch (err) {
          if (!isApiError(err, 0)) throw err;
        }
      }
      return queueCompletion(queryClient, id, key);
    },
    onSuccess: (updated) => applyTaskChange(queryClient, updated),
  });
}

/** The cached task as it was (the detail, else a loaded page): what an undo of a queued completion puts back. */
export function cachedTask(queryClient: QueryClient, id: number): Submission | undefined {
  return queryClient.getQueryData<Submission>(taskKeys.detail(id)) ?? cachedInLists(queryClient, id);
}

/**
 * A task changed on the server (completed, or its completion taken back): the answer replaces it in
 * the caches at once (its detail, every loaded page; the counts move it between statuses); then
 * everything that counts tasks (lists, counts, series, dashboards, metrics, calendar, practice) is
 * marked stale and the shown ones load again. Signed media links stay as they are.
 */
export function applyTaskChange(queryClient: QueryClient, updated: Submission) {
  const before = cachedStatus(queryClient, updated.id);
  queryClient.setQueryData(taskKeys.detail(updated.id), updated);
  queryClient.setQueriesData<TaskPages>({ queryKey: taskKeys.lists }, (data) => {
    if (!data?.pages.some((page) => page.some((s) => s.id === updated.id))) return data;
    return {
      ...data,
      pages: data.pages.map((page) => page.map((s) => (s.id === updated.id ? { ...s, ...updated, exercise: s.exercise ?? updated.exercise } : s))),
    };
  });
  if (before && before !== updated.status) {
    for (const [key, counts] of queryClient.getQueriesData<SubmissionCounts>({ queryKey: ['submissions', 'counts'] })) {
      const courseId = (key[2] as { courseId?: number | null } | undefined)?.courseId ?? null;
      if (!counts || (courseId !== null && courseId !== updated.course_id)) continue;
      const next = updated.status === 'completed' ? countsAfterComplete(counts, before) : before === 'completed' ? countsAfterReopen(counts, updated.status) : null;
      if (next) queryClient.setQueryData(key, next);
    }
  }
  void queryClient.invalidateQueries({
    predicate: (q) => q.queryKey[0] !== 'media-url' && !(q.queryKey[0] === 'submissions' && q.queryKey[1] === 'detail' && q.queryKey[2] === updated.id),
  });
}

/**
 * Takes a completion back: one still in the outbox (made without a connection) leaves it and the
 * task as it was before shows again; otherwise DELETE …/complete. Either way the caches follow.
 */
export function useReopenSubmission() {
  const queryClient = useQueryClient();
  return useMutation({
    networkMode: 'always',
    mutationFn: async ({ done, before }: { done: Submission; before?: Submission | undefined }): Promise<Submission> => {
      const queued = queuedWriteOf(done);
      if (queued !== undefined) {
        await writes.remove(queued);
        return before ?? { ...done, status: 'open', completed_at: null };
      }
      return reopenSubmission(done.id, newWriteId());
    },
    onSuccess: (task) => applyTaskChange(queryClient, task),
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
