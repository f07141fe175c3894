import { z } from 'zod';
import { errorSchema } from './common';
import { STORAGE_ERROR_CODES, STORAGE_QUOTA_LIMITS } from './storage-limits';

// The numbers without zod (the web app's screens import them from there).
export * from './storage-limits';

/**
 * Storage quotas (docs/decisions/storage-quota.md): what a student's recordings may take, and
 * what the whole school (recordings and exercise media) may take. One set of schemas for the
 * server, the web app and the OpenAPI document.
 */

/** GET /api/storage/usage: the student's own usage, shown before they record. */
export const studentStorageSchema = z
  .object({
    /** Bytes of the student's recordings. */
    used_bytes: z.number().int(),
    /** What the student's recordings may take (the school's per-student quota). */
    quota_bytes: z.number().int(),
    /** Bytes the next recording may have: the student's room, or less when the school's storage is nearly full. */
    available_bytes: z.number().int(),
    /** The school's storage is full (or the school's room is smaller than the student's). */
    school_full: z.boolean(),
  })
  .meta({ id: 'StudentStorage' });
export type StudentStorage = z.infer<typeof studentStorageSchema>;

const id = z.number().int();

/** GET /api/school/storage: the school's total against its quota, and who takes the most. */
export const schoolStorageSchema = z
  .object({
    /** Recordings and exercise media together. */
    used_bytes: z.number().int(),
    recordings_bytes: z.number().int(),
    media_bytes: z.number().int(),
    /** The school's quota in force (its own setting, or the server's default). */
    quota_bytes: z.number().int(),
    /** The per-student quota in force. */
    student_quota_bytes: z.number().int(),
    /** The server's defaults (STORAGE_QUOTA_SCHOOL_GB, STORAGE_QUOTA_STUDENT_MB). */
    defaults: z.object({ quota_bytes: z.number().int(), student_quota_bytes: z.number().int() }),
    /** Whether the school set its own value (false: the default is in force). */
    custom: z.object({ quota: z.boolean(), student_quota: z.boolean() }),
    /** The students whose recordings take the most, largest first (at most STORAGE_TOP_STUDENTS). */
    top_students: z.array(
      z.object({
        id,
        name: z.string(),
        teacher: z.object({ id, name: z.string() }),
        used_bytes: z.number().int(),
        recordings: z.number().int(),
      }),
    ),
  })
  .meta({ id: 'SchoolStorage' });
export type SchoolStorage = z.infer<typeof schoolStorageSchema>;

/** PUT /api/school/storage: the school's quotas; null goes back to the server's default. */
export const schoolStorageBody = z
  .strictObject({
    quota_bytes: z.number().int().min(STORAGE_QUOTA_LIMITS.schoolMin).max(STORAGE_QUOTA_LIMITS.schoolMax).nullable(),
    student_quota_bytes: z.number().int().min(STORAGE_QUOTA_LIMITS.studentMin).max(STORAGE_QUOTA_LIMITS.studentMax).nullable(),
  })
  .meta({ id: 'SchoolStorageUpdate' });
export type SchoolStorageBody = z.infer<typeof schoolStorageBody>;

/**
 * The answer of an upload refused for want of room: 413 with `code` storage_quota_student or
 * storage_quota_school (the quota and what is used), 507 with `code` insufficient_storage (the
 * server's disk is nearly full). The web app shows its own text for each code.
 */
export const storageErrorSchema = errorSchema
  .extend({
    code: z.enum(STORAGE_ERROR_CODES).optional(),
    used_bytes: z.number().int().optional(),
    quota_bytes: z.number().int().optional(),
  })
  .meta({ id: 'StorageError' });
export type StorageErrorCode = NonNullable<z.infer<typeof storageErrorSchema>['code']>;
