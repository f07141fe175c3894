import { useQuery } from '@tanstack/react-query';
import type { LoginResponse } from '@contract/auth';
import type { PasswordResetPublic, PasswordResetRequested } from '@contract/password-reset';
import { api } from '@web/lib/api';

/** POST /api/password-reset (public): the same answer whether an account has the address or not. */
export function requestPasswordReset(email: string): Promise<PasswordResetRequested> {
  return api<PasswordResetRequested>('/api/password-reset', { method: 'POST', body: { email } });
}

/** GET /api/password-reset/{token} (public): whose password the link sets; 404 when it cannot be used. */
export function usePasswordResetLink(token: string, enabled = true) {
  return useQuery({
    queryKey: ['password-reset', token] as const,
    queryFn: ({ signal }) => api<PasswordResetPublic>(`/api/password-reset/${encodeURIComponent(token)}`, { signal }),
    staleTime: Infinity,
    retry: false,
    enabled,
  });
}

/** POST /api/password-reset/{token} (public): sets the password, ends the other sessions; answers like POST /api/login. */
export function setNewPassword(token: string, password: string): Promise<LoginResponse> {
  return api<LoginResponse>(`/api/password-reset/${encodeURIComponent(token)}`, { method: 'POST', body: { password } });
}
