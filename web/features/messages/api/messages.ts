import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import type { Conversation, ConversationList, Message, MessageBody, MessagePage } from '@contract/messages';
import { api } from '@web/lib/api';
import { currentLanguage } from '@web/lib/i18n';
import { MESSAGES_KEY, unreadKey } from './unread';

export const messageKeys = {
  all: MESSAGES_KEY,
  conversations: () => [...MESSAGES_KEY, 'conversations'] as const,
  pages: (studentId: number) => [...MESSAGES_KEY, 'pages', studentId] as const,
};

/** GET /api/conversations: a teacher's one per student (waiting first), a student's own, a parent's one per child. */
export const conversationsQueryOptions = () =>
  queryOptions({
    queryKey: messageKeys.conversations(),
    queryFn: ({ signal }) => api<ConversationList>('/api/conversations', { query: { language: currentLanguage() }, signal }).then((r) => r.data),
    staleTime: 15_000,
    refetchOnWindowFocus: true,
  });

export function useConversations() {
  return useQuery(conversationsQueryOptions());
}

/** GET /api/conversations/{studentId}/messages: newest first, MESSAGE_LIMITS.pageSize a page; `next_before` asks for older ones. */
export const messagePagesQueryOptions = (studentId: number) =>
  infiniteQueryOptions({
    queryKey: messageKeys.pages(studentId),
    queryFn: ({ pageParam, signal }) =>
      api<MessagePage>(`/api/conversations/${studentId}/messages`, { query: { language: currentLanguage(), before: pageParam }, signal }),
    initialPageParam: null as number | null,
    getNextPageParam: (last: MessagePage) => last.next_before,
    staleTime: 15_000,
    refetchOnWindowFocus: true,
  });

export function useMessagePages(studentId: number) {
  return useInfiniteQuery(messagePagesQueryOptions(studentId));
}

type Pages = InfiniteData<MessagePage, number | null>;

/** Changes every loaded page of one conversation (and its pinned notes on the first). */
function updatePages(qc: QueryClient, studentId: number, change: (page: MessagePage, index: number) => MessagePage) {
  qc.setQueryData<Pages>(messageKeys.pages(studentId), (old) => (old ? { ...old, pages: old.pages.map(change) } : old));
}

/** The conversations' list and the badge after something was written or read. */
function refreshOverview(qc: QueryClient) {
  void qc.invalidateQueries({ queryKey: messageKeys.conversations() });
  void qc.invalidateQueries({ queryKey: unreadKey });
}

/** POST /api/conversations/{studentId}/messages: the new message goes on top of the newest page. */
export function useSendMessage(studentId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: MessageBody) => api<Message>(`/api/conversations/${studentId}/messages`, { method: 'POST', body, query: { language: currentLanguage() } }),
    onSuccess: (message) => {
      updatePages(qc, studentId, (page, i) => (i === 0 && !page.data.some((m) => m.id === message.id) ? { ...page, data: [message, ...page.data] } : page));
      refreshOverview(qc);
    },
  });
}

/** POST /api/conversations/{studentId}/read: everything up to `upTo` is read (the newest page was shown). */
export function useMarkRead(studentId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (upTo: number) => api<void>(`/api/conversations/${studentId}/read`, { method: 'POST', body: { up_to: upTo } }),
    onSuccess: (_void, upTo) => {
      // the list shows nothing unread here any more, before it is read again
      qc.setQueryData<Conversation[]>(messageKeys.conversations(), (old) =>
        old?.map((c) => (c.student_id === studentId && c.last_message && c.last_message.id <= upTo ? { ...c, unread: 0, waiting_since: null } : c)),
      );
      refreshOverview(qc);
    },
  });
}

/** PATCH /api/messages/{id}: the teacher pins or unpins a lesson note. */
export function usePinMessage(studentId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, pinned }: { id: number; pinned: boolean }) =>
      api<Message>(`/api/messages/${id}`, { method: 'PATCH', body: { pinned }, query: { language: currentLanguage() } }),
    onSuccess: (message) => {
      updatePages(qc, studentId, (page, i) => ({
        ...page,
        data: page.data.map((m) => (m.id === message.id ? message : m)),
        pinned: i > 0 ? page.pinned : message.pinned_at ? [message, ...page.pinned.filter((m) => m.id !== message.id)] : page.pinned.filter((m) => m.id !== message.id),
      }));
    },
  });
}

/** DELETE /api/messages/{id}: its author or the student's teacher. */
export function useDeleteMessage(studentId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>(`/api/messages/${id}`, { method: 'DELETE', query: { language: currentLanguage() } }),
    onSuccess: (_void, id) => {
      updatePages(qc, studentId, (page) => ({ ...page, data: page.data.filter((m) => m.id !== id), pinned: page.pinned.filter((m) => m.id !== id) }));
      refreshOverview(qc);
    },
  });
}
