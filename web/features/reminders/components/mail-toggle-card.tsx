import '@web/features/reminders/i18n';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MailX } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { Checkbox } from '@web/components/ui/fields';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';

/** The texts of one kind of mail, already translated. */
export type MailToggleTexts = {
  title: string;
  intro: string;
  enable: string;
  statusOn: string;
  statusOff: string;
  savedOn: string;
  savedOff: string;
  noMail: string;
  loadError: string;
  failed: string;
  save: string;
  saving: string;
};

type Query = { isPending: boolean; isError: boolean; isFetching: boolean; data: { mail_available: boolean } | undefined; refetch: () => unknown };
type Save = { isPending: boolean; mutate: (enabled: boolean, o: { onSuccess: () => void; onError: (err: unknown) => void }) => void };

/** A settings card while its answer loads. */
export function SettingsLoading() {
  const { t } = useTranslation('common');
  return (
    <Card>
      <CardBody>
        <div role="status" aria-label={t('actions.loading')} className="space-y-3">
          <Skeleton className="h-5 w-1/2" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-10 w-40" />
        </div>
      </CardBody>
    </Card>
  );
}

/** A settings card whose answer did not come: what happened and a retry. */
export function SettingsLoadError({ text, retrying, onRetry }: { text: string; retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation('common');
  return (
    <Card>
      <CardBody>
        <div role="alert" className="space-y-3">
          <p className="text-sm text-slate-700">{text}</p>
          <Button variant="secondary" loading={retrying} onClick={onRetry}>
            {t('actions.retry')}
          </Button>
        </div>
      </CardBody>
    </Card>
  );
}

/**
 * A mail that is on or off (the weekly note, the feedback digest; docs/decisions/reminders.md): what
 * it holds and when it comes, its state, a checkbox and Save; loading, a failed load with a retry,
 * and a school that sends no mail.
 */
export function MailToggleCard({
  name,
  icon,
  query,
  enabled: current,
  save,
  texts,
}: {
  /** Names the test ids: `${name}-settings`, `${name}-status`, `${name}-no-mail`. */
  name: string;
  icon: ReactNode;
  query: Query;
  enabled: boolean;
  save: Save;
  texts: MailToggleTexts;
}) {
  if (query.isPending) return <SettingsLoading />;
  if (query.isError || !query.data) return <SettingsLoadError text={texts.loadError} retrying={query.isFetching} onRetry={() => void query.refetch()} />;
  // keyed by what the server holds: a saved answer starts the form afresh
  return <ToggleForm key={String(current)} name={name} icon={icon} current={current} mailAvailable={query.data.mail_available} save={save} texts={texts} />;
}

function ToggleForm({
  name,
  icon,
  current,
  mailAvailable,
  save,
  texts,
}: {
  name: string;
  icon: ReactNode;
  current: boolean;
  mailAvailable: boolean;
  save: Save;
  texts: MailToggleTexts;
}) {
  const toast = useToast();
  const [enabled, setEnabled] = useState(current);
  const off = !mailAvailable;

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (save.isPending) return;
    save.mutate(enabled, {
      onSuccess: () => toast.success(enabled ? texts.savedOn : texts.savedOff),
      onError: (err) => toast.error(isApiError(err) && err.message ? err.message : texts.failed),
    });
  }

  return (
    <Card data-testid={`${name}-settings`}>
      <CardHeader
        title={texts.title}
        description={
          <span
            data-testid={`${name}-status`}
            className={`mt-1.5 inline-flex items-center rounded-full px-2.5 py-1 text-xs font-medium ${current ? 'bg-emerald-50 text-emerald-800' : 'bg-slate-100 text-slate-700'}`}
          >
            {current ? texts.statusOn : texts.statusOff}
          </span>
        }
      />
      <CardBody className="space-y-5">
        <p className="flex gap-2.5 text-sm text-slate-600">
          {icon}
          <span className="min-w-0 wrap-anywhere">{texts.intro}</span>
        </p>
        {off && (
          <p role="note" className="flex gap-2.5 rounded-lg bg-amber-50 p-3 text-sm text-amber-900 ring-1 ring-amber-200" data-testid={`${name}-no-mail`}>
            <MailX aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <span>{texts.noMail}</span>
          </p>
        )}
        <form noValidate onSubmit={submit} className="space-y-4">
          <Checkbox label={texts.enable} checked={enabled} disabled={off} onChange={(e) => setEnabled(e.target.checked)} />
          <Button type="submit" loading={save.isPending} disabled={off}>
            {save.isPending ? texts.saving : texts.save}
          </Button>
        </form>
      </CardBody>
    </Card>
  );
}
