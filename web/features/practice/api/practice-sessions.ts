import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PracticeSession } from '@contract/practice';
import { PRACTICE_SESSION_PAGE_MAX } from '@contract/constants';
import { api, isApiError } from '@web/lib/api';
import { refetchUnlessJustFetched } from '@web/lib/query-client';

/** Query keys: every practice query of a task starts with ['practice-sessions', submissionId]. */
export const practiceKeys = {
  all: ['practice-sessions'] as const,
  task: (submissionId: number) => ['practice-sessions', submissionId] as const,
  list: (submissionId: number) => ['practice-sessions', submissionId, 'list'] as const,
  active: (submissionId: number) => ['practice-sessions', submissionId, 'active'] as const,
};

/** GET /api/submissions/{id}/practice-sessions/active: the running session, null when none (404). */
export async function fetchActiveSession(submissionId: number, signal?: AbortSignal): Promise<PracticeSession | null> {
  try {
    return await api<PracticeSession>(`/api/submissions/${submissionId}/practice-sessions/active`, { signal });
  } catch (err) {
    if (isApiError(err, 404)) return null;
    throw err;
  }
}

/**
 * GET /api/submissions/{id}/practice-sessions: newest first, the first page (the server's largest):
 * the screens show the last five and sum what the page holds.
 */
export function fetchSessions(submissionId: number, signal?: AbortSignal): Promise<PracticeSession[]> {
  return api<PracticeSession[]>(`/api/submissions/${submissionId}/practice-sessions?limit=${PRACTICE_SESSION_PAGE_MAX}`, { signal });
}

/** POST /api/submissions/{id}/practice-sessions/start → 201 session; 409 {message, session?}. */
export function startSession(submissionId: number): Promise<PracticeSession> {
  return api<PracticeSession>(`/api/submissions/${submissionId}/practice-sessions/start`, { method: 'POST' });
}

/**
 * POST /api/practice-sessions/{id}/stop → the finished session with duration_minutes; with
 * `tempoBpm` the tempo reached is kept on it (without, the stop has no body, as before).
 */
export function stopSession(sessionId: number, tempoBpm?: number | null): Promise<PracticeSession> {
  const url = `/api/practice-sessions/${sessionId}/stop`;
  return tempoBpm == null ? api<PracticeSession>(url, { method: 'POST' }) : api<PracticeSession>(url, { method: 'POST', body: { tempo_bpm: tempoBpm } });
}

export const activeSessionQueryOptions = (submissionId: number) =>
  queryOptions({
    queryKey: practiceKeys.active(submissionId),
    queryFn: ({ signal }) => fetchActiveSession(submissionId, signal),
    staleTime: 0,
    // the task route's loader reads it beside the screen's chunk: that read is this mount's
    refetchOnMount: refetchUnlessJustFetched,
  });

export const sessionsQueryOptions = (submissionId: number) =>
  queryOptions({
    queryKey: practiceKeys.list(submissionId),
    queryFn: ({ signal }) => fetchSessions(submissionId, signal),
    staleTime: 0,
    refetchOnMount: refetchUnlessJustFetched,
  });

export function useSessions(submissionId: number, enabled = true) {
  return useQuery({ ...sessionsQueryOptions(submissionId), enabled });
}

/** The session a 409 answer of the start call carries, if any. */
export function sessionOfConflict(err: unknown): PracticeSession | null {
  if (!isApiError(err, 409)) return null;
  const body = err.body as { session?: unknown } | null;
  const s = body?.session as PracticeSession | undefined;
  return s && typeof s.id === 'number' && typeof s.started_at === 'string' ? s : null;
}
