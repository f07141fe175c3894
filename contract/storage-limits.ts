/**
 * The numbers of the storage quotas (docs/decisions/storage-quota.md) without any schema: the web
 * app's screens import them from here (contract/storage.ts re-exports them for the server).
 */

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

export const STORAGE_QUOTA_LIMITS = {
  /** A student's quota: at least one recording (50 MiB), at most 1 TiB. */
  studentMin: 50 * MiB,
  studentMax: 1024 * GiB,
  /** A school's quota: at least 1 GiB, at most 100 TiB. */
  schoolMin: GiB,
  schoolMax: 100 * 1024 * GiB,
  /** From this share of the quota on, the student sees a warning. */
  warnShare: 0.8,
} as const;

/** How many students the administrator's storage card lists. */
export const STORAGE_TOP_STUDENTS = 10;

/** The error codes of an upload refused for want of room (the web app maps each to its own text). */
export const STORAGE_ERROR_CODES = ['storage_quota_student', 'storage_quota_school', 'insufficient_storage'] as const;

/** The server's texts of those refusals (the web app has its own, addressed to the student, in its locale files). */
export const STORAGE_TEXTS = {
  studentQuota: {
    de: 'Dein Speicherplatz für Aufnahmen ist voll. Bitte lösche ältere Aufnahmen oder frag deine Lehrkraft.',
    tr: 'Kayıtlar için depolama alanın dolu. Lütfen eski kayıtlarını sil veya öğretmenine sor.',
  },
  schoolQuota: {
    de: 'Der Speicherplatz der Schule ist voll. Die Schulverwaltung kann ihn erweitern.',
    tr: 'Okulun depolama alanı dolu. Okul yönetimi alanı artırabilir.',
  },
  insufficientStorage: {
    de: 'Auf dem Server ist gerade nicht genug Speicherplatz frei. Bitte später erneut versuchen und der Schulverwaltung Bescheid geben, wenn es so bleibt.',
    tr: 'Sunucuda şu anda yeterli boş alan yok. Daha sonra tekrar denenmeli; sorun devam ederse okul yönetimine bildirilmeli.',
  },
} as const;
