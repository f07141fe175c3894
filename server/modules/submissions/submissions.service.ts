import type { Db } from '../../db/client';
import type { AuthUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import { AppError, conflict, forbidden, type Msg } from '../../errors';
import { auditRepeatable } from '../../lib/audit';
import { deriveStatus } from '@contract/status';
import {
  REOPEN_WINDOW_MINUTES,
  type Submission,
  type SubmissionCounts,
  type SubmissionCountsQuery,
  type SubmissionListQuery,
  type TaskSeries,
  type TaskSeriesQuery,
} from '@contract/submissions';
import {
  countSubmissions,
  findSubmissions,
  findReopenState,
  findSeries,
  findSubmissionState,
  markCompleted,
  markReopened,
  type SubmissionFilter,
  type SubmissionOwner,
  type SubmissionState,
} from './submissions.repo';
import { stopRunningOnSubmission } from '../practice/practice.repo';
import { isOwnStudent } from '../students/students.repo';

export const submissionMessages = {
  notFound: { de: 'Aufgabe nicht gefunden.', tr: 'Ödev bulunamadı.' },
  expired: {
    de: 'Diese Aufgabe ist verfallen und kann nicht mehr bearbeitet werden.',
    tr: 'Bu ödevin süresi doldu, artık üzerinde işlem yapılamaz.',
  },
  completed: { de: 'Diese Aufgabe ist bereits erledigt.', tr: 'Bu ödev zaten tamamlandı.' },
  reviewed: {
    de: 'Deine Lehrkraft hat diese Aufgabe schon bewertet; sie kann nicht wieder geöffnet werden.',
    tr: 'Öğretmenin bu ödevi zaten değerlendirdi; yeniden açılamaz.',
  },
  reopenTooLate: {
    de: `Eine erledigte Aufgabe kann nur in den ersten ${REOPEN_WINDOW_MINUTES} Minuten wieder geöffnet werden.`,
    tr: `Tamamlanan bir ödev yalnızca ilk ${REOPEN_WINDOW_MINUTES} dakika içinde yeniden açılabilir.`,
  },
  studentOnly: { de: 'Bitte wählen Sie einen Schüler.', tr: 'Lütfen bir öğrenci seçin.' },
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

  /**
   * DELETE /api/submissions/{id}/complete: the student takes back marking their own task done
   * (docs/decisions/done-means-practised.md). Not completed → 200 unchanged (a repeated undo); reviewed by the
   * teacher, or completed more than REOPEN_WINDOW_MINUTES ago → 409. Recorded in the school's audit log.
   */
  async reopen(user: AuthUser, id: number): Promise<Submission> {
    await this.db.transaction(async (tx) => {
      const s = await findReopenState(tx, id, { schoolId: user.schoolId, studentId: user.id }, REOPEN_WINDOW_MINUTES);
      if (!s) throw taskNotFound();
      if (s.completed_at === null) return;
      if (s.reviewed) throw conflict(submissionMessages.reviewed);
      if (!s.within_window) throw conflict(submissionMessages.reopenTooLate);
      await markReopened(tx, user.schoolId, id);
      // an undo loop writes one row per task and window, counting the rest (docs/decisions/done-means-practised.md)
      await auditRepeatable(tx, user, 'task.reopen', { type: 'user', id: user.id, name: null }, { submission_id: id, due_date: s.due_date }, { key: 'submission_id', seconds: REOPEN_WINDOW_MINUTES * 60 });
    });
    return this.get(user, id);
  }

  /**
   * GET /api/submissions/series: a student's own series; a teacher one of their students'
   * (`student_id`; another teacher's student → 404).
   */
  async series(user: AuthUser, q: TaskSeriesQuery): Promise<TaskSeries[]> {
    if (user.role === 'student') return this.seriesOf(user.schoolId, user.id, q);
    if (!q.student_id) throw forbidden(submissionMessages.studentOnly);
    if (user.role !== 'teacher' || !(await isOwnStudent(this.db, user.schoolId, user.id, q.student_id))) throw taskNotFound();
    return this.seriesOf(user.schoolId, q.student_id, q);
  }

  /** The series of one student (the caller has been checked to see them), with each series' current task, in two statements. */
  async seriesOf(schoolId: number, studentId: number, q: Pick<TaskSeriesQuery, 'course_id' | 'scope' | 'limit'>, today = this.today()): Promise<TaskSeries[]> {
    const found = await findSeries(
      this.db,
      { schoolId, studentId, scope: q.scope ?? 'current', ...(q.course_id ? { courseId: q.course_id } : {}), ...(q.limit !== undefined ? { limit: q.limit } : {}) },
      today,
    );
    const ids = found.map((r) => r.current_id);
    const tasks = ids.length ? await findSubmissions(this.db, { schoolId, studentId, ids, withMedia: false }, today) : [];
    const byId = new Map(tasks.map((t) => [t.id, t]));
    return found.flatMap((r) => {
      const current = byId.get(r.current_id);
      // read in the same moment: a task deleted between the two statements leaves its series out
      if (!current) return [];
      return [{
      series_id: r.series_id,
      student_id: r.student_id,
      title: r.title,
      course_id: r.course_id,
      occurrences: r.occurrences,
      completed: r.completed,
      next_due: r.next_due,
      streak: r.streak,
      today: r.today_id === null ? null : { submission_id: r.today_id, time_spent_minutes: r.today_minutes ?? 0, done: r.today_done === true },
      current,
    }];
    });
  }
}
