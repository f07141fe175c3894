import '@web/features/password-reset/i18n';
import { useTranslation } from 'react-i18next';
import { ForgotPasswordForm } from '@web/features/password-reset/components/forgot-password-form';
import { SignedOutPage } from '../layout/signed-out-page';

/** /passwort-vergessen (guests only): asks for the address that gets a one-time link (docs/decisions/password-reset.md). */
export default function ForgotPasswordScreen() {
  const { t } = useTranslation('password');
  return (
    <SignedOutPage title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      <ForgotPasswordForm />
    </SignedOutPage>
  );
}
