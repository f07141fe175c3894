import '@web/features/reminders/i18n';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BellRing, MailX } from 'lucide-react';
import { inQuietHours, TIME_OF_DAY_PATTERN } from '@contract/notifications-limits';
import type { NotificationSettings } from '@contract/notifications';
import { Button } from '@web/components/ui/button';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { Checkbox, Select } from '@web/components/ui/fields';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useNotificationSettings, useSaveNotificationSettings } from '../api/reminders';
import { SettingsLoadError, SettingsLoading } from './mail-toggle-card';

const DEFAULT_TIME = '17:00';
const STEP_MINUTES = 15;

/**
 * The times to choose from: every quarter hour outside the quiet hours, and the saved time if it
 * lies between. A list rather than a time field: it shows 24-hour times whatever the browser's
 * own locale, and the night cannot be picked.
 */
export function reminderTimes(quiet: { from: string; to: string }, saved: string | null): string[] {
  const out: string[] = [];
  for (let m = 0; m < 24 * 60; m += STEP_MINUTES) {
    const time = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    if (!inQuietHours(time, quiet.from, quiet.to)) out.push(time);
  }
  if (saved && !out.includes(saved)) out.push(saved);
  return out.sort();
}

type Audience = 'student' | 'guardian';

/** The card's texts: a parent's (Sie, about their children) where they differ, else the student's. */
function useReminderTexts(audience: Audience) {
  const { t } = useTranslation(['reminders', 'common']);
  return (key: string, o?: Record<string, unknown>) =>
    audience === 'guardian' ? t([`reminders:settingsParent.${key}`, `reminders:settings.${key}`], o) : t(`reminders:settings.${key}`, o);
}

/**
 * The daily practice reminder by e-mail (docs/decisions/reminders.md): a student's about their own
 * tasks, a parent's about their children's; on or off and the time of day, checked against the
 * school's quiet hours before it is sent; the school's time zone and the address are said, so
 * nobody wonders when and where it comes.
 */
export function ReminderSettings({ audience = 'student' }: { audience?: Audience }) {
  const text = useReminderTexts(audience);
  const settings = useNotificationSettings();

  if (settings.isPending) return <SettingsLoading />;
  if (settings.isError) return <SettingsLoadError text={text('loadError')} retrying={settings.isFetching} onRetry={() => void settings.refetch()} />;
  // keyed by what the server holds: a saved answer starts the form afresh
  return <ReminderForm key={settings.data.reminder_time ?? 'off'} settings={settings.data} audience={audience} />;
}

function ReminderForm({ settings, audience }: { settings: NotificationSettings; audience: Audience }) {
  const t = useReminderTexts(audience);
  const id = useId();
  const toast = useToast();
  const save = useSaveNotificationSettings();
  const [enabled, setEnabled] = useState(settings.reminder_time !== null);
  const [time, setTime] = useState(settings.reminder_time ?? DEFAULT_TIME);
  const [error, setError] = useState<string | null>(null);
  const { from, to } = settings.quiet_hours;
  const off = !settings.mail_available;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (save.isPending) return;
    // the list offers no night time; a saved one from before a change of QUIET_HOURS still is refused here
    let problem: string | null = null;
    if (enabled && !new RegExp(TIME_OF_DAY_PATTERN).test(time)) problem = t('errors.timeRequired');
    else if (enabled && inQuietHours(time, from, to)) problem = t('errors.quiet', { from, to });
    setError(problem);
    if (problem) {
      document.getElementById(`${id}-time`)?.focus();
      return;
    }
    save.mutate(enabled ? time : null, {
      onSuccess: (saved) =>
        toast.success(saved.reminder_time ? t('savedOn', { time: saved.reminder_time }) : t('savedOff')),
      onError: (err) => {
        if (isApiError(err, 422) && err.fieldError('reminder_time')) setError(err.fieldError('reminder_time') ?? null);
        else toast.error(isApiError(err) && err.message ? err.message : t('errors.failed'));
      },
    });
  }

  return (
    <Card data-testid="reminder-settings">
      <CardHeader
        title={t('title')}
        description={
          <span
            data-testid="reminder-status"
            className={`mt-1.5 inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-medium ${settings.reminder_time ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
          >
            {settings.reminder_time ? t('statusOn', { time: settings.reminder_time }) : t('statusOff')}
          </span>
        }
      />
      <CardBody className="space-y-5">
        <p className="flex gap-2.5 text-sm text-slate-600">
          <BellRing aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
          <span className="min-w-0 wrap-anywhere">{t('intro', { email: settings.email })}</span>
        </p>
        {off && (
          <p role="note" className="flex gap-2.5 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="reminder-no-mail">
            <MailX aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span>{t('noMail')}</span>
          </p>
        )}
        <form noValidate onSubmit={submit} className="space-y-4">
          <Checkbox label={t('enable')} checked={enabled} disabled={off} onChange={(e) => setEnabled(e.target.checked)} />
          <Select
            id={`${id}-time`}
            wrapperClassName="max-w-xs"
            label={t('time')}
            name="reminder-time"
            disabled={off || !enabled}
            value={time}
            onChange={(e) => setTime(e.target.value)}
            hint={t('timeHint', { from, to, zone: settings.time_zone })}
            error={error ?? undefined}
          >
            {reminderTimes(settings.quiet_hours, settings.reminder_time).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </Select>
          <Button type="submit" loading={save.isPending} disabled={off}>
            {save.isPending ? t('saving') : t('save')}
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
