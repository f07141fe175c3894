import '@web/features/recordings/i18n';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { StudentStorage } from '@contract/storage';
import type {
  CountResponse,
  CreateCommentBody,
  InboxResponse,
  NewFeedbackResponse,
  QuickReply,
  QuickReplyListResponse,
  Recording,
  RecordingComment,
  UpdateCommentBody,
} from '@contract/recordings';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';
import { extensionFor } from '../lib/recording-limits';
import { recordingKeys, recordingListQueryOptions } from './recording-queries';

export { recordingKeys } from './recording-queries';

const lang = () => ({ language: currentLanguage() });

/** GET /api/submissions/{id}/recordings: newest first, each with its comments. */
export function useRecordings(submissionId: number) {
  return useQuery(recordingListQueryOptions(submissionId));
}

/** GET /api/recordings/{id}. */
export function useRecording(id: number | null) {
  return useQuery({
    queryKey: recordingKeys.one(id ?? 0),
    queryFn: ({ signal }) => api<Recording>(`/api/recordings/${id}`, { query: lang(), signal }),
    enabled: id !== null,
  });
}

export const INBOX_PER_PAGE = 10;

/** GET /api/recordings/inbox: oldest first, ten per page (a teacher goes through ten takes in one page). */
export function useInbox(courseId: number | null, page: number) {
  return useQuery({
    queryKey: recordingKeys.inbox(courseId, page),
    queryFn: ({ signal }) =>
      api<InboxResponse>('/api/recordings/inbox', { query: { ...lang(), course_id: courseId, page, per_page: INBOX_PER_PAGE }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/recordings/inbox/count: the navigation badge. */
export function useInboxCount(courseId: number | null, enabled = true) {
  return useQuery({
    queryKey: recordingKeys.inboxCount(courseId),
    queryFn: ({ signal }) => api<CountResponse>('/api/recordings/inbox/count', { query: { course_id: courseId }, signal }).then((r) => r.count),
    enabled,
    staleTime: 30_000,
    refetchInterval: 120_000,
  });
}

/** GET /api/recordings/new-feedback/count: the student's dashboard line, and where its link lands. */
export function useNewFeedbackCount(enabled = true) {
  return useQuery({
    queryKey: recordingKeys.newFeedbackCount(),
    queryFn: ({ signal }) => api<NewFeedbackResponse>('/api/recordings/new-feedback/count', { signal }),
    enabled,
  });
}

/** The signed link of a recording's file (GET /api/media/{path}), cached well inside its hour. */
export const recordingUrlQuery = (path: string) =>
  queryOptions({
    queryKey: recordingKeys.mediaUrl(path),
    queryFn: ({ signal }) => api<{ url: string }>(`/api/media/${encodeURIComponent(path)}`, { signal }).then((r) => r.url),
    staleTime: 45 * 60_000,
    gcTime: 50 * 60_000,
  });

/** The signed link; with `enabled` false not asked for yet (a player far below the viewport). */
export function useRecordingUrl(path: string, enabled = true) {
  return useQuery({ ...recordingUrlQuery(path), enabled });
}

/**
 * POST /api/submissions/{id}/recordings as multipart, through XMLHttpRequest (upload progress)
 * with the Bearer token, the language and the 401 handling of web/lib/api.ts. The take's id goes
 * as `Idempotency-Key`: a retry after a lost answer gets the first answer, never a second recording.
 */
export function uploadRecording(
  take: { id?: string; submissionId: number; blob: Blob; type: string; durationMs: number | null; message: string; practiceSessionId?: number | null },
  onProgress: (fraction: number) => void,
  signal: AbortSignal,
): Promise<Recording> {
  const form = new FormData();
  if (take.durationMs !== null) form.append('duration_ms', String(Math.round(take.durationMs)));
  if (take.message.trim()) form.append('message', take.message.trim());
  if (take.practiceSessionId) form.append('practice_session_id', String(take.practiceSessionId));
  form.append('file', take.blob, `aufnahme.${extensionFor(take.type)}`);
  return api<Recording>(`/api/submissions/${take.submissionId}/recordings`, {
    method: 'POST',
    query: lang(),
    formData: form,
    onUploadProgress: onProgress,
    signal,
    idempotencyKey: take.id,
  });
}

/**
 * A take the server has just accepted (its 201 answer): at once at the top of its task's list,
 * as the list would show it. The caller still invalidates, but the list does not wait for that
 * refetch: it may be paused (offline) or lose a race with a reload, and a take the student saw
 * arrive must not vanish from the screen. A list not loaded yet stays unloaded (its first fetch
 * brings the take with the rest).
 */
export function addSentRecording(qc: QueryClient, recording: Recording): void {
  qc.setQueryData<Recording[]>(recordingKeys.list(recording.submission_id), (list) =>
    list === undefined ? undefined : [recording, ...list.filter((r) => r.id !== recording.id)],
  );
}

/** After any change: the recordings, their counts and the task list's 'Neues Feedback'. */
function useInvalidate() {
  const qc = useQueryClient();
  return () => Promise.all([qc.invalidateQueries({ queryKey: recordingKeys.all }), qc.invalidateQueries({ queryKey: ['submissions'] })]);
}

export function useDeleteRecording() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api<null>(`/api/recordings/${id}`, { method: 'DELETE', query: lang() }),
    onSettled: invalidate,
  });
}

export function useAnswerRecording() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api<Recording>(`/api/recordings/${id}/answer`, { method: 'POST', query: lang() }),
    onSettled: invalidate,
  });
}

