import { vi } from 'vitest';
import { jsonResponse } from '@web/test/render';

/** One call the screen made: method, path (without the query), query and JSON body. */
export type Call = { method: string; path: string; query: URLSearchParams; body: unknown; headers: Record<string, string> };

type Handler = (call: Call) => Response | Promise<Response> | undefined;

/**
 * A server stand-in for component tests (the fetch-stub pattern of the app's tests): `routes`
 * answers by "METHOD /path" (the query left out); a missing route answers 500 so that a test sees it.
 */
export function stubServer(routes: Record<string, Handler | Record<string, unknown>>) {
  const calls: Call[] = [];
  const fn = vi.fn(async (url: string, init: RequestInit = {}) => {
    const u = new URL(url, 'http://localhost');
    const call: Call = {
      method: init.method ?? 'GET',
      path: u.pathname,
      query: u.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const route = routes[`${call.method} ${call.path}`];
    if (route === undefined) return jsonResponse(500, { message: `no route ${call.method} ${call.path}` });
    if (typeof route === 'function') return (await (route as Handler)(call)) ?? jsonResponse(500, { message: 'no answer' });
    return jsonResponse(200, route);
  });
  vi.stubGlobal('fetch', fn);
  return { calls, writes: () => calls.filter((c) => c.method !== 'GET') };
}
