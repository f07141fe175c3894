import type { AppConfig } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, invalid, type Msg } from '../../errors';
import type { AuthUser } from '../../lib/auth';
import { audit } from '../../lib/audit';
import { assertDiskRoom } from '../../lib/disk-space';
import { STORAGE_TEXTS, type SchoolStorage, type SchoolStorageBody, type StudentStorage } from '@contract/storage';
import { lockSchoolQuota, setSchoolQuotas, topStudents, usageOf, type Usage } from './storage.repo';

const MiB = 1024 * 1024;

export type QuotaConfig = Pick<AppConfig, 'STORAGE_QUOTA_STUDENT_MB' | 'STORAGE_QUOTA_SCHOOL_GB' | 'STORAGE_FREE_MARGIN_MB'>;

const studentAboveSchool: Msg = {
  de: 'Der Speicherplatz je Schüler darf nicht größer sein als der Speicherplatz der Schule.',
  tr: 'Öğrenci başına depolama alanı okulun depolama alanından büyük olamaz.',
};

/**
 * Storage quotas (docs/decisions/storage-quota.md): a student's recordings against the school's
 * per-student quota, the school's recordings and exercise media against the school's quota, and
 * the free space of the disk uploads are written to. Quotas in bytes; the school's own value or
 * the server's default.
 */
export class StorageQuota {
  constructor(
    private readonly db: Db,
    private readonly config: QuotaConfig,
    private readonly mediaDir: string,
  ) {}

  get defaults() {
    return { quota_bytes: this.config.STORAGE_QUOTA_SCHOOL_GB * 1024 * MiB, student_quota_bytes: this.config.STORAGE_QUOTA_STUDENT_MB * MiB };
  }

  private limits(u: Usage) {
    return { school: u.storage_quota_bytes ?? this.defaults.quota_bytes, student: u.student_quota_bytes ?? this.defaults.student_quota_bytes };
  }

  /**
   * 413 (code storage_quota_student or storage_quota_school) when `bytes` more would exceed the
   * student's or the school's quota (`studentId` null: an upload of a teacher, the school's only).
   * Inside the transaction that stores the file, after `lock` (then parallel uploads of the school
   * wait for each other); before the body, with the declared length, without it.
   */
  async assertRoom(tx: DbOrTx, who: { schoolId: number; studentId: number | null }, bytes: number, opts: { lock?: boolean; field?: string } = {}): Promise<void> {
    const field = opts.field ?? 'file';
    if (opts.lock) await lockSchoolQuota(tx, who.schoolId);
    const u = await usageOf(tx, who.schoolId, who.studentId);
    const limit = this.limits(u);
    // An upload has at least one byte: a store that is exactly full refuses before the body, too.
    const size = Math.max(1, bytes);
    if (who.studentId !== null && u.student_bytes + size > limit.student) {
      throw new AppError(413, STORAGE_TEXTS.studentQuota, { [field]: [STORAGE_TEXTS.studentQuota] }, {
        code: 'storage_quota_student',
        used_bytes: u.student_bytes,
        quota_bytes: limit.student,
      });
    }
    const schoolUsed = u.recordings_bytes + u.media_bytes;
    if (schoolUsed + size > limit.school) {
      throw new AppError(413, STORAGE_TEXTS.schoolQuota, { [field]: [STORAGE_TEXTS.schoolQuota] }, { code: 'storage_quota_school', used_bytes: schoolUsed, quota_bytes: limit.school });
    }
  }

  /** 507 (code insufficient_storage) unless the disk of the media folder keeps STORAGE_FREE_MARGIN_MB free beyond `bytes`. */
  assertDisk(bytes: number): Promise<void> {
    return assertDiskRoom(this.mediaDir, bytes, this.config.STORAGE_FREE_MARGIN_MB * MiB);
  }

  async studentUsage(student: AuthUser): Promise<StudentStorage> {
    const u = await usageOf(this.db, student.schoolId, student.id);
    const limit = this.limits(u);
    const studentRoom = Math.max(0, limit.student - u.student_bytes);
    const schoolRoom = Math.max(0, limit.school - u.recordings_bytes - u.media_bytes);
    return { used_bytes: u.student_bytes, quota_bytes: limit.student, available_bytes: Math.min(studentRoom, schoolRoom), school_full: schoolRoom < studentRoom };
  }

  async schoolStorage(admin: AuthUser, db: DbOrTx = this.db): Promise<SchoolStorage> {
    const [u, top] = [await usageOf(db, admin.schoolId, null), await topStudents(db, admin.schoolId)];
    const limit = this.limits(u);
    return {
      used_bytes: u.recordings_bytes + u.media_bytes,
      recordings_bytes: u.recordings_bytes,
      media_bytes: u.media_bytes,
      quota_bytes: limit.school,
      student_quota_bytes: limit.student,
      defaults: this.defaults,
      custom: { quota: u.storage_quota_bytes !== null, student_quota: u.student_quota_bytes !== null },
      top_students: top.map((s) => ({ id: s.id, name: s.name, teacher: { id: s.teacher_id, name: s.teacher_name }, used_bytes: s.used_bytes, recordings: s.recordings })),
    };
  }

  /** The administrator sets the school's quotas (null: the default); a quota below what is used only stops new uploads. Audit log: school.storage_quota. */
  async update(admin: AuthUser, body: SchoolStorageBody): Promise<SchoolStorage> {
    const school = body.quota_bytes ?? this.defaults.quota_bytes;
    const student = body.student_quota_bytes ?? this.defaults.student_quota_bytes;
    if (student > school) throw invalid({ student_quota_bytes: studentAboveSchool });
    await this.db.transaction(async (tx) => {
      const before = await usageOf(tx, admin.schoolId, null);
      await setSchoolQuotas(tx, admin.schoolId, { storageQuotaBytes: body.quota_bytes, studentQuotaBytes: body.student_quota_bytes });
      if (before.storage_quota_bytes !== body.quota_bytes || before.student_quota_bytes !== body.student_quota_bytes) {
        await audit(tx, admin, 'school.storage_quota', { type: 'school', id: admin.schoolId, name: null }, {
          from: { quota_bytes: before.storage_quota_bytes, student_quota_bytes: before.student_quota_bytes },
          to: { quota_bytes: body.quota_bytes, student_quota_bytes: body.student_quota_bytes },
        });
      }
    });
    return this.schoolStorage(admin);
  }
}
