import '@web/features/password-reset/i18n';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AlertCircle, Info, MailCheck, School } from 'lucide-react';
import type { PasswordResetRequested } from '@contract/password-reset';
import { PanelCard } from '@web/components/panel-card';
import { Button } from '@web/components/ui/button';
import { TextField } from '@web/components/ui/fields';
import { isApiError } from '@web/lib/api';
import { requestPasswordReset } from '../api/password-reset';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const linkClass =
  'inline-flex h-12 items-center justify-center rounded-lg text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900';

/**
 * "Passwort vergessen?": asks for the account's e-mail address and requests a link. The answer is
 * the same whether an account has the address or not (the server's message says so); a school
 * that sends no e-mails says to ask the teacher instead. Students without an address of their own
 * are told to ask their teacher before they try.
 */
export function ForgotPasswordForm() {
  const { t } = useTranslation(['password', 'auth']);
  const id = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<PasswordResetRequested | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const result = useRef<HTMLHeadingElement>(null);
  const answered = useRef(false);

  // The answer replaces the form and takes the focus; "again" gives it back to the field. After the
  // commit, not in a frame callback: the answer is set after an await, outside any event, and a
  // frame (or a hidden window's lack of frames) does not wait for React to draw it.
  useEffect(() => {
    if (sent) result.current?.focus();
    else if (answered.current) input.current?.focus();
    answered.current = sent !== null;
  }, [sent]);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const value = email.trim();
    const invalid = !value ? t('password:forgot.errors.emailRequired') : EMAIL_RE.test(value) ? null : t('password:forgot.errors.emailInvalid');
    setError(invalid);
    setFormError(null);
    if (invalid) {
      input.current?.focus();
      return;
    }
    setBusy(true);
    try {
      setSent(await requestPasswordReset(value));
    } catch (err) {
      if (isApiError(err, 422) && err.fieldError('email')) setError(err.fieldError('email') ?? null);
      else setFormError(isApiError(err) && err.message ? err.message : t('password:forgot.errors.failed'));
    } finally {
      setBusy(false);
    }
  }

  if (sent) {
    return (
      <PanelCard testId="reset-requested">
        <div className="flex items-start gap-3">
          <div className={`flex size-10 shrink-0 items-center justify-center rounded-full ${sent.mailed ? 'bg-brand-50' : 'bg-amber-50'}`}>
            {sent.mailed ? <MailCheck aria-hidden="true" className="size-5 text-brand-700" /> : <School aria-hidden="true" className="size-5 text-amber-700" />}
          </div>
          <div className="min-w-0" role="status">
            <h2 ref={result} tabIndex={-1} className="text-lg font-semibold text-slate-900 focus:outline-none">
              {sent.mailed ? t('password:forgot.sentTitle') : t('password:forgot.noMailTitle')}
            </h2>
            <p className="mt-1 text-sm text-slate-600" data-testid="reset-requested-message">
              {sent.message}
            </p>
            {sent.mailed && <p className="mt-3 text-sm text-slate-600">{t('password:forgot.spam')}</p>}
          </div>
        </div>
        <div className="mt-6 flex flex-col gap-2">
          <Link
            to="/login"
            className="inline-flex h-12 items-center justify-center rounded-lg bg-brand-600 px-5 text-base font-medium text-white shadow-sm hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900"
          >
            {t('password:forgot.toLogin')}
          </Link>
          {sent.mailed && (
            <Button
              variant="ghost"
              fullWidth
              size="lg"
              onClick={() => setSent(null)}
            >
              {t('password:forgot.again')}
            </Button>
          )}
        </div>
      </PanelCard>
    );
  }

  return (
    <PanelCard testId="forgot-password">
      <p className="text-sm text-slate-600">{t('password:forgot.intro')}</p>
      <form noValidate onSubmit={submit} className="mt-5 space-y-5" aria-describedby={formError ? `${id}-error` : undefined}>
        <TextField
          ref={input}
          label={t('auth:email')}
          type="email"
          name="email"
          autoComplete="username"
          inputMode="email"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          placeholder={t('auth:emailPlaceholder')}
          maxLength={254}
          error={error ?? undefined}
        />
        <Button type="submit" fullWidth size="lg" loading={busy}>
          {busy ? t('password:forgot.submitting') : t('password:forgot.submit')}
        </Button>
      </form>
      {formError && (
        <div id={`${id}-error`} role="alert" className="mt-5 flex gap-2.5 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-600" />
          <p>{formError}</p>
        </div>
      )}
      <p className="mt-5 flex gap-2.5 rounded-lg bg-slate-50 p-3 text-sm text-slate-700 ring-1 ring-slate-200" data-testid="student-hint">
        <Info aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-slate-500" />
        <span>{t('password:forgot.studentHint')}</span>
      </p>
      <div className="mt-4 flex flex-col">
        <Link to="/login" className={linkClass}>
          {t('password:forgot.toLogin')}
        </Link>
      </div>
    </PanelCard>
  );
}
