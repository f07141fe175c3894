import { resolve } from 'node:path';
import type { ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '@web/lib/auth/auth-store';
import { queryClient } from '@web/lib/query-client';
import { FIRST_SCREENS, SIGNED_IN_LAYOUT } from './first-screens';
import { routes } from './router';

const ROOT = resolve(import.meta.dirname, '../..');

async function screenOf(route: RouteObject): Promise<ComponentType | undefined> {
  if (typeof route.lazy !== 'function') return route.Component ?? undefined;
  return ((await route.lazy()) as { Component?: ComponentType }).Component;
}

const defaultOf = async (module: string) => ((await import(/* @vite-ignore */ resolve(ROOT, module))) as { default: ComponentType }).default;

afterEach(() => {
  authStore.clear();
  queryClient.clear();
});

/**
 * web/warm-up.js asks for the script files of these screens before the router runs: a screen listed
 * with another file than the router's would load code for nothing and leave its own to the router.
 */
describe('the first screens the warm-up script loads ahead', () => {
  it.each(FIRST_SCREENS)('$example ($role) is the router’s $module inside the signed-in layout', async ({ example, role, module, path }) => {
    expect(new RegExp(path).test(example)).toBe(true);
    authStore.setSession('token-of-the-test', { id: 1, name: 'Ayşe Demir', email: 'ayse@example.com', role: { name: role ?? 'teacher' } } as never);
    const matches = matchRoutes(routes, example);
    expect(matches, example).not.toBeNull();
    const components = await Promise.all(matches!.map((m) => screenOf(m.route)));
    expect(components).toContain(await defaultOf(module));
    expect(components).toContain(await defaultOf(SIGNED_IN_LAYOUT));
  });

  it.each(FIRST_SCREENS.filter((s) => s.reads))('$example ($role): every read started ahead is one the router asks for, as it asks', async ({ example, role, path, reads }) => {
    authStore.setSession('token-of-the-test', { id: 1, name: 'Ayşe Demir', email: 'ayse@example.com', role: { name: role ?? 'teacher' } } as never);
    const asked: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        asked.push(url);
        return new Response(JSON.stringify(url.endsWith('/recordings?language=de') ? { data: [] } : {}), { status: 200 });
      }),
    );
    const found = new RegExp(path).exec(example)!;
    const route = matchRoutes(routes, example)!.at(-1)!.route;
    expect(typeof route.loader).toBe('function');
    await (route.loader as (args: unknown) => Promise<unknown>)({ params: { id: found[1] }, request: new Request(`http://localhost${example}`) });
    await vi.waitFor(() => expect(asked.length).toBeGreaterThanOrEqual(reads!.length));
    for (const read of reads!) expect(asked).toContain(read.replace(/\$1/g, found[1]!).replace('$lang', 'de'));
    vi.unstubAllGlobals();
  });
});
