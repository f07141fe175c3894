import '@web/features/password-reset/i18n';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AlertCircle, LinkIcon, LogOut, UserCheck } from 'lucide-react';
import type { LoginResponse } from '@contract/auth';
import { PASSWORD_RESET_TOKEN_PATTERN } from '@contract/password-reset';
import { PASSWORD_MIN_LENGTH } from '@contract/constants';
import { PASSWORD_MAX } from '@contract/students';
import { Button } from '@web/components/ui/button';
import { TextField } from '@web/components/ui/fields';
import { Skeleton } from '@web/components/ui/skeleton';
import { isApiError } from '@web/lib/api';
import { formatDateTime } from '@web/lib/format';
import { setNewPassword, usePasswordResetLink } from '../api/password-reset';

type Errors = { password?: string; repeat?: string; form?: string };

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

function Box({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8" data-testid={testId}>
      {children}
    </div>
  );
}

/**
 * The page of a "Passwort vergessen?" link: greets with the account's name, asks for the new
 * password twice and signs in. An unknown, used, replaced or expired link says so and offers a new
 * one; a browser with a session asks to sign out first (the link may be someone else's).
 */
export function ResetPasswordForm({ token, session, onSignOut, onDone }: ResetPasswordFormProps) {
  const { t } = useTranslation(['password', 'common']);
  const formId = useId();
  const wellFormed = new RegExp(PASSWORD_RESET_TOKEN_PATTERN).test(token);
  const link = usePasswordResetLink(token, wellFormed && !session.signedIn);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [signingOut, setSigningOut] = useState(false);

  if (session.signedIn) {
    return (
      <Box testId="reset-signed-in">
        <div className="flex items-start gap-3">
          <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50">
            <UserCheck aria-hidden="true" className="size-5 text-brand-700" />
          </div>
          <div className="min-w-0">
            <h2 className="text-lg font-semibold text-slate-900">{t('password:reset.signedInTitle')}</h2>
            <p className="mt-1 text-sm text-slate-600">{t('password:reset.signedInText')}</p>
          </div>
        </div>
        <div className="mt-6 flex flex-col gap-2">
          <Button
            fullWidth
            size="lg"
            icon={<LogOut aria-hidden="true" className="size-4" />}
            loading={signingOut}
            onClick={async () => {
              setSigningOut(true);
              try {
                await onSignOut();
              } finally {
                setSigningOut(false);
              }
            }}
          >
            {t('password:reset.signOut')}
          </Button>
          <Link to="/" className={quietLink}>
            {t('password:reset.toHome')}
          </Link>
        </div>
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
        <div role="alert" className="flex items-start gap-3">
          <div className="flex size-10 shrink-0 items-center justify-center rounded-full bg-amber-50">
            <LinkIcon aria-hidden="true" className="size-5 text-amber-700" />
          </div>
          <div className="min-w-0">
            <h2 className="text-lg font-semibold text-slate-900">{gone ? t('password:reset.invalidTitle') : t('password:reset.loadErrorTitle')}</h2>
            <p className="mt-1 text-sm text-slate-600">
              {gone ? t('password:reset.invalidText') : isApiError(link.error) && link.error.message ? link.error.message : t('common:errors.generic')}
            </p>
          </div>
        </div>
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

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const found: Errors = {};
    if (!password) found.password = t('password:reset.errors.passwordRequired');
    else if (password.length < PASSWORD_MIN_LENGTH) found.password = t('password:reset.errors.passwordShort', { count: PASSWORD_MIN_LENGTH });
    if (!found.password && password !== repeat) found.repeat = repeat ? t('password:reset.errors.mismatch') : t('password:reset.errors.repeatRequired');
    setErrors(found);
    if (found.password || found.repeat) {
      document.getElementById(`${formId}-${found.password ? 'password' : 'repeat'}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      onDone(await setNewPassword(token, password));
      // The page reloads at /; the button stays busy until then.
    } catch (err) {
      if (isApiError(err, 422) && err.fieldError('password')) setErrors({ password: err.fieldError('password') });
      else if (isApiError(err, 404)) setErrors({ form: t('password:reset.invalidText') });
      else setErrors({ form: isApiError(err) && err.message ? err.message : t('password:reset.errors.failed') });
      setBusy(false);
    }
  }

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
      <form id={formId} noValidate onSubmit={submit} className="mt-6 space-y-5">
        {/* The e-mail for the browser's password manager: it stores the new password under this account. */}
        <input type="email" name="email" autoComplete="username" value={account.email} readOnly hidden />
        <TextField
          id={`${formId}-password`}
          label={t('password:reset.password')}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={t('password:reset.passwordHint', { count: PASSWORD_MIN_LENGTH })}
          error={errors.password}
        />
        <TextField
          id={`${formId}-repeat`}
          label={t('password:reset.repeat')}
          type="password"
          name="password-repeat"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          value={repeat}
          onChange={(e) => setRepeat(e.target.value)}
          error={errors.repeat}
        />
        <Button type="submit" fullWidth size="lg" loading={busy}>
          {busy ? t('password:reset.submitting') : t('password:reset.submit')}
        </Button>
      </form>
      {errors.form && (
        <div role="alert" className="mt-5 flex gap-2.5 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-600" />
          <p>{errors.form}</p>
        </div>
      )}
    </Box>
  );
}
