import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { PersistedClient, PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import type { QueryClient } from '@tanstack/react-query';
import { createStore, del, get, set } from 'idb-keyval';

/**
 * The student's query cache in IndexedDB (docs/decisions/offline-practice.md: the task list, each task and its sessions
 * readable without a connection). Only answers that succeeded are kept, for 7 days, for one user:
 * the buster carries the user id, so a second student on the same device starts empty; sign-out
 * deletes it. Teachers' data is not kept on the device.
 */
const store = typeof indexedDB === 'undefined' ? null : createStore('uebungskontrolle-cache', 'queries');

export const persister = createAsyncStoragePersister({
  storage: store
    ? {
        getItem: (key) => get<string>(key, store).then((v) => v ?? null),
        setItem: (key, value: string) => set(key, value, store),
        removeItem: (key) => del(key, store),
      }
    : undefined,
  key: 'student-queries',
  throttleTime: 1000,
  // A paged list is kept with its first page only: after a reload the list starts as it always
  // does ('Weitere Aufgaben laden' for the rest), and the device keeps less.
  serialize: (client) =>
    JSON.stringify({
      ...client,
      clientState: {
        ...client.clientState,
        queries: client.clientState.queries.map((q) => {
          const data = q.state.data as { pages?: unknown[]; pageParams?: unknown[] } | undefined;
          return data && Array.isArray(data.pages) && Array.isArray(data.pageParams) && data.pages.length > 1
            ? { ...q, state: { ...q.state, data: { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) } } }
            : q;
        }),
      },
    }),
  deserialize: restoredClient,
});

/**
 * Signed links of media files: what a write on the server changes is never in them, so a kept one
 * may be used as it is (the file itself comes from the service worker's cache by its path).
 */
const UNCHANGED_BY_WRITES = new Set(['media-url', 'recording-media-url']);

/**
 * A restored answer is shown at once, but counts as outdated: the stored copy is written at most
 * once a second (and the write is cut off by a reload or a closed tab), so it can be older than
 * what the last page showed, e.g. a task's recordings list from before a take was sent. Kept as
 * fresh (the app's staleTime is 30 s) such a copy would not be fetched again after a reload and
 * the take would seem gone. Marked invalidated, every restored query is fetched again as soon as
 * it is used with a connection; without one it stays as it is (the fetch waits for the connection).
 */
export function restoredClient(cached: string): PersistedClient {
  const client = JSON.parse(cached) as PersistedClient;
  const queries = client.clientState?.queries;
  if (!Array.isArray(queries)) return client;
  return {
    ...client,
    clientState: {
      ...client.clientState,
      queries: queries.map((q) => (UNCHANGED_BY_WRITES.has(String(q.queryKey[0])) ? q : { ...q, state: { ...q.state, isInvalidated: true } })),
    },
  };
}

/** How long a kept answer may be shown (and kept in memory once loaded). */
export const PERSIST_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

export function persistOptions(queryClient: QueryClient, userKey: string): Omit<PersistQueryClientOptions, 'queryClient'> {
  // A query nobody looks at would leave memory (and the stored copy) after 5 minutes: keep it a day.
  queryClient.setDefaultOptions({ ...queryClient.getDefaultOptions(), queries: { ...queryClient.getDefaultOptions().queries, gcTime: 24 * 60 * 60 * 1000 } });
  return {
    persister,
    maxAge: PERSIST_MAX_AGE_MS,
    buster: `${import.meta.env.VITE_BUILD_ID ?? 'dev'}:${userKey}`,
    dehydrateOptions: { shouldDehydrateQuery: (q) => q.state.status === 'success' },
  };
}

/** Sign-out: the stored cache and the cached media go (the next user of the device sees nothing). */
export async function forgetDeviceData(): Promise<void> {
  await Promise.allSettled([persister.removeClient(), typeof caches === 'undefined' ? Promise.resolve() : caches.delete('uebungskontrolle-media-v1')]);
}
