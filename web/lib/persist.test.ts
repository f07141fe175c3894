import { describe, expect, it } from 'vitest';
import { QueryClient, QueryObserver, dehydrate, hydrate } from '@tanstack/react-query';
import type { PersistedClient } from '@tanstack/react-query-persist-client';
import { restoredClient } from './persist';

/**
 * The device's copy of a student's queries (docs/decisions/offline-practice.md) lags behind the screen: it is written at
 * most once a second, and a reload cuts off a write that was due. What comes back is shown, but
 * fetched again: a recordings list kept from before a take was sent must not stand as fresh.
 */
async function storedCopy(): Promise<string> {
  const before = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
  await before.prefetchQuery({ queryKey: ['recordings', 'list', 62], queryFn: () => [] });
  await before.prefetchQuery({ queryKey: ['recording-media-url', 'recordings/62/a.webm'], queryFn: () => 'https://x/a.webm?sig=1' });
  const client: PersistedClient = { timestamp: Date.now(), buster: 'b', clientState: dehydrate(before) };
  return JSON.stringify(client);
}

describe('restoring the stored queries', () => {
  it('shows a restored answer at once but fetches it again when it is used', async () => {
    const restored = restoredClient(await storedCopy());
    const after = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    hydrate(after, restored.clientState);
    expect(after.getQueryData(['recordings', 'list', 62])).toEqual([]);

    let fetched = 0;
    const observer = new QueryObserver(after, {
      queryKey: ['recordings', 'list', 62],
      queryFn: () => {
        fetched++;
        return [{ id: 1 }];
      },
    });
    const off = observer.subscribe(() => undefined);
    await expect.poll(() => after.getQueryData(['recordings', 'list', 62])).toEqual([{ id: 1 }]);
    expect(fetched).toBe(1);
    off();
  });

  it('keeps signed media links as they are (no write changes them)', async () => {
    const restored = restoredClient(await storedCopy());
    const states = Object.fromEntries(restored.clientState.queries.map((q) => [String(q.queryKey[0]), q.state.isInvalidated]));
    expect(states).toEqual({ recordings: true, 'recording-media-url': false });
  });

  it('leaves a copy without queries as it is', () => {
    const empty = JSON.stringify({ timestamp: 1, buster: 'b', clientState: { mutations: [], queries: [] } });
    expect(restoredClient(empty)).toEqual(JSON.parse(empty));
  });
});
