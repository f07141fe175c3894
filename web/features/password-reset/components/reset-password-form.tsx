import '@web/features/password-reset/i18n';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LinkIcon, UserCheck } from 'lucide-react';
import type { LoginResponse } from '@contract/auth';
import { PASSWORD_RESET_TOKEN_PATTERN } from '@contract/password-reset-limits';
import { PASSWORD_MIN_LENGTH } from '@contract/constants';
import { Button } from '@web/components/ui/button';
import { NewPasswordForm } from '@web/components/new-password-form';
import { PanelCard as Box, PanelMessage } from '@web/components/panel-card';
import { SignOutFirstActions } from '@web/components/sign-out-first';
import { Skeleton } from '@web/components/ui/skeleton';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { setNewPassword, usePasswordResetLink } from '../api/password-reset';

export type ResetPasswordFormProps = {
  token: string;
  /** Someone is signed in in this browser (their name once known). */
  session: { signedIn: boolean; name: string | null };
  /** Signs the current user out and stays on this page. */
  onSignOut: () => Promise<void>;
  /** The password is set: the answer of POST /api/password-reset/{token} (a session, as after sign-in). */
  onDone: (res: LoginResponse) => void;
};

const primaryLink =
  'inline-flex h-12 items-center justify-center rounded-lg bg-brand-600 px-5 text-base font-medium text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900';
const quietLink =
  'inline-flex h-12 items-center justify-center rounded-lg text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900';

/**
 * The page of a "Passwort vergessen?" link: greets with the account's name, asks for the new
 * password twice and signs in. An unknown, used, replaced or expired link says so and offers a new
 * one; a browser with a session asks to sign out first (the link may be someone else's).
 */
export function ResetPasswordForm({ token, session, onSignOut, onDone }: ResetPasswordFormProps) {
  const { t } = useTranslation(['password', 'common']);
  const wellFormed = new RegExp(PASSWORD_RESET_TOKEN_PATTERN).test(token);
  const link = usePasswordResetLink(token, wellFormed && !session.signedIn);

  if (session.signedIn) {
    return (
      <Box testId="reset-signed-in">
        <PanelMessage tone="brand" icon={<UserCheck aria-hidden="true" className="size-5 text-brand-700" />} title={t('password:reset.signedInTitle')}>
          <p className="mt-1 text-sm text-slate-600">{t('password:reset.signedInText')}</p>
        </PanelMessage>
        <SignOutFirstActions signOutLabel={t('password:reset.signOut')} homeLabel={t('password:reset.toHome')} onSignOut={onSignOut} />
      </Box>
    );
  }

  if (wellFormed && link.isPending) {
    return (
      <Box>
        <div role="status" aria-label={t('common:actions.loading')} className="space-y-4">
          <Skeleton className="h-6 w-2/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="mt-6 h-10 w-full" />
          <Skeleton className="h-10 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      </Box>
    );
  }

  if (!wellFormed || link.isError || !link.data) {
    const gone = !wellFormed || isApiError(link.error, 404) || isApiError(link.error, 422);
    return (
      <Box testId="reset-invalid">
        <PanelMessage role="alert" tone="amber" icon={<LinkIcon aria-hidden="true" className="size-5 text-amber-700" />} title={gone ? t('password:reset.invalidTitle') : t('password:reset.loadErrorTitle')}>
          <p className="mt-1 text-sm text-slate-600">
            {gone ? t('password:reset.invalidText') : isApiError(link.error) && link.error.message ? link.error.message : t('common:errors.generic')}
          </p>
        </PanelMessage>
        <div className="mt-6 flex flex-col gap-2">
          {gone ? (
            <Link to="/passwort-vergessen" className={primaryLink}>
              {t('password:reset.requestNew')}
            </Link>
          ) : (
            <Button fullWidth size="lg" loading={link.isFetching} onClick={() => void link.refetch()}>
              {t('common:actions.retry')}
            </Button>
          )}
          <Link to="/login" className={quietLink}>
            {t('password:reset.toLogin')}
          </Link>
        </div>
      </Box>
    );
  }

  const account = link.data;

  return (
    <Box testId="reset-password">
      <h2 className="text-lg font-semibold text-slate-900">{t('password:reset.greeting', { name: account.name })}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('password:reset.intro')}</p>
      <dl className="mt-4 space-y-1.5 rounded-lg bg-slate-50 px-4 py-3 text-sm ring-1 ring-slate-200">
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-slate-600">{t('password:reset.account')}:</dt>
          <dd className="min-w-0 font-medium break-all text-slate-900" data-testid="reset-account">
            {account.email}
          </dd>
        </div>
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-slate-600">{t('password:reset.validUntil')}:</dt>
          <dd className="font-medium text-slate-900">{formatDateTime(account.expires_at)}</dd>
        </div>
      </dl>
      <NewPasswordForm
        email={account.email}
        onSubmit={async (password) => onDone(await setNewPassword(token, password))}
        texts={{
          password: t('password:reset.password'),
          passwordHint: t('password:reset.passwordHint', { count: PASSWORD_MIN_LENGTH }),
          repeat: t('password:reset.repeat'),
          submit: t('password:reset.submit'),
          submitting: t('password:reset.submitting'),
          passwordRequired: t('password:reset.errors.passwordRequired'),
          passwordShort: t('password:reset.errors.passwordShort', { count: PASSWORD_MIN_LENGTH }),
          repeatRequired: t('password:reset.errors.repeatRequired'),
          mismatch: t('password:reset.errors.mismatch'),
          linkGone: t('password:reset.invalidText'),
          failed: t('password:reset.errors.failed'),
        }}
      />
    </Box>
  );
}
