import type { TFunction } from 'i18next';
import { STORAGE_ERROR_CODES } from '@contract/storage-limits';
import { isApiError } from '@web/lib/api';
import { formatFileSize } from '@web/lib/format';
import i18n from '@web/lib/i18n';

type StorageCode = (typeof STORAGE_ERROR_CODES)[number];

/** An upload refused for want of room: 413 storage_quota_student / storage_quota_school, 507 insufficient_storage. */
export type StorageRefusal = { code: StorageCode; used_bytes?: number; quota_bytes?: number };

/** The refusal in an error, if it is one (docs/decisions/storage-quota.md). */
export function storageRefusal(err: unknown): StorageRefusal | null {
  if (!isApiError(err) || (err.status !== 413 && err.status !== 507)) return null;
  const body = (err.body ?? {}) as { code?: unknown; used_bytes?: unknown; quota_bytes?: unknown };
  if (!(STORAGE_ERROR_CODES as readonly unknown[]).includes(body.code)) return null;
  return {
    code: body.code as StorageCode,
    ...(typeof body.used_bytes === 'number' ? { used_bytes: body.used_bytes } : {}),
    ...(typeof body.quota_bytes === 'number' ? { quota_bytes: body.quota_bytes } : {}),
  };
}

/** The web app's own text of a refusal, addressed to the student and saying what to do, in the current language. */
export function refusalText(r: StorageRefusal, t: TFunction = i18n.t.bind(i18n)): string {
  const language = i18n.language;
  return t(`offline:storageErrors.${r.code}`, { used: formatFileSize(r.used_bytes ?? 0, language), quota: formatFileSize(r.quota_bytes ?? 0, language) });
}

/** That text for an error, or null when the error is not such a refusal. */
export function storageErrorText(err: unknown, t?: TFunction): string | null {
  const r = storageRefusal(err);
  return r ? refusalText(r, t) : null;
}

/** Why a waiting take was refused, in the current language where the app knows the reason itself. */
export function takeErrorText(take: { error?: string; refusal?: StorageRefusal }): string | undefined {
  return take.refusal ? refusalText(take.refusal) : take.error;
}
