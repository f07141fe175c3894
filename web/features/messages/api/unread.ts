import { useQuery } from '@tanstack/react-query';
import type { UnreadMessages } from '@contract/messages';
import { api } from '@web/lib/api';

/*
 * The unread count for the navigation's badge: what the signed-in layout needs without the rest of
 * the messages' feature and its texts, which load with the messages' screens.
 */

/** Every query of the messages starts with this key: a change can refresh them together. */
export const MESSAGES_KEY = ['messages'] as const;
export const unreadKey = [...MESSAGES_KEY, 'unread'] as const;

/** How often the badge asks again while the app is open (and on the window's focus). */
export const UNREAD_POLL_MS = 60_000;

/** GET /api/conversations/unread (teachers, students, parents): messages from others not yet read. */
export function useUnreadMessages(enabled: boolean) {
  return useQuery({
    queryKey: unreadKey,
    queryFn: ({ signal }) => api<UnreadMessages>('/api/conversations/unread', { signal }).then((r) => r.unread),
    enabled,
    staleTime: 30_000,
    refetchInterval: UNREAD_POLL_MS,
    refetchOnWindowFocus: true,
  });
}
