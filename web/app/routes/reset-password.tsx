import '@web/features/password-reset/i18n';
import { useCallback } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LoginResponse } from '@contract/auth';
import { useAuth } from '@web/lib/auth/auth-provider';
import { ResetPasswordForm } from '@web/features/password-reset/components/reset-password-form';
import { SignedOutPage } from '../layout/signed-out-page';

/**
 * /passwort-neu/:token (public, no app navigation): the link of a "Passwort vergessen?" mail sets a
 * new password and signs in (as after sign-in: the page reloads at /).
 */
export default function ResetPasswordScreen() {
  const { token = '' } = useParams();
  const { t } = useTranslation('password');
  const { user, token: session, signOutHere, adoptSession } = useAuth();

  const done = useCallback((res: LoginResponse) => adoptSession(res, t('reset.done')), [adoptSession, t]);

  return (
    <SignedOutPage title={t('reset.title')} subtitle={t('reset.subtitle')}>
      <ResetPasswordForm token={token} session={{ signedIn: Boolean(session), name: user?.name ?? null }} onSignOut={signOutHere} onDone={done} />
    </SignedOutPage>
  );
}
