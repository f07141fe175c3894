import { resolve } from 'node:path';
import type { ComponentType } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { authStore } from '@web/lib/auth/auth-store';
import { FIRST_SCREENS, SIGNED_IN_LAYOUT } from './first-screens';
import { routes } from './router';

const ROOT = resolve(import.meta.dirname, '../..');

async function screenOf(route: RouteObject): Promise<ComponentType | undefined> {
  if (typeof route.lazy !== 'function') return route.Component ?? undefined;
  return ((await route.lazy()) as { Component?: ComponentType }).Component;
}

const defaultOf = async (module: string) => ((await import(/* @vite-ignore */ resolve(ROOT, module))) as { default: ComponentType }).default;

afterEach(() => authStore.clear());

/**
 * web/warm-up.js asks for the script files of these screens before the router runs: a screen listed
 * with another file than the router's would load code for nothing and leave its own to the router.
 */
describe('the first screens the warm-up script loads ahead', () => {
  it.each(FIRST_SCREENS)('$example ($role) is the router’s $module inside the signed-in layout', async ({ example, role, module, path }) => {
    expect(new RegExp(path).test(example)).toBe(true);
    authStore.setSession('token-of-the-test', { id: 1, name: 'Ayşe Demir', email: 'ayse@example.com', role: { name: role ?? 'student' } } as never);
    const matches = matchRoutes(routes, example);
    expect(matches, example).not.toBeNull();
    const components = await Promise.all(matches!.map((m) => screenOf(m.route)));
    expect(components).toContain(await defaultOf(module));
    expect(components).toContain(await defaultOf(SIGNED_IN_LAYOUT));
  });
});
