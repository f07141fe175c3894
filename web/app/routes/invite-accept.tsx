import '@web/features/school/i18n';
import { useCallback } from 'react';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LoginResponse } from '@contract/auth';
import { useAuth } from '@web/lib/auth/auth-provider';
import { InviteAcceptForm } from '@web/features/school/components/invite-accept-form';
import { SignedOutPage } from '../layout/signed-out-page';

/**
 * /einladung/:token (public, no app navigation): a teacher or a parent sets their password through
 * the one-time link and is signed in (as after sign-in: the page reloads at /).
 */
export default function InviteAcceptScreen() {
  const { token = '' } = useParams();
  const { t } = useTranslation(['school', 'auth']);
  const { user, token: session, signOutHere, adoptSession } = useAuth();

  const accepted = useCallback((res: LoginResponse) => adoptSession(res, t('school:accept.welcome')), [adoptSession, t]);

  return (
    <SignedOutPage title={t('school:accept.title')} subtitle={t('school:accept.subtitle')} width="md">
      <InviteAcceptForm token={token} session={{ signedIn: Boolean(session), name: user?.name ?? null }} onSignOut={signOutHere} onAccepted={accepted} />
    </SignedOutPage>
  );
}
