import { queryOptions } from '@tanstack/react-query';
import type { RecordingListResponse } from '@contract/recordings';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';

/*
 * The recordings' keys and the task's list read, without the writes: small, so the router can start
 * the list beside the practice screen's chunk (docs/decisions/first-load-on-a-phone.md).
 */

/** Every recordings query starts with ['recordings']; the task list's 'Neues Feedback' lives under ['submissions']. */
export const recordingKeys = {
  all: ['recordings'] as const,
  list: (submissionId: number) => ['recordings', 'list', submissionId] as const,
  one: (id: number) => ['recordings', 'one', id] as const,
  inbox: (courseId: number | null, page: number) => ['recordings', 'inbox', { courseId, page }] as const,
  inboxCount: (courseId: number | null) => ['recordings', 'inbox-count', { courseId }] as const,
  newFeedbackCount: () => ['recordings', 'new-feedback-count'] as const,
  /** The student's storage (under ['recordings']: a sent or deleted take refreshes it). */
  storageUsage: () => ['recordings', 'storage-usage'] as const,
  /** The teacher's saved quick replies (not under ['recordings']: a comment does not change them). */
  quickReplies: () => ['quick-replies'] as const,
  /** Not under ['recordings']: a new signed link after every comment would reload the player. */
  mediaUrl: (path: string) => ['recording-media-url', path] as const,
};

/** GET /api/submissions/{id}/recordings: newest first, each with its comments. */
export const recordingListQueryOptions = (submissionId: number) =>
  queryOptions({
    queryKey: recordingKeys.list(submissionId),
    queryFn: ({ signal }) =>
      api<RecordingListResponse>(`/api/submissions/${submissionId}/recordings`, { query: { language: currentLanguage() }, signal }).then((r) => r.data),
  });
