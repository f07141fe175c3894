import { useId, useState, type FormEvent } from 'react';
import { AlertCircle } from 'lucide-react';
import { PASSWORD_MIN_LENGTH } from '@contract/constants';
import { PASSWORD_MAX } from '@contract/students-limits';
import { Button } from '@web/components/ui/button';
import { TextField } from '@web/components/ui/fields';
import { isApiError } from '@web/lib/api';

/** The texts of a new-password form, already translated (an invitation's or a password link's). */
export type NewPasswordTexts = {
  password: string;
  passwordHint: string;
  repeat: string;
  submit: string;
  submitting: string;
  passwordRequired: string;
  passwordShort: string;
  repeatRequired: string;
  mismatch: string;
  /** The link no longer works (the server's 404). */
  linkGone: string;
  failed: string;
};

type Errors = { password?: string; repeat?: string; form?: string };

/** The server's own message of a failed call, if it sent one. */
function serverMessage(err: unknown): string | null {
  if (!isApiError(err) || err.status === 0 || !err.body || typeof err.body !== 'object') return isApiError(err, 0) ? err.message : null;
  const message = (err.body as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() ? message : null;
}

/**
 * A new password, twice (PASSWORD_MIN_LENGTH), checked before sending; the account's e-mail rides
 * along hidden for the browser's password manager. `onSubmit` sets the password and signs in (the
 * page then reloads: the button stays busy); its failure is shown at the field or under the form.
 */
export function NewPasswordForm({ email, texts, onSubmit }: { email: string; texts: NewPasswordTexts; onSubmit: (password: string) => Promise<void> }) {
  const formId = useId();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (busy) return;
    const found: Errors = {};
    if (!password) found.password = texts.passwordRequired;
    else if (password.length < PASSWORD_MIN_LENGTH) found.password = texts.passwordShort;
    if (!found.password && password !== repeat) found.repeat = repeat ? texts.mismatch : texts.repeatRequired;
    setErrors(found);
    if (found.password || found.repeat) {
      document.getElementById(`${formId}-${found.password ? 'password' : 'repeat'}`)?.focus();
      return;
    }
    setBusy(true);
    try {
      await onSubmit(password);
    } catch (err) {
      if (isApiError(err, 422) && err.fieldError('password')) setErrors({ password: err.fieldError('password') });
      else if (isApiError(err, 404)) setErrors({ form: texts.linkGone });
      else setErrors({ form: serverMessage(err) ?? texts.failed });
      setBusy(false);
    }
  }

  return (
    <>
      <form id={formId} noValidate onSubmit={submit} className="mt-6 space-y-5">
        {/* The e-mail for the browser's password manager: it stores the new password under this account. */}
        <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
        <TextField
          id={`${formId}-password`}
          label={texts.password}
          type="password"
          name="password"
          autoComplete="new-password"
          required
          maxLength={PASSWORD_MAX}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint={texts.passwordHint}
          error={errors.password}
        />
        <TextField
          id={`${formId}-repeat`}
          label={texts.repeat}
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
          {busy ? texts.submitting : texts.submit}
        </Button>
      </form>
      {errors.form && (
        <div role="alert" className="mt-5 flex gap-2.5 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          <AlertCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-red-600" />
          <p>{errors.form}</p>
        </div>
      )}
    </>
  );
}
