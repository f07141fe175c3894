import '@web/features/reminders/i18n';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '@web/components/ui/page-header';
import { useAuth } from '@web/lib/auth/auth-provider';
import { ReminderSettings } from '@web/features/reminders/components/reminder-settings';
import { WeeklyNoteSettings } from '@web/features/reminders/components/weekly-note-settings';
import { FeedbackDigestSettings } from '@web/features/reminders/components/feedback-digest-settings';
import { PushSettings } from '@web/features/reminders/components/push-settings';

/**
 * /benachrichtigungen (students and parents, docs/decisions/reminders.md): the daily practice
 * reminder (a student's own, a parent's about their children), a parent's weekly note, for both the daily digest of new feedback and messages, and
 * notifications on this device instead of e-mail (docs/decisions/web-push.md).
 */
export default function NotificationsScreen() {
  const { t } = useTranslation('reminders');
  const { role } = useAuth();
  return (
    <>
      <PageHeader title={t('page.title')} subtitle={role === 'guardian' ? t('weekly.pageSubtitle') : t('page.subtitle')} />
      <div className="max-w-2xl space-y-6">
        {role === 'guardian' && <WeeklyNoteSettings />}
        <ReminderSettings audience={role === 'guardian' ? 'guardian' : 'student'} />
        <FeedbackDigestSettings audience={role === 'guardian' ? 'guardian' : 'student'} />
        <PushSettings audience={role === 'guardian' ? 'guardian' : 'student'} />
      </div>
    </>
  );
}
