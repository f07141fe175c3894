import '@web/features/recordings/i18n';
import { useTranslation } from 'react-i18next';
import { HardDrive } from 'lucide-react';
import { STORAGE_QUOTA_LIMITS } from '@contract/storage-limits';
import { RECORDING_LIMITS } from '@contract/recordings-limits';
import { formatFileSize } from '@web/lib/format';
import { useStorageUsage } from '../api/recordings';
import { Bar } from '@web/components/ui/bar';

/**
 * "X von Y belegt": the student's recordings against their quota, above the recorder, with a
 * warning near the limit and what to do when it is reached (docs/decisions/storage-quota.md).
 * Nothing while it loads or when it cannot be loaded: the recorder works without it.
 */
export function StorageUsage() {
  const { t, i18n } = useTranslation('recordings');
  const usage = useStorageUsage();
  if (!usage.data) return null;
  const { used_bytes: used, quota_bytes: quota, available_bytes: available, school_full: schoolFull } = usage.data;
  const share = quota > 0 ? Math.min(1, used / quota) : 1;
  const percent = Math.round(share * 100);
  // Full: no room for even a short take (1 MiB; a minute of speech-quality audio is about 0.5 MB).
  const full = available < Math.min(1024 * 1024, RECORDING_LIMITS.maxBytes);
  const warn = !full && (share >= STORAGE_QUOTA_LIMITS.warnShare || schoolFull);
  const lang = i18n.language;
  const tone = full ? 'bg-red-600' : warn ? 'bg-amber-500' : 'bg-brand-600';
  return (
    <div className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2.5" data-testid="storage-usage">
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 text-sm">
        <span className="flex items-center gap-1.5 font-medium text-slate-700">
          <HardDrive aria-hidden="true" className="size-4 text-slate-500" />
          {t('storage.label')}
        </span>
        <span className="tabular-nums text-slate-700" data-testid="storage-usage-text">
          {t('storage.used', { used: formatFileSize(used, lang), quota: formatFileSize(quota, lang) })}
        </span>
      </div>
      <Bar
        role="meter"
        label={t('storage.label')}
        percent={percent}
        valueText={t('storage.used', { used: formatFileSize(used, lang), quota: formatFileSize(quota, lang) })}
        className="mt-2 h-2 bg-slate-200"
        fillClassName={tone}
        floor={used > 0 ? 2 : 0}
      />
      {full ? (
        <p role="alert" className="mt-2 text-sm font-medium text-red-700" data-testid="storage-full">
          {schoolFull ? t('storage.schoolFull') : t('storage.full')}
        </p>
      ) : warn ? (
        <p className="mt-2 text-sm text-amber-800" data-testid="storage-warn">
          {schoolFull ? t('storage.schoolNearlyFull', { available: formatFileSize(available, lang) }) : t('storage.nearlyFull', { available: formatFileSize(available, lang) })}
        </p>
      ) : null}
    </div>
  );
}
