import { vi } from 'vitest';
import type { ReactElement } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import i18n from '@web/lib/i18n';
import { createQueryClient } from '@web/lib/query-client';
import Root from '@web/app/root';

/**
 * Renders a component the way the app does: i18n, TanStack Query, a (memory) router, toasts,
 * confirmations and the session. Options: the start path and a QueryClient of your own.
 */
export function renderWithApp(ui: ReactElement, opts: { path?: string; queryClient?: QueryClient } = {}): RenderResult & { queryClient: QueryClient } {
  const queryClient = opts.queryClient ?? createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false, staleTime: Infinity } });
  const router = createMemoryRouter([{ element: <Root />, children: [{ path: '*', element: ui }] }], {
    initialEntries: [opts.path ?? '/'],
  });
  const result = render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return { ...result, queryClient };
}

/** A fetch answer as the server would send it. */
export function jsonResponse(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

/** One call the stubbed fetch saw: the path, the method and the JSON body. */
export type FetchCall = { url: string; method: string; body: unknown };

/** Replaces fetch with `answer` (vi.unstubAllGlobals() restores it) and records every call. */
export function stubFetch(answer: (c: FetchCall) => Response): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const c = { url, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : undefined };
      calls.push(c);
      return answer(c);
    }),
  );
  return calls;
}
