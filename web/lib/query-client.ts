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

// TanStack Query starts as 'online' and then follows the online/offline events: a page opened
// without a network (issue 17: a reload in the practice room) starts offline; a network without
// a server is found by the first call (web/lib/connectivity.ts).
if (typeof navigator !== 'undefined' && navigator.onLine === false) onlineManager.setOnline(false);
