import type { LoginResponse, User } from '@contract/auth';
import { api, isApiError } from '@web/lib/api';
import { STORAGE_KEYS } from '@contract/constants';
import { getToken, readStorage, setToken, writeStorage } from '@web/lib/storage';

/**
 * The session outside React, so that route guards (loaders) and the API client's 401 handling
 * can read and change it. React reads it through useAuth().
 */
export type AuthState = { token: string | null; user: User | null };

let state: AuthState = { token: getToken(), user: null };
const listeners = new Set<() => void>();
let loading: Promise<User | null> | null = null;
/** Why the last ensureUser() found no user although a token is kept (no connection, 5xx). */
let lastFailure: unknown = null;

/** The error of the last failed user load that kept the session (not a 401), or null. */
export function userLoadFailure(): unknown {
  return state.token && !state.user ? lastFailure : null;
}

/**
 * The user of the stored token as last loaded, so the app opens without a connection (docs/decisions/offline-practice.md:
 * a student in a practice room). Kept beside the token, with the token's last characters to tell
 * whose it is; gone with the session.
 */
type LastUser = { tokenTail: string; user: User };
const tail = (token: string) => token.slice(-12);
function rememberUser(token: string, user: User | null) {
  writeStorage(STORAGE_KEYS.lastUser, user ? JSON.stringify({ tokenTail: tail(token), user } satisfies LastUser) : null);
}
function rememberedUser(token: string): User | null {
  try {
    const v = JSON.parse(readStorage(STORAGE_KEYS.lastUser) ?? 'null') as LastUser | null;
    return v && v.tokenTail === tail(token) && v.user && typeof v.user.id === 'number' ? v.user : null;
  } catch {
    return null;
  }
}

/** The user of the stored token as last seen (before anything is loaded): decides whether the query cache is restored. */
export function rememberedSessionUser(): User | null {
  const token = getToken();
  return token ? rememberedUser(token) : null;
}

function set(next: Partial<AuthState>) {
  state = { ...state, ...next };
  listeners.forEach((l) => l());
}

export const authStore = {
  get: (): AuthState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Forgets the session in this browser (token and user); no server call. */
  clear(): void {
    setToken(null);
    writeStorage(STORAGE_KEYS.lastUser, null);
    loading = null;
    set({ token: null, user: null });
  },
  /** Stores a new token (after sign-in). */
  setSession(token: string, user: User): void {
    setToken(token);
    rememberUser(token, user);
    set({ token, user });
  },
  /** Re-reads the token from storage (another tab may have changed it). */
  syncToken(): void {
    const token = getToken();
    if (token !== state.token) set({ token, user: token ? state.user : null });
  },
};

/** GET /api/user with the stored token. Throws ApiError. */
export function fetchCurrentUser(): Promise<User> {
  return api<User>('/api/user');
}

/**
 * Loads the current user once per token. A 401 means the token is no longer valid: the session
 * is dropped (console: 'Token ungültig, logout'). Any other failure (no connection, a 5xx) keeps
 * the session – the user stays signed in and the next attempt may succeed. Either way null is
 * returned; callers may ignore the failure (`userLoadFailed()` tells a guard which one it was).
 */
export function ensureUser(): Promise<User | null> {
  lastFailure = null;
  if (state.user) return Promise.resolve(state.user);
  if (!state.token) return Promise.resolve(null);
  if (loading) return loading;
  const token = state.token;
  // A student known from the last visit: the app opens at once with them (no round trip before
  // the first screen; a practice room without signal) and asks the server in the background; a
  // 401 there ends the session as ever. Teachers wait for the answer (their home measured worse
  // when drawn before it: a large layout shift), and use the known user only without a connection.
  const known = rememberedUser(token);
  if (known?.role.name === 'student') {
    set({ user: known });
    fetchCurrentUser().then(
      (user) => {
        if (state.token !== token) return;
        rememberUser(token, user);
        if (JSON.stringify(user) !== JSON.stringify(state.user)) set({ user });
      },
      (err: unknown) => {
        if (isApiError(err, 401)) {
          console.log('Token ungültig, logout');
          if (state.token === token) authStore.clear();
        }
      },
    );
    return Promise.resolve(known);
  }
  loading = fetchCurrentUser().then(
    (user) => {
      if (state.token === token) {
        rememberUser(token, user);
        set({ user });
      }
      loading = null;
      return user;
    },
    (err: unknown) => {
      loading = null;
      if (isApiError(err, 401)) {
        console.log('Token ungültig, logout');
        if (state.token === token) authStore.clear();
      } else {
        // No connection: the user this token belonged to when last seen, if known (the app works
        // offline from its caches; the server decides again when the connection is back).
        const known = isApiError(err, 0) ? rememberedUser(token) : null;
        if (known && state.token === token) {
          set({ user: known });
          return known;
        }
        console.error('Benutzer konnte nicht geladen werden', err);
        lastFailure = err;
      }
      return null;
    },
  );
  return loading;
}

export function postLogin(email: string, password: string): Promise<LoginResponse> {
  return api<LoginResponse>('/api/login', { method: 'POST', body: { email, password } });
}

export function postLogout(): Promise<unknown> {
  return api('/api/logout', { method: 'POST' });
}
