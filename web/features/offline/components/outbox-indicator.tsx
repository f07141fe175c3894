import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { CloudOff, CloudUpload, AlertTriangle, LoaderCircle } from 'lucide-react';
import { useOnline } from '@web/lib/online';
import { formatDuration } from '@web/lib/format';
import { cn } from '@web/components/ui/cn';
import { outbox, type EntryState, type OutboxEntry } from '@web/lib/outbox/store';
import { useOutbox } from '@web/lib/outbox/use-outbox';
import { useUploadProgress } from '@web/lib/outbox/progress';
import type { QueuedWrite } from '@web/lib/outbox/writes';
import { requestFlush } from '@web/lib/outbox/sync-trigger';
import { takeErrorText } from '@web/lib/storage-errors';

const TIME_OF_DAY = new Intl.DateTimeFormat('de-DE', { hour: '2-digit', minute: '2-digit' });
const timeOfDay = (iso: string) => TIME_OF_DAY.format(new Date(iso));

type Row = { id: string; kind: 'session' | 'complete' | 'recording' | 'other'; title: string; detail: string | null; state: EntryState; error?: string };

/** The label of an entry's kind; a kind this list does not know yet is a 'change'. */
const KIND_LABEL: Record<string, Row['kind']> = { 'practice-session': 'session', complete: 'complete', take: 'recording' };

/**
 * The outbox the student can see (docs/decisions/offline-practice.md): 'Offline' without a connection, and the number of
 * changes that wait to be sent (practice times, completions, recordings) with their state. A change
 * the server refused stays, with the server's reason, until the student discards it. `placement`
 * only decides where the list opens (under the phone's top bar or inside the sidebar).
 */
export function OutboxIndicator({ userId, placement }: { userId: number; placement: 'bar' | 'sidebar' }) {
  const { t } = useTranslation('offline');
  const language = useLanguage();
  const online = useOnline();
  const entries = useOutbox(userId);
  const uploading = useUploadProgress();
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);

  const sessionDetail = (e: OutboxEntry) => {
    const body = e.kind === 'practice-session' ? (e as QueuedWrite).body : undefined;
    return body
      ? t('outbox.session', { duration: formatDuration((Date.parse(body.ended_at) - Date.parse(body.started_at)) / 60_000, language), time: timeOfDay(body.started_at) })
      : null;
  };
  const rows: Row[] = entries.map((e) => ({
    id: e.id,
    kind: KIND_LABEL[e.kind] ?? 'other',
    title: e.title,
    detail: sessionDetail(e),
    // an upload the task screen started itself is under way too
    state: e.state === 'waiting' && uploading.has(e.id) ? 'sending' : e.state,
    error: takeErrorText(e),
  }));
  const refused = rows.filter((r) => r.state === 'refused').length;
  const count = rows.length;

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [open]);

  if (online && count === 0) return null;

  const label = !online ? (count ? t('outbox.offlineWithCount', { count }) : t('offline')) : t('outbox.button', { count });
  return (
    <div className={cn('relative', placement === 'sidebar' && 'w-full')} data-testid="outbox">
      <button
        ref={buttonRef}
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={panelId}
        className={cn(
          'inline-flex min-h-11 items-center gap-2 rounded-full px-3 text-sm font-medium ring-1 ring-inset',
          refused ? 'bg-red-50 text-red-800 ring-red-200' : !online ? 'bg-amber-50 text-amber-900 ring-amber-200' : 'bg-brand-50 text-brand-800 ring-brand-200',
          placement === 'sidebar' && 'w-full justify-start rounded-lg',
        )}
        data-testid="outbox-button"
      >
        {refused ? <AlertTriangle aria-hidden="true" className="size-4" /> : !online ? <CloudOff aria-hidden="true" className="size-4" /> : <CloudUpload aria-hidden="true" className="size-4" />}
        <span className={cn(placement === 'bar' && 'sr-only sm:not-sr-only')}>{label}</span>
        {count > 0 && (
          // the number alone where the words are hidden (the phone's top bar); the words say it elsewhere
          <span aria-hidden="true" className={cn('rounded-full bg-white/80 px-1.5 text-xs tabular-nums', placement === 'sidebar' ? 'hidden' : 'sm:hidden')} data-testid="outbox-count">
            {count}
          </span>
        )}
      </button>
      {open && (
        <div
          id={panelId}
          role="region"
          aria-label={t('outbox.title')}
          className={cn(
            'z-40 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-lg',
            // phones: under the top bar across the screen; desktop: in the sidebar's flow
            placement === 'bar' ? 'fixed inset-x-3 top-16 mx-auto max-w-md' : 'relative mt-2 w-full',
          )}
          data-testid="outbox-panel"
        >
          <h2 className="text-base font-semibold text-slate-900">{t('outbox.title')}</h2>
          <p className="mt-1 text-slate-600">{online ? t('outbox.onlineHint') : t('outbox.offlineHint')}</p>
          {count === 0 ? (
            <p className="mt-3 text-slate-500">{t('outbox.empty')}</p>
          ) : (
            <ul className="mt-3 divide-y divide-slate-100" data-testid="outbox-list">
              {rows.map((r) => (
                <li key={r.id} className="py-2" data-testid="outbox-item" data-state={r.state}>
                  <p className="font-medium text-slate-900">
                    {t(`outbox.kind.${r.kind}`)} <span className="font-normal text-slate-600">– {r.title}</span>
                  </p>
                  {r.detail && <p className="text-slate-600 tabular-nums">{r.detail}</p>}
                  <p className={cn('mt-0.5 flex items-center gap-1.5 text-xs', r.state === 'refused' ? 'text-red-700' : 'text-slate-500')}>
                    {r.state === 'sending' && <LoaderCircle aria-hidden="true" className="size-3 animate-spin" />}
                    {r.state === 'refused' ? t('outbox.refused', { reason: r.error ?? '' }) : t(`outbox.state.${r.state}`)}
                  </p>
                  {r.state === 'refused' && (
                    <button type="button" onClick={() => void outbox.remove(r.id)} className="mt-1 min-h-11 text-sm font-medium text-red-700 underline underline-offset-2 hover:text-red-900">
                      {t('outbox.discard')}
                    </button>
                  )}
                </li>
              ))}
            </ul>
          )}
          {online && count > refused && (
            <button
              type="button"
              onClick={() => requestFlush()}
              className="mt-3 inline-flex min-h-11 items-center rounded-lg bg-brand-600 px-4 font-medium text-white hover:bg-brand-700"
            >
              {t('outbox.sendNow')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
