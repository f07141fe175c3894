import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import type { PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import type { QueryClient } from '@tanstack/react-query';
import { createStore, del, get, set } from 'idb-keyval';

/**
 * The student's query cache in IndexedDB (issue 17: the task list, each task and its sessions
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
});

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
