import type { Db } from '../../db/client';
import type { AuthUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import { AppError, conflict, type Msg } from '../../errors';
import { deriveStatus } from '@contract/status';
import type { Submission, SubmissionCounts, SubmissionCountsQuery, SubmissionListQuery } from '@contract/submissions';
import {
  countSubmissions,
  findSubmissions,
  findSubmissionState,
  markCompleted,
  type SubmissionFilter,
  type SubmissionOwner,
  type SubmissionState,
} from './submissions.repo';
import { stopRunningOnSubmission } from '../practice/practice.repo';

export const submissionMessages = {
  notFound: { de: 'Aufgabe nicht gefunden.', tr: 'Ödev bulunamadı.' },
  expired: {
    de: 'Diese Aufgabe ist verfallen und kann nicht mehr bearbeitet werden.',
    tr: 'Bu ödevin süresi doldu, artık üzerinde işlem yapılamaz.',
  },
  completed: { de: 'Diese Aufgabe ist bereits erledigt.', tr: 'Bu ödev zaten tamamlandı.' },
} satisfies Record<string, Msg>;

export const taskNotFound = () => new AppError(404, submissionMessages.notFound);

/** Whose submissions a user may see: a student their own, a teacher their students'. */
export function ownerOf(user: AuthUser): SubmissionOwner {
  return user.role === 'student' ? { schoolId: user.schoolId, studentId: user.id } : { schoolId: user.schoolId, teacherId: user.id };
}

/** Status of a submission row by the one rule of contract/status.ts. */
export function stateStatus(s: SubmissionState, today: string) {
  return deriveStatus({ completed_at: s.completed_at, due_date: s.due_date, expiration_date: s.expiration_date }, today);
}

export class SubmissionsService {
  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {}

  today(): string {
    return todayInZone(this.timeZone);
  }

  /** Whose tasks a list or count covers: a student their own; a teacher their students' (optionally one student's). */
  private scope(user: AuthUser, q: { student_id?: number | undefined; course_id?: number | null | undefined }): SubmissionFilter {
    return {
      schoolId: user.schoolId,
      ...(user.role === 'student' ? { studentId: user.id } : { teacherId: user.id, ...(q.student_id ? { studentId: q.student_id } : {}) }),
      ...(q.course_id ? { courseId: q.course_id } : {}),
    };
  }

  list(user: AuthUser, q: SubmissionListQuery): Promise<Submission[]> {
    return findSubmissions(
      this.db,
      {
        ...this.scope(user, q),
        ...(q.status ? { statuses: q.status } : {}),
        ...(q.from ? { from: q.from } : {}),
        ...(q.to ? { to: q.to } : {}),
        order: q.order === 'due_desc' ? 'due_desc' : q.order === 'work' ? 'work' : 'due_asc',
        ...(q.limit !== undefined ? { limit: q.limit } : {}),
        ...(q.offset !== undefined ? { offset: q.offset } : {}),
      },
      this.today(),
    );
  }

  counts(user: AuthUser, q: SubmissionCountsQuery): Promise<SubmissionCounts> {
    return countSubmissions(this.db, this.scope(user, q), this.today());
  }

  /** One submission with its exercise and media; 404 outside the caller's own data. */
  async get(user: AuthUser, id: number): Promise<Submission> {
    const owner = ownerOf(user);
    const [found] = await findSubmissions(this.db, { ids: [id], ...owner }, this.today());
    if (!found) throw taskNotFound();
    return found;
  }

  /**
   * The student marks a task done: an expired task → 409; a completed one stays as it is (200).
   * A practice session running on it is stopped first, in the same transaction.
   */
  async complete(user: AuthUser, id: number): Promise<Submission> {
    const today = this.today();
    await this.db.transaction(async (tx) => {
      const s = await findSubmissionState(tx, id, { schoolId: user.schoolId, studentId: user.id }, { forUpdate: true });
      if (!s) throw taskNotFound();
      const status = stateStatus(s, today);
      if (status === 'completed') return;
      if (status === 'expired') throw conflict(submissionMessages.expired);
      await stopRunningOnSubmission(tx, user.schoolId, id);
      await markCompleted(tx, user.schoolId, id);
    });
    return this.get(user, id);
  }
}
