import '@web/features/reminders/i18n';
import { useTranslation } from 'react-i18next';
import { CalendarCheck } from 'lucide-react';
import { useSaveWeeklyNote, useWeeklyNoteSettings } from '../api/reminders';
import { MailToggleCard } from './mail-toggle-card';

/** A parent's weekly note by e-mail (docs/decisions/reminders.md): on or off; what it holds and when it comes is said. */
export function WeeklyNoteSettings() {
  const { t } = useTranslation('reminders');
  const query = useWeeklyNoteSettings();
  const save = useSaveWeeklyNote();
  const time = query.data?.sent_at.time ?? '';
  return (
    <MailToggleCard
      name="weekly-note"
      icon={<CalendarCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />}
      query={query}
      enabled={query.data?.weekly_note ?? false}
      save={save}
      texts={{
        title: t('weekly.title'),
        intro: t('weekly.intro', { time, email: query.data?.email ?? '' }),
        enable: t('weekly.enable'),
        statusOn: t('weekly.statusOn', { time }),
        statusOff: t('weekly.statusOff'),
        savedOn: t('weekly.savedOn'),
        savedOff: t('weekly.savedOff'),
        noMail: t('weekly.noMail'),
        loadError: t('weekly.loadError'),
        failed: t('weekly.failed'),
        save: t('weekly.save'),
        saving: t('weekly.saving'),
      }}
    />
  );
}
