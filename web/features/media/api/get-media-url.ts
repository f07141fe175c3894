import { queryOptions, useQuery } from '@tanstack/react-query';
import { mediaApiPath } from '../lib/media-address';
import { api } from '@web/lib/api';

/** GET /api/media/{encoded path} → {url}: a signed link, valid for one hour. */
export function fetchMediaUrl(path: string, exerciseId: number | null | undefined, signal?: AbortSignal): Promise<{ url: string }> {
  return api<{ url: string }>(mediaApiPath(path, exerciseId), { signal });
}

/** The signed link of one media file, cached well inside its hour of validity (the task route's loader reads the score's early). */
export const mediaUrlQueryOptions = (path: string, exerciseId: number | null | undefined) =>
  queryOptions({
    queryKey: ['media-url', mediaApiPath(path, exerciseId)],
    queryFn: ({ signal }) => fetchMediaUrl(path, exerciseId, signal).then((r) => r.url),
    staleTime: 45 * 60_000,
    gcTime: 50 * 60_000,
  });

export function useMediaUrl(path: string, exerciseId: number | null | undefined) {
  return useQuery(mediaUrlQueryOptions(path, exerciseId));
}
