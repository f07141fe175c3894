import '@web/features/reminders/i18n';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CalendarCheck, MailX } from 'lucide-react';
import type { WeeklyNoteSettings as Settings } from '@contract/notifications';
import { Button } from '@web/components/ui/button';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { Checkbox } from '@web/components/ui/fields';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useSaveWeeklyNote, useWeeklyNoteSettings } from '../api/reminders';

/** A parent's weekly note by e-mail (docs/decisions/reminders.md): on or off; what it holds and when it comes is said. */
export function WeeklyNoteSettings() {
  const { t } = useTranslation(['reminders', 'common']);
  const settings = useWeeklyNoteSettings();
  if (settings.isPending) {
    return (
      <Card>
        <CardBody>
          <div role="status" aria-label={t('common:actions.loading')} className="space-y-3">
            <Skeleton className="h-5 w-1/2" />
            <Skeleton className="h-4 w-full" />
            <Skeleton className="h-10 w-40" />
          </div>
        </CardBody>
      </Card>
    );
  }
  if (settings.isError) {
    return (
      <Card>
        <CardBody>
          <div role="alert" className="space-y-3">
            <p className="text-sm text-slate-700">{t('reminders:weekly.loadError')}</p>
            <Button variant="secondary" loading={settings.isFetching} onClick={() => void settings.refetch()}>
              {t('common:actions.retry')}
            </Button>
          </div>
        </CardBody>
      </Card>
    );
  }
  return <WeeklyForm key={String(settings.data.weekly_note)} settings={settings.data} />;
}

function WeeklyForm({ settings }: { settings: Settings }) {
  const { t } = useTranslation(['reminders', 'common']);
  const toast = useToast();
  const save = useSaveWeeklyNote();
  const [enabled, setEnabled] = useState(settings.weekly_note);
  const off = !settings.mail_available;
  const time = settings.sent_at.time;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (save.isPending) return;
    save.mutate(enabled, {
      onSuccess: (saved) => toast.success(saved.weekly_note ? t('reminders:weekly.savedOn') : t('reminders:weekly.savedOff')),
      onError: (err) => toast.error(isApiError(err) && err.message ? err.message : t('reminders:weekly.failed')),
    });
  }

  return (
    <Card data-testid="weekly-note-settings">
      <CardHeader
        title={t('reminders:weekly.title')}
        description={
          <span
            data-testid="weekly-note-status"
            className={`mt-1.5 inline-flex items-center rounded-full px-2.5 py-1 text-xs font-medium ${settings.weekly_note ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
          >
            {settings.weekly_note ? t('reminders:weekly.statusOn', { time }) : t('reminders:weekly.statusOff')}
          </span>
        }
      />
      <CardBody className="space-y-5">
        <p className="flex gap-2.5 text-sm text-slate-600">
          <CalendarCheck aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
          <span className="min-w-0 wrap-anywhere">{t('reminders:weekly.intro', { time, email: settings.email })}</span>
        </p>
        {off && (
          <p role="note" className="flex gap-2.5 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200" data-testid="weekly-note-no-mail">
            <MailX aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span>{t('reminders:weekly.noMail')}</span>
          </p>
        )}
        <form noValidate onSubmit={submit} className="space-y-4">
          <Checkbox label={t('reminders:weekly.enable')} checked={enabled} disabled={off} onChange={(e) => setEnabled(e.target.checked)} />
          <Button type="submit" loading={save.isPending} disabled={off}>
            {save.isPending ? t('reminders:weekly.saving') : t('reminders:weekly.save')}
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
