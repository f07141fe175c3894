import { useCallback } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { LoginResponse } from '@contract/auth';
import { BrandMark } from '@web/components/brand-mark';
import { queueFlashToast } from '@web/components/ui/toast';
import { reloadTo } from '@web/lib/navigation';
import { useAuth } from '@web/features/auth/auth-provider';
import { authStore, postLogout } from '@web/features/auth/auth-store';
import { InviteAcceptForm } from '@web/features/school/components/invite-accept-form';
import { LanguageSwitcher } from '../layout/language-switcher';

/**
 * /einladung/:token (public, no app navigation): a teacher or a parent sets their password through
 * the one-time link and is signed in (as after sign-in: the page reloads at /).
 */
export default function InviteAcceptScreen() {
  const { token = '' } = useParams();
  const { t } = useTranslation(['school', 'auth']);
  const { user, token: session } = useAuth();
  const queryClient = useQueryClient();

  const signOut = useCallback(async () => {
    try {
      await postLogout();
    } catch (err) {
      console.error('Logout failed', err);
    }
    authStore.clear();
    queryClient.clear();
    void import('@web/features/offline/lib/persist').then((m) => m.forgetDeviceData());
  }, [queryClient]);

  const accepted = useCallback(
    (res: LoginResponse) => {
      authStore.setSession(res.token, res.user);
      queueFlashToast('success', t('school:accept.welcome'));
      reloadTo('/');
    },
    [t],
  );

  return (
    <div className="relative flex min-h-dvh flex-col bg-slate-50">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 top-0 h-72 bg-gradient-to-b from-brand-100/70 via-brand-50/40 to-transparent"
      />
      <div className="relative flex justify-end p-4">
        <LanguageSwitcher />
      </div>
      <main className="relative flex flex-1 items-start justify-center px-4 pt-4 pb-16 sm:items-center sm:pt-0">
        <div className="w-full max-w-md">
          <div className="mb-8 flex flex-col items-center text-center">
            <BrandMark className="size-12 rounded-2xl" />
            <h1 className="mt-5 text-2xl font-semibold tracking-tight text-slate-900">{t('school:accept.title')}</h1>
            <p className="mt-2 text-sm text-slate-600">{t('school:accept.subtitle')}</p>
          </div>
          <InviteAcceptForm token={token} session={{ signedIn: Boolean(session), name: user?.name ?? null }} onSignOut={signOut} onAccepted={accepted} />
          <p className="mt-6 text-center text-xs text-slate-500">{t('auth:footer')}</p>
        </div>
      </main>
    </div>
  );
}
