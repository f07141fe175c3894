import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoginResponse } from '@contract/auth';
import type { InvitePublic } from '@contract/school';
import { api } from '@web/lib/api';

export const publicInviteKey = (token: string) => ['invite', token] as const;

/** GET /api/invites/{token} (public): whom the invitation greets; 404 for an unknown, used, revoked or expired link. */
export function fetchPublicInvite(token: string, signal?: AbortSignal): Promise<InvitePublic> {
  return api<InvitePublic>(`/api/invites/${encodeURIComponent(token)}`, { signal });
}

export const publicInviteQueryOptions = (token: string) =>
  queryOptions({ queryKey: publicInviteKey(token), queryFn: ({ signal }) => fetchPublicInvite(token, signal), staleTime: Infinity });

export function usePublicInvite(token: string, enabled = true) {
  return useQuery({ ...publicInviteQueryOptions(token), enabled });
}

/** POST /api/invites/{token}/accept (public): sets the password; answers like POST /api/login. */
export function acceptInvite(token: string, password: string): Promise<LoginResponse> {
  return api<LoginResponse>(`/api/invites/${encodeURIComponent(token)}/accept`, { method: 'POST', body: { password } });
}
