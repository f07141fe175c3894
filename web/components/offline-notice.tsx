import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { CloudOff } from 'lucide-react';
import { useOnline } from '@web/lib/online';
import { formatDateTime } from '@web/lib/format';

/**
 * 'Offline – zuletzt aktualisiert {time}' above what is shown from the device's cache (docs/decisions/offline-practice.md),
 * so nobody mistakes it for the latest state. Nothing while online.
 */
export function OfflineNotice({ updatedAt }: { updatedAt: number | undefined }) {
  const { t } = useTranslation('offline');
  const online = useOnline();
  if (online) return null;
  return (
    <p role="status" className="mb-4 flex items-center gap-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset" data-testid="offline-notice">
      <CloudOff aria-hidden="true" className="size-4 shrink-0" />
      {updatedAt ? t('offlineSince', { time: formatDateTime(new Date(updatedAt).toISOString()) }) : t('offlineNothing')}
    </p>
  );
}

/** The newest answer among the cached queries whose key starts with `prefix` (a screen made of several). */
export function useLastUpdated(prefix: string): number | undefined {
  const queryClient = useQueryClient();
  const times = queryClient
    .getQueryCache()
    .findAll({ queryKey: [prefix] })
    .map((q) => q.state.dataUpdatedAt)
    .filter((x) => x > 0);
  return times.length ? Math.max(...times) : undefined;
}
