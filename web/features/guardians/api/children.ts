import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GuardianChild, GuardianChildrenResponse } from '@contract/guardians';
import { api } from '@web/lib/api';

/*
 * The guardian's list of children: what the signed-in layout needs (the bottom tabs) without the
 * rest of the parents' feature and its texts, which load with the parents' screens.
 */

export const guardianKeys = {
  all: ['guardians'] as const,
  ofStudent: (studentId: number) => ['guardians', 'student', studentId] as const,
  children: () => ['guardians', 'children'] as const,
  child: (id: number) => ['guardians', 'child', id] as const,
};

/** GET /api/guardian/children: the signed-in guardian's children by name. */
export function fetchGuardianChildren(signal?: AbortSignal): Promise<GuardianChild[]> {
  return api<GuardianChildrenResponse>('/api/guardian/children', { signal }).then((r) => r.data);
}

/** Re-read whenever the home mounts: a child can be linked or removed at any time. */
export const guardianChildrenQueryOptions = () =>
  queryOptions({ queryKey: guardianKeys.children(), queryFn: ({ signal }) => fetchGuardianChildren(signal), staleTime: 0 });

export function useGuardianChildren() {
  return useQuery(guardianChildrenQueryOptions());
}
