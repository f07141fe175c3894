import '@web/features/reminders/i18n';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { UnsubscribeCard } from '@web/features/reminders/components/unsubscribe-card';
import { SignedOutPage } from '../layout/signed-out-page';

/** /abmelden/:token (public, no app navigation): the "Abbestellen" link of a reminder mail. */
export default function UnsubscribeScreen() {
  const { token = '' } = useParams();
  const { t } = useTranslation('reminders');
  return (
    <SignedOutPage title={t('unsubscribe.title')} subtitle={t('unsubscribe.subtitle')}>
      <UnsubscribeCard token={token} />
    </SignedOutPage>
  );
}
