import '@web/features/school/i18n';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LinkIcon, UserCheck } from 'lucide-react';
import type { LoginResponse } from '@contract/auth';
import { PASSWORD_MIN_LENGTH } from '@contract/constants';
import { INVITE_TOKEN_PATTERN } from '@contract/school-limits';
import { Button } from '@web/components/ui/button';
import { NewPasswordForm } from '@web/components/new-password-form';
import { PanelCard as Box, PanelMessage } from '@web/components/panel-card';
import { SignOutFirstActions } from '@web/components/sign-out-first';
import { Skeleton } from '@web/components/ui/skeleton';
import { isApiError } from '@web/lib/api';
import { formatDate } from '@web/lib/format';
import { acceptInvite, usePublicInvite } from '../api/invites';
import { errorText } from '../lib/school';

export type InviteAcceptFormProps = {
  token: string;
  /** Someone is signed in in this browser (their name once known). */
  session: { signedIn: boolean; name: string | null };
  /** Signs the current user out and stays on this page. */
  onSignOut: () => Promise<void>;
  /** The invitation was accepted: the answer of POST /api/invites/{token}/accept (a session, as after sign-in). */
  onAccepted: (res: LoginResponse) => void;
};

/**
 * The invitation page's card: greets with the name, school and role, asks for a password twice
 * (PASSWORD_MIN_LENGTH), and signs in. An unknown, used, revoked or expired link says so and leads
 * to the sign-in page; a browser with a session asks to sign out first.
 */
export function InviteAcceptForm({ token, session, onSignOut, onAccepted }: InviteAcceptFormProps) {
  const { t } = useTranslation(['school', 'auth', 'common']);
  const wellFormed = new RegExp(INVITE_TOKEN_PATTERN).test(token);
  const invite = usePublicInvite(token, wellFormed && !session.signedIn);

  if (session.signedIn) {
    return (
      <Box testId="invite-signed-in">
        <PanelMessage tone="brand" icon={<UserCheck aria-hidden="true" className="size-5 text-brand-700" />} title={t('school:accept.signedInTitle')}>
          <p className="mt-1 text-sm text-slate-600">
            {session.name ? t('school:accept.signedInAs', { name: session.name }) : t('school:accept.signedInSomeone')} {t('school:accept.signedInText')}
          </p>
        </PanelMessage>
        <SignOutFirstActions signOutLabel={t('school:accept.signOut')} homeLabel={t('school:accept.toHome')} onSignOut={onSignOut} />
      </Box>
    );
  }

  if (wellFormed && invite.isPending) {
    return (
      <Box>
        <div role="status" aria-label={t('common:actions.loading')} className="space-y-4">
          <Skeleton className="h-6 w-2/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-4 w-5/6" />
          <Skeleton className="mt-6 h-10 w-full" />
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      </Box>
    );
  }

  if (!wellFormed || invite.isError || !invite.data) {
    const gone = !wellFormed || isApiError(invite.error, 404) || isApiError(invite.error, 422) || isApiError(invite.error, 410);
    return (
      <Box testId="invite-invalid">
        <PanelMessage role="alert" tone="amber" icon={<LinkIcon aria-hidden="true" className="size-5 text-amber-700" />} title={gone ? t('school:accept.invalidTitle') : t('school:accept.loadErrorTitle')}>
          <p className="mt-1 text-sm text-slate-600">{gone ? t('school:accept.invalidText') : errorText(invite.error, t('common:errors.generic'))}</p>
        </PanelMessage>
        <div className="mt-6 flex flex-col gap-2">
          {!gone && (
            <Button fullWidth size="lg" loading={invite.isFetching} onClick={() => void invite.refetch()}>
              {t('common:actions.retry')}
            </Button>
          )}
          <Link
            to="/login"
            className={
              gone
                ? 'inline-flex h-12 items-center justify-center rounded-lg bg-brand-600 px-5 text-base font-medium text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900'
                : 'inline-flex h-12 items-center justify-center rounded-lg text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900'
            }
          >
            {t('school:accept.toLogin')}
          </Link>
        </div>
      </Box>
    );
  }

  const inv = invite.data;
  const role = inv.kind === 'teacher' ? t('school:accept.roleTeacher') : t('school:accept.roleGuardian', { names: inv.students.join(', ') });

  return (
    <Box testId="invite-accept">
      <h2 className="text-lg font-semibold text-slate-900">{t('school:accept.greeting', { name: inv.name })}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('school:accept.intro')}</p>
      <dl className="mt-4 space-y-1.5 rounded-lg bg-slate-50 px-4 py-3 text-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-slate-600">{t('school:accept.school')}:</dt>
          <dd className="font-medium text-slate-900" data-testid="invite-school">
            {inv.school}
          </dd>
        </div>
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-slate-600">{t('school:accept.role')}:</dt>
          <dd className="font-medium text-slate-900" data-testid="invite-role">
            {role}
          </dd>
        </div>
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-slate-600">{t('school:accept.email')}:</dt>
          <dd className="min-w-0 font-medium break-all text-slate-900">{inv.email}</dd>
        </div>
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-slate-600">{t('school:accept.validUntil')}:</dt>
          <dd className="font-medium text-slate-900">{formatDate(inv.expires_at)}</dd>
        </div>
      </dl>
      <NewPasswordForm
        email={inv.email}
        onSubmit={async (password) => onAccepted(await acceptInvite(token, password))}
        texts={{
          password: t('school:accept.password'),
          passwordHint: t('school:accept.passwordHint', { count: PASSWORD_MIN_LENGTH }),
          repeat: t('school:accept.repeat'),
          submit: t('school:accept.submit'),
          submitting: t('school:accept.submitting'),
          passwordRequired: t('school:accept.errors.passwordRequired'),
          passwordShort: t('school:accept.errors.passwordShort', { count: PASSWORD_MIN_LENGTH }),
          repeatRequired: t('school:accept.errors.repeatRequired'),
          mismatch: t('school:accept.errors.mismatch'),
          linkGone: t('school:accept.invalidText'),
          failed: t('school:accept.errors.failed'),
        }}
      />
    </Box>
  );
}
