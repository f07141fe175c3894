import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AlertCircle } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { TextField } from '@web/components/ui/fields';
import { isApiError } from '@web/lib/api';
import { useAuth } from '@web/lib/auth/auth-provider';
import { SignedOutPage } from '../layout/signed-out-page';

/** The server's own message of a failed call, if it sent one. */
function serverMessage(err: unknown): string | null {
  if (!isApiError(err) || !err.body || typeof err.body !== 'object') return null;
  const message = (err.body as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() ? message : null;
}

/** Sign-in page (SPEC.md section 2). */
export default function LoginScreen() {
  const { t } = useTranslation(['auth', 'common']);
  const { login } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await login(email.trim(), password);
      // The page reloads at /; keep the button busy until then.
    } catch (err) {
      setError(serverMessage(err) ?? t('loginError'));
      setBusy(false);
    }
  }

  return (
    <SignedOutPage title={t('title')} subtitle={t('subtitle')}>
      <div className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <form onSubmit={onSubmit} className="space-y-5" aria-describedby={error ? 'login-error' : undefined}>
          <TextField
            label={t('email')}
            type="email"
            name="email"
            autoComplete="username"
            inputMode="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            placeholder={t('emailPlaceholder')}
            maxLength={254}
          />
          <TextField
            label={t('password')}
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            maxLength={200}
          />
          <Button type="submit" fullWidth size="lg" disabled={busy}>
            {busy ? t('loggingIn') : t('login')}
          </Button>
        </form>
        {error && (
          <div id="login-error" role="alert" className="mt-5 flex gap-2.5 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
            <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-600" />
            <p>{error}</p>
          </div>
        )}
        <div className="mt-3 flex justify-center">
          <Link
            to="/passwort-vergessen"
            className="inline-flex min-h-11 items-center rounded-md px-2 text-sm font-medium text-brand-700 hover:text-brand-800 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
          >
            {t('forgotPassword')}
          </Link>
        </div>
      </div>
    </SignedOutPage>
  );
}
