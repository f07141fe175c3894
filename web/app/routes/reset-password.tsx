import '@web/features/password-reset/i18n';
import { useCallback } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { LoginResponse } from '@contract/auth';
import { queueFlashToast } from '@web/components/ui/toast';
import { reloadTo } from '@web/lib/navigation';
import { useAuth } from '@web/lib/auth/auth-provider';
import { authStore, postLogout } from '@web/lib/auth/auth-store';
import { ResetPasswordForm } from '@web/features/password-reset/components/reset-password-form';
import { SignedOutPage } from '../layout/signed-out-page';

/**
 * /passwort-neu/:token (public, no app navigation): the link of a "Passwort vergessen?" mail sets a
 * new password and signs in (as after sign-in: the page reloads at /).
 */
export default function ResetPasswordScreen() {
  const { token = '' } = useParams();
  const { t } = useTranslation('password');
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
    void import('@web/lib/persist').then((m) => m.forgetDeviceData());
  }, [queryClient]);

  const done = useCallback(
    (res: LoginResponse) => {
      authStore.setSession(res.token, res.user);
      queueFlashToast('success', t('reset.done'));
      reloadTo('/');
    },
    [t],
  );

  return (
    <SignedOutPage title={t('reset.title')} subtitle={t('reset.subtitle')}>
      <ResetPasswordForm token={token} session={{ signedIn: Boolean(session), name: user?.name ?? null }} onSignOut={signOut} onDone={done} />
    </SignedOutPage>
  );
}
