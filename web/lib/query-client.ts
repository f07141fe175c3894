import { QueryClient, onlineManager } from '@tanstack/react-query';
import { ApiError } from './api';

/** One QueryClient for the app: no retries on 4xx answers (they will not change), two on others. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
      },
      mutations: { retry: false },
    },
  });
}

export const queryClient = createQueryClient();

/** How old an answer may be and still count as the current one when a screen mounts. */
export const JUST_FETCHED_MS = 2_000;

/**
 * `refetchOnMount` of the reads that are otherwise re-read on every mount (staleTime 0): not an
 * answer of the last two seconds, which the route's loader fetched for this very mount (fetching
 * it again would only cost a phone a request and a second render before it can paint).
 */
export function refetchUnlessJustFetched(query: { state: { dataUpdatedAt: number; isInvalidated: boolean } }): boolean {
  return query.state.isInvalidated || Date.now() - query.state.dataUpdatedAt > JUST_FETCHED_MS;
}

// TanStack Query starts as 'online' and then follows the online/offline events: a page opened
// without a network (docs/decisions/offline-practice.md: a reload in the practice room) starts offline; a network without
// a server is found by the first call (web/lib/connectivity.ts).
if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);
