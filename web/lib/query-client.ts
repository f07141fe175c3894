import { QueryClient } from '@tanstack/react-query';
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
