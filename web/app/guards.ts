import { redirect } from 'react-router';
import type { User } from '@contract/auth';
import { authStore, ensureUser, userLoadFailure } from '@web/lib/auth/auth-store';

/**
 * Route guards of SPEC.md section 2. A token without a loaded user fetches the user first
 * (a failure there is ignored: the session is then gone and the guard decides on that).
 */
async function currentUser(): Promise<User | null> {
  if (authStore.get().token && !authStore.get().user) await ensureUser();
  // Only a 401 ends the session. Without a connection the token stays: the route shows its error
  // screen with 'Seite neu laden' instead of sending a signed-in user to /login.
  const failure = userLoadFailure();
  if (failure) throw failure;
  return authStore.get().token ? authStore.get().user : null;
}

/** Login required: guests go to /login. */
export async function requireUser() {
  const user = await currentUser();
  if (!user) throw redirect('/login');
  return null;
}

/** Role required: guests go to /login, other roles to /. */
export function requireRole(...roles: Array<User['role']['name']>) {
  return async () => {
    const user = await currentUser();
    if (!user) throw redirect('/login');
    if (!roles.includes(user.role.name)) throw redirect('/');
    return null;
  };
}

/** Guests only: a signed-in user goes to /. */
export async function guestOnly() {
  const user = await currentUser();
  if (user) throw redirect('/');
  return null;
}
