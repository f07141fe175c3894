import '@web/features/reminders/i18n';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@web/components/ui/page-header';
import { ReminderSettings } from '@web/features/reminders/components/reminder-settings';

/** /benachrichtigungen (students): the daily practice reminder by e-mail (docs/decisions/reminders.md). */
export default function NotificationsScreen() {
  const { t } = useTranslation('reminders');
  return (
    <>
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} />
      <div className="max-w-2xl">
        <ReminderSettings />
      </div>
    </>
  );
}
