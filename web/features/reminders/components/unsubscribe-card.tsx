import '@web/features/reminders/i18n';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BellOff, CheckCircle2, LinkIcon } from 'lucide-react';
import type { UnsubscribeInfo } from '@contract/notifications';
import { PanelCard as Box, PanelMessage } from '@web/components/panel-card';
import { Button } from '@web/components/ui/button';
import { Skeleton } from '@web/components/ui/skeleton';
import { isApiError } from '@web/lib/api';
import { unsubscribe, useUnsubscribeInfo } from '../api/reminders';

const quietLink =
  'inline-flex h-12 items-center justify-center rounded-lg text-sm font-medium text-slate-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900';

/**
 * The page of a reminder mail's "Abbestellen" link: says whose reminders it stops and stops them
 * with a button (opening the link alone changes nothing: mail scanners open links too).
 */
export function UnsubscribeCard({ token }: { token: string }) {
  const { t } = useTranslation(['reminders', 'common']);
  const info = useUnsubscribeInfo(token);
  const [done, setDone] = useState<UnsubscribeInfo | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (info.isPending) {
    return (
      <Box>
        <div role="status" aria-label={t('common:actions.loading')} className="space-y-4">
          <Skeleton className="h-6 w-2/3" />
          <Skeleton className="h-4 w-full" />
          <Skeleton className="h-12 w-full" />
        </div>
      </Box>
    );
  }

  if (info.isError) {
    const gone = isApiError(info.error, 404) || isApiError(info.error, 422);
    return (
      <Box testId="unsubscribe-invalid">
        <PanelMessage role="alert" tone="amber" icon={<LinkIcon aria-hidden="true" className="size-5 text-amber-700" />} title={gone ? t('reminders:unsubscribe.invalidTitle') : t('reminders:unsubscribe.loadErrorTitle')}>
          <p className="mt-1 text-sm text-slate-600">{gone ? t('reminders:unsubscribe.invalid') : t('common:errors.generic')}</p>
        </PanelMessage>
        <div className="mt-6 flex flex-col gap-2">
          {!gone && (
            <Button fullWidth size="lg" loading={info.isFetching} onClick={() => void info.refetch()}>
              {t('common:actions.retry')}
            </Button>
          )}
          <Link to="/" className={quietLink}>
            {t('reminders:unsubscribe.toApp')}
          </Link>
        </div>
      </Box>
    );
  }

  const name = info.data.name;
  // the weekly note speaks to parents, the reminder to students
  const texts = info.data.kind === 'weekly' ? 'reminders:unsubscribeWeekly' : info.data.kind === 'digest' ? 'reminders:unsubscribeDigest' : 'reminders:unsubscribe';
  if (done || !info.data.subscribed) {
    return (
      <Box testId="unsubscribe-done">
        <PanelMessage role="status" tone="emerald" icon={<CheckCircle2 aria-hidden="true" className="size-5 text-emerald-700" />} title={t('reminders:unsubscribe.doneTitle')}>
          <p className="mt-1 text-sm text-slate-600">{done ? t(`${texts}.done`, { name }) : t(`${texts}.alreadyOff`, { name })}</p>
          <p className="mt-2 text-sm text-slate-600">{t(`${texts}.explain`)}</p>
        </PanelMessage>
        <div className="mt-6 flex flex-col">
          <Link to="/" className={quietLink}>
            {t('reminders:unsubscribe.toApp')}
          </Link>
        </div>
      </Box>
    );
  }

  return (
    <Box testId="unsubscribe">
      <PanelMessage tone="brand" icon={<BellOff aria-hidden="true" className="size-5 text-brand-700" />} title={t(`${texts}.question`, { name })}>
        <p className="mt-1 text-sm text-slate-600">{t(`${texts}.explain`)}</p>
      </PanelMessage>
      <div className="mt-6 flex flex-col gap-2">
        <Button
          fullWidth
          size="lg"
          loading={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              setDone(await unsubscribe(token));
            } catch (err) {
              setError(isApiError(err) && err.message ? err.message : t('reminders:unsubscribe.failed'));
            } finally {
              setBusy(false);
            }
          }}
        >
          {busy ? t('reminders:unsubscribe.confirming') : t(`${texts}.confirm`)}
        </Button>
        <Link to="/" className={quietLink}>
          {t('reminders:unsubscribe.toApp')}
        </Link>
      </div>
      {error && (
        <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-800">
          {error}
        </p>
      )}
    </Box>
  );
}
