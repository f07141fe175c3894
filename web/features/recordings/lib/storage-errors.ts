import type { TFunction } from 'i18next';
import { STORAGE_ERROR_CODES } from '@contract/storage-limits';
import { isApiError } from '@web/lib/api';
import { formatFileSize } from '@web/lib/format';
import i18n from '@web/lib/i18n';

type StorageCode = (typeof STORAGE_ERROR_CODES)[number];

/** The code of an upload refused for want of room (413 storage_quota_*, 507 insufficient_storage), if it is one. */
export function storageErrorCode(err: unknown): StorageCode | null {
  if (!isApiError(err) || (err.status !== 413 && err.status !== 507)) return null;
  const code = (err.body as { code?: unknown } | null)?.code;
  return (STORAGE_ERROR_CODES as readonly unknown[]).includes(code) ? (code as StorageCode) : null;
}

/**
 * The web app's own text for such a refusal, addressed to the student and saying what to do
 * (docs/decisions/storage-quota.md); null for any other error.
 */
export function storageErrorText(err: unknown, t: TFunction = i18n.t.bind(i18n)): string | null {
  const code = storageErrorCode(err);
  if (!code) return null;
  const body = (isApiError(err) ? err.body : null) as { used_bytes?: number; quota_bytes?: number } | null;
  const language = i18n.language;
  return t(`recordings:storageErrors.${code}`, {
    used: formatFileSize(body?.used_bytes ?? 0, language),
    quota: formatFileSize(body?.quota_bytes ?? 0, language),
  });
}