/** POST /api/recordings/{id}/seen: the student opened its feedback. The list stays as it is on screen. */
export function useMarkSeen() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<Recording>(`/api/recordings/${id}/seen`, { method: 'POST', query: lang() }),
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: recordingKeys.newFeedbackCount() }),
        qc.invalidateQueries({ queryKey: ['submissions'] }),
      ]),
  });
}

export function useAddComment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ recordingId, body }: { recordingId: number; body: CreateCommentBody }) =>
      api<RecordingComment>(`/api/recordings/${recordingId}/comments`, { method: 'POST', query: lang(), body }),
    onSettled: invalidate,
  });
}

/**
 * POST /api/recordings/{id}/voice-comments: a spoken comment (the clip, its length, the moment and
 * optional words) as multipart (docs/decisions/spoken-comments-and-quick-replies.md).
 */
export function useAddVoiceComment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ recordingId, clip, atMs, text }: { recordingId: number; clip: { blob: Blob; type: string; durationMs: number | null }; atMs: number | null; text: string }) => {
      const form = new FormData();
      if (clip.durationMs !== null) form.append('duration_ms', String(Math.round(clip.durationMs)));
      if (atMs !== null) form.append('at_ms', String(Math.round(atMs)));
      if (text.trim()) form.append('text', text.trim());
      form.append('file', clip.blob, `kommentar.${extensionFor(clip.type)}`);
      return api<RecordingComment>(`/api/recordings/${recordingId}/voice-comments`, { method: 'POST', query: lang(), formData: form });
    },
    onSettled: invalidate,
  });
}

/** GET /api/quick-replies: the teacher's own saved replies. */
export function useQuickReplies(enabled = true) {
  return useQuery({
    queryKey: recordingKeys.quickReplies(),
    queryFn: ({ signal }) => api<QuickReplyListResponse>('/api/quick-replies', { query: lang(), signal }).then((r) => r.data),
    enabled,
    staleTime: 5 * 60_000,
  });
}

export function useSaveQuickReply() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (text: string) => api<QuickReply>('/api/quick-replies', { method: 'POST', query: lang(), body: { text } }),
    onSettled: () => qc.invalidateQueries({ queryKey: recordingKeys.quickReplies() }),
  });
}

export function useDeleteQuickReply() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<null>(`/api/quick-replies/${id}`, { method: 'DELETE', query: lang() }),
    onSettled: () => qc.invalidateQueries({ queryKey: recordingKeys.quickReplies() }),
  });
}

export function useUpdateComment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateCommentBody }) =>
      api<RecordingComment>(`/api/recording-comments/${id}`, { method: 'PATCH', query: lang(), body }),
    onSettled: invalidate,
  });
}

export function useDeleteComment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api<null>(`/api/recording-comments/${id}`, { method: 'DELETE', query: lang() }),
    onSettled: invalidate,
  });
}

/** GET /api/storage/usage: the student's recordings against their quota, shown before they record. */
export function useStorageUsage(enabled = true) {
  return useQuery({
    queryKey: recordingKeys.storageUsage(),
    queryFn: ({ signal }) => api<StudentStorage>('/api/storage/usage', { signal }),
    enabled,
    staleTime: 30_000,
  });
}
