import { sql } from 'drizzle-orm';
import { rows, type DbOrTx } from '../../db/client';
import { STORAGE_TOP_STUDENTS } from '@contract/storage';

/** Key space of the quota's advisory lock (pg_advisory_xact_lock(int, int): this, the school). */
const QUOTA_LOCK_SPACE = 0x51554f54; // 'QUOT'

/**
 * Uploads of one school that are about to be stored queue here, inside their transaction, until it
 * ends: each sums what is stored after the one before committed, so parallel uploads cannot
 * overshoot a quota (docs/decisions/storage-quota.md). An advisory lock, not a row lock on the
 * school: other writes of the school (which take a key-share lock on it) are not held up.
 */
export async function lockSchoolQuota(tx: DbOrTx, schoolId: number): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${QUOTA_LOCK_SPACE}::int, ${schoolId}::int)`);
}

export type Usage = {
  /** Bytes of the student's recordings (0 without a student). */
  student_bytes: number;
  recordings_bytes: number;
  media_bytes: number;
  /** The school's own quotas (null: the default). */
  storage_quota_bytes: number | null;
  student_quota_bytes: number | null;
};

/** One statement: the student's and the school's bytes, and the school's own quotas. */
export async function usageOf(db: DbOrTx, schoolId: number, studentId: number | null): Promise<Usage> {
  const [r] = await rows<Record<keyof Usage, string | number | null>>(
    db,
    sql`select
        ${studentId === null ? sql`0` : sql`(select coalesce(sum(size), 0) from recordings where school_id = ${schoolId} and student_id = ${studentId})`} as student_bytes,
        -- the takes and the teachers' spoken comments on them (docs/decisions/spoken-comments-and-quick-replies.md)
        (select coalesce(sum(size), 0) from recordings where school_id = ${schoolId})
          + (select coalesce(sum(audio_size), 0) from recording_comments where school_id = ${schoolId} and audio_path is not null) as recordings_bytes,
        (select coalesce(sum(size), 0) from media_files where school_id = ${schoolId}) as media_bytes,
        s.storage_quota_bytes, s.student_quota_bytes
      from schools s where s.id = ${schoolId}`,
  );
  const n = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return {
    student_bytes: n(r?.student_bytes) ?? 0,
    recordings_bytes: n(r?.recordings_bytes) ?? 0,
    media_bytes: n(r?.media_bytes) ?? 0,
    storage_quota_bytes: n(r?.storage_quota_bytes),
    student_quota_bytes: n(r?.student_quota_bytes),
  };
}

export type TopStudent = { id: number; name: string; teacher_id: number; teacher_name: string; used_bytes: number; recordings: number };

/** The school's students whose recordings take the most, largest first: one grouped statement. */
export async function topStudents(db: DbOrTx, schoolId: number): Promise<TopStudent[]> {
  const result = await rows<{ id: number; name: string; teacher_id: number; teacher_name: string; used_bytes: string | number; recordings: number }>(
    db,
    sql`select u.id, u.name, t.id as teacher_id, t.name as teacher_name, r.used_bytes, r.recordings
      from (select student_id, sum(size) as used_bytes, count(*)::int as recordings
            from recordings where school_id = ${schoolId} group by student_id
            order by sum(size) desc, student_id limit ${STORAGE_TOP_STUDENTS}) r
      join users u on u.id = r.student_id and u.school_id = ${schoolId}
      join users t on t.id = u.teacher_id and t.school_id = ${schoolId}
      order by r.used_bytes desc, u.id`,
  );
  return result.map((r) => ({ ...r, used_bytes: Number(r.used_bytes), recordings: Number(r.recordings) }));
}

export async function setSchoolQuotas(db: DbOrTx, schoolId: number, q: { storageQuotaBytes: number | null; studentQuotaBytes: number | null }): Promise<void> {
  await db.execute(sql`update schools set storage_quota_bytes = ${q.storageQuotaBytes}, student_quota_bytes = ${q.studentQuotaBytes} where id = ${schoolId}`);
}
