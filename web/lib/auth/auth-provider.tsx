import { createContext, useCallback, useContext, useEffect, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { User } from '@contract/auth';
import { queueFlashToast, useToast } from '@web/components/ui/toast';
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
};

const AuthContext = createContext<AuthContextValue | null>(null);

/** Must sit inside the router (it navigates) and inside ToastProvider and QueryClientProvider. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const state = useSyncExternalStore(authStore.subscribe, authStore.get, authStore.get);
  const navigate = useNavigate();
  const toast = useToast();
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

  const login = useCallback(
    async (email: string, password: string) => {
      const res = await postLogin(email, password);
      authStore.setSession(res.token, res.user);
      queueFlashToast('success', t('loginSuccess'));
      reloadTo('/');
    },
    [t],
  );

  const logout = useCallback(async () => {
    try {
      await postLogout();
    } catch (err) {
      console.error('Logout failed', err);
    }
    authStore.clear();
    queryClient.clear();
    void import('@web/lib/persist').then((m) => m.forgetDeviceData());
    toast.success(t('logoutSuccess'));
    void navigate('/login', { replace: true });
  }, [navigate, queryClient, t, toast]);

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
    };
  }, [state, login, logout]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth() needs an <AuthProvider> above it');
  return ctx;
}
