import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { LoginResponse, User } from '@contract/auth';
import { queueFlashToast } from '@web/lib/flash-toast';
import { STORAGE_KEYS } from '@contract/constants';
import { reloadTo } from '@web/lib/navigation';
import { authStore, ensureUser, postLogin, postLogout } from './auth-store';

export type Role = User['role']['name'];

export type AuthContextValue = {
  user: User | null;
  role: Role | null;
  token: string | null;
  isAuthenticated: boolean;
  isTeacher: boolean;
  isStudent: boolean;
  /** Signs in; on success the page goes to / with a reload. Throws ApiError on failure. */
  login: (email: string, password: string) => Promise<void>;
  /** POST /api/logout (errors only logged), clears the session, then /login. */
  logout: () => Promise<void>;
  /** Ends the session on this device and stays on the page (a link page asks to sign out first). */
  signOutHere: () => Promise<void>;
  /** Takes the session a link page got (an invitation, a new password) and reloads at / with `flash` shown there. */
  adoptSession: (res: LoginResponse, flash: string) => void;
};

const AuthContext = createContext<AuthContextValue | null>(null);

/**
 * Must sit inside the router (it navigates) and inside QueryClientProvider. `notify` shows a
 * success message ('Erfolgreich abgemeldet'): the app passes its toast in (web/app/root.tsx), so
 * this lib knows no component (docs/decisions/feature-boundaries.md).
 */
export function AuthProvider({ children, notify }: { children: ReactNode; notify: (message: string) => void }) {
  const state = useSyncExternalStore(authStore.subscribe, authStore.get, authStore.get);
  const navigate = useNavigate();
  const { t } = useTranslation('auth');
  const queryClient = useQueryClient();

  // App start: a stored token loads its user; a failure logs out ('Token ungültig, logout').
  useEffect(() => {
    if (state.token && !state.user) void ensureUser();
  }, [state.token, state.user]);

  // Signed out in another tab: follow.
  useEffect(() => {
    const onStorage = (e: StorageEvent) => {
      if (e.key === STORAGE_KEYS.token || e.key === null) authStore.syncToken();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, []);

  const adoptSession = useCallback((res: LoginResponse, flash: string) => {
    authStore.setSession(res.token, res.user);
    queueFlashToast('success', flash);
    reloadTo('/');
  }, []);

  const login = useCallback(
    async (email: string, password: string) => {
      adoptSession(await postLogin(email, password), t('loginSuccess'));
    },
    [adoptSession, t],
  );

  const signOutHere = useCallback(async () => {
    try {
      await postLogout();
    } catch (err) {
      console.error('Logout failed', err);
    }
    authStore.clear();
    queryClient.clear();
    void import('@web/lib/persist').then((m) => m.forgetDeviceData());
  }, [queryClient]);

  const logout = useCallback(async () => {
    await signOutHere();
    notify(t('logoutSuccess'));
    void navigate('/login', { replace: true });
  }, [navigate, notify, signOutHere, t]);

  const value = useMemo<AuthContextValue>(() => {
    const role = state.user?.role.name ?? null;
    return {
      user: state.user,
      role,
      token: state.token,
      isAuthenticated: Boolean(state.token),
      isTeacher: role === 'teacher',
      isStudent: role === 'student',
      login,
      logout,
      signOutHere,
      adoptSession,
    };
  }, [state, login, logout, signOutHere, adoptSession]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth() needs an <AuthProvider> above it');
  return ctx;
}
