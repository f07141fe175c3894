import { useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { RefreshCw, X } from 'lucide-react';
import { updateStore } from '../lib/update-store';

/** 'Neue Version verfügbar – neu laden' when a new version of the app is installed and waits (docs/decisions/offline-practice.md). */
export function UpdateBanner() {
  const { t } = useTranslation('offline');
  const state = useSyncExternalStore(updateStore.subscribe, updateStore.get, updateStore.get);
  const [dismissed, setDismissed] = useState(false);
  const [busy, setBusy] = useState(false);
  if (!state.needRefresh || dismissed || !state.update) return null;
  const update = state.update;
  return (
    <div role="status" className="fixed inset-x-3 bottom-20 z-[60] mx-auto flex max-w-md items-center gap-2 rounded-xl bg-slate-900 p-2 pl-4 text-sm text-white shadow-lg lg:bottom-6" data-testid="update-banner">
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void update();
        }}
        className="inline-flex min-h-11 flex-1 items-center gap-2 rounded-lg text-left font-medium hover:underline"
      >
        <RefreshCw aria-hidden="true" className={busy ? 'size-4 animate-spin' : 'size-4'} />
        {t('update.text')}
      </button>
      <button type="button" onClick={() => setDismissed(true)} aria-label={t('update.dismiss')} className="inline-flex size-11 items-center justify-center rounded-lg hover:bg-white/10">
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}
