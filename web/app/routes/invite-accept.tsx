import '@web/features/school/i18n';
import { useCallback } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import type { LoginResponse } from '@contract/auth';
import { queueFlashToast } from '@web/components/ui/toast';
import { reloadTo } from '@web/lib/navigation';
import { useAuth } from '@web/lib/auth/auth-provider';
import { authStore, postLogout } from '@web/lib/auth/auth-store';
import { InviteAcceptForm } from '@web/features/school/components/invite-accept-form';
import { SignedOutPage } from '../layout/signed-out-page';

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
    void import('@web/lib/persist').then((m) => m.forgetDeviceData());
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
    <SignedOutPage title={t('school:accept.title')} subtitle={t('school:accept.subtitle')} width="md">
      <InviteAcceptForm token={token} session={{ signedIn: Boolean(session), name: user?.name ?? null }} onSignOut={signOut} onAccepted={accepted} />
    </SignedOutPage>
  );
}
