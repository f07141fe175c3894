import '@web/features/school/i18n';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MessagesSquare } from 'lucide-react';
import { MESSAGE_LIMITS } from '@contract/messages-limits';
import { Button } from '@web/components/ui/button';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { TextField } from '@web/components/ui/fields';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { isApiError } from '@web/lib/api';
import { useMessageRetention, useSaveMessageRetention } from '../api/message-retention';
import { errorText } from '../lib/school';
import { LoadError } from './load-error';

const { min, max, default: standard } = MESSAGE_LIMITS.retentionDays;

/**
 * 'Nachrichten aufbewahren' on the administrator's dashboard (docs/decisions/messages.md): how many
 * days messages and lesson notes are kept before they are deleted ({min}–{max}).
 */
export function MessageRetentionCard() {
  const { t } = useTranslation(['school', 'common']);
  const retention = useMessageRetention();
  return (
    <Card className="min-w-0" data-testid="message-retention">
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <MessagesSquare aria-hidden="true" className="size-4.5 shrink-0 text-brand-600" />
            {t('school:messageRetention.title')}
          </span>
        }
        description={t('school:messageRetention.subtitle')}
      />
      <CardBody>
        {retention.isPending ? (
          <div role="status" aria-label={t('common:actions.loading')} className="space-y-2">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-10 w-56" />
          </div>
        ) : retention.isError ? (
          <LoadError title={t('school:messageRetention.error')} retrying={retention.isFetching} onRetry={() => void retention.refetch()} />
        ) : (
          // keyed by what the server holds: a saved answer starts the form afresh
          <RetentionForm key={retention.data.retention_days} days={retention.data.retention_days} />
        )}
      </CardBody>
    </Card>
  );
}

function RetentionForm({ days }: { days: number }) {
  const { t } = useTranslation(['school', 'common']);
  const id = useId();
  const toast = useToast();
  const save = useSaveMessageRetention();
  const [value, setValue] = useState(String(days));
  const [error, setError] = useState<string | null>(null);

  function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    if (save.isPending) return;
    const typed = value.trim();
    const n = /^\d{1,5}$/.test(typed) ? Number(typed) : NaN;
    if (!(n >= min && n <= max)) {
      setError(t('school:messageRetention.range', { min, max }));
      document.getElementById(`${id}-days`)?.focus();
      return;
    }
    setError(null);
    save.mutate(n, {
      onSuccess: () => toast.success(t('school:messageRetention.done')),
      onError: (err) => {
        const field = isApiError(err, 422) ? err.fieldError('retention_days') : undefined;
        if (field) setError(field);
        else toast.error(errorText(err, t('school:messageRetention.failed')));
      },
    });
  }

  return (
    <form noValidate onSubmit={submit} className="flex flex-wrap items-start gap-3">
      <TextField
        id={`${id}-days`}
        wrapperClassName="w-full max-w-xs"
        label={t('school:messageRetention.label')}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        step={1}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        hint={t('school:messageRetention.hint', { min, max, default: standard })}
        error={error ?? undefined}
      />
      <Button type="submit" loading={save.isPending} className="sm:mt-7">
        {save.isPending ? t('school:messageRetention.saving') : t('school:messageRetention.save')}
      </Button>
    </form>
  );
}
