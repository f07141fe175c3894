import '@web/features/reminders/i18n';
import { useTranslation } from 'react-i18next';
import { MessageSquareText } from 'lucide-react';
import { useFeedbackDigestSettings, useSaveFeedbackDigest } from '../api/reminders';
import { MailToggleCard } from './mail-toggle-card';

/**
 * The daily digest of new feedback (docs/decisions/reminders.md), for a student (du) or a parent
 * (Sie): on or off; what it holds and when it comes is said.
 */
export function FeedbackDigestSettings({ audience }: { audience: 'student' | 'guardian' }) {
  const { t } = useTranslation('reminders');
  const query = useFeedbackDigestSettings();
  const save = useSaveFeedbackDigest();
  const ns = audience === 'student' ? 'digest' : 'digestParent';
  const time = query.data?.time ?? '';
  return (
    <MailToggleCard
      name="feedback-digest"
      icon={<MessageSquareText aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />}
      query={query}
      enabled={query.data?.feedback_digest ?? false}
      save={save}
      texts={{
        title: t(`${ns}.title`),
        intro: t(`${ns}.intro`, { time, email: query.data?.email ?? '' }),
        enable: t(`${ns}.enable`),
        statusOn: t(`${ns}.statusOn`, { time }),
        statusOff: t(`${ns}.statusOff`),
        savedOn: t(`${ns}.savedOn`),
        savedOff: t(`${ns}.savedOff`),
        noMail: audience === 'student' ? t('settings.noMail') : t('weekly.noMail'),
        loadError: audience === 'student' ? t('settings.loadError') : t('weekly.loadError'),
        failed: t(`${ns}.failed`),
        save: audience === 'student' ? t('settings.save') : t('weekly.save'),
        saving: audience === 'student' ? t('settings.saving') : t('weekly.saving'),
      }}
    />
  );
}
