import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle, CalendarPlus, Copy, ExternalLink, RefreshCw } from 'lucide-react';
import { Button } from '@web/components/ui/button';
import { cn } from '@web/components/ui/cn';
import { useConfirm } from '@web/components/ui/confirm-dialog';
import { Skeleton } from '@web/components/ui/skeleton';
import { useToast } from '@web/components/ui/toast';
import { useCalendarSubscription, useRenewCalendarSubscription } from '../api/calendar-subscription';

/**
 * The private calendar address (docs/decisions/schools-and-roles.md): phones and Outlook subscribe to it and show the tasks
 * as all-day events. Collapsed until asked for (the address is made on first ask); then the
 * address with 'Kopieren', a webcal link that opens the phone's calendar app, and 'Adresse
 * erneuern' behind a confirmation (the old address stops).
 */
export function CalendarSubscription({ audience, className }: { audience: 'teacher' | 'student'; className?: string }) {
  const { t } = useTranslation(['calendar', 'common']);
  const [open, setOpen] = useState(false);
  const query = useCalendarSubscription(open);
  const renew = useRenewCalendarSubscription();
  const confirm = useConfirm();
  const toast = useToast();
  const inputRef = useRef<HTMLInputElement>(null);
  const panelId = useId();
  const inputId = useId();
  const sub = query.data;

  async function copy() {
    if (!sub) return;
    try {
      await navigator.clipboard.writeText(sub.url);
      toast.success(t('calendar:subscription.copied'));
    } catch {
      // no clipboard (http, permissions): select it for Ctrl+C
      inputRef.current?.select();
      toast.info(t('calendar:subscription.copyManually'));
    }
  }

  async function doRenew() {
    const ok = await confirm({
      title: t('calendar:subscription.renewTitle'),
      message: t('calendar:subscription.renewMessage'),
      confirmLabel: t('calendar:subscription.renew'),
      cancelLabel: t('common:actions.cancel'),
      danger: true,
    });
    if (!ok) return;
    try {
      await renew.mutateAsync();
      toast.success(t('calendar:subscription.renewed'));
    } catch {
      toast.error(t('calendar:subscription.renewError'));
    }
  }

  return (
    <section className={cn('rounded-xl border border-slate-200 bg-slate-50/60 p-4', className)} aria-labelledby={`${panelId}-title`} data-testid="calendar-subscription">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <CalendarPlus aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-600" />
          <div className="min-w-0">
            <h3 id={`${panelId}-title`} className="text-sm font-semibold text-slate-900">
              {t('calendar:subscription.title')}
            </h3>
            <p className="mt-0.5 text-sm text-slate-600">{t(`calendar:subscription.hint.${audience}`)}</p>
          </div>
        </div>
        <Button variant="secondary" size="sm" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)} data-testid="calendar-subscription-show">
          {open ? t('calendar:subscription.hide') : t('calendar:subscription.show')}
        </Button>
      </div>

      {open && (
        <div id={panelId} className="mt-4 space-y-3">
          {query.isPending ? (
            <div role="status" aria-label={t('calendar:subscription.loading')}>
              <Skeleton className="h-10 w-full" />
              <Skeleton className="mt-3 h-8 w-64" />
            </div>
          ) : query.isError ? (
            <div role="alert" className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
              <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
              <span className="min-w-0 flex-1">{t('calendar:subscription.loadError')}</span>
              <Button variant="secondary" size="sm" loading={query.isFetching} onClick={() => void query.refetch()}>
                {t('common:actions.retry')}
              </Button>
            </div>
          ) : sub ? (
            <>
              <div>
                <label htmlFor={inputId} className="text-xs font-medium text-slate-700">
                  {t('calendar:subscription.address')}
                </label>
                <div className="mt-1 flex flex-col gap-2 sm:flex-row">
                  <input
                    ref={inputRef}
                    id={inputId}
                    readOnly
                    value={sub.url}
                    onFocus={(e) => e.currentTarget.select()}
                    className="h-11 min-w-0 flex-1 rounded-lg border border-slate-300 bg-white px-3 font-mono text-xs text-slate-800 sm:h-10"
                    data-testid="calendar-subscription-url"
                  />
                  <Button variant="primary" icon={<Copy aria-hidden="true" className="size-4" />} onClick={() => void copy()} data-testid="calendar-subscription-copy">
                    {t('calendar:subscription.copy')}
                  </Button>
                </div>
              </div>
              <p className="text-xs text-slate-600">{t('calendar:subscription.privacy')}</p>
              <div className="flex flex-wrap items-center gap-2">
                <a
                  href={sub.webcal_url}
                  className="inline-flex h-11 items-center gap-1.5 rounded-md px-3 text-sm font-medium text-brand-700 hover:bg-brand-50 sm:h-8"
                  data-testid="calendar-subscription-webcal"
                >
                  <ExternalLink aria-hidden="true" className="size-4" />
                  {t('calendar:subscription.openInApp')}
                </a>
                <Button
                  variant="ghost"
                  size="sm"
                  loading={renew.isPending}
                  icon={<RefreshCw aria-hidden="true" className="size-4" />}
                  onClick={() => void doRenew()}
                  data-testid="calendar-subscription-renew"
                >
                  {t('calendar:subscription.renew')}
                </Button>
              </div>
            </>
          ) : null}
        </div>
      )}
    </section>
  );
}
