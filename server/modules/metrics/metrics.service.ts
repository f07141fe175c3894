import type { Db } from '../../db/client';
import { notFound } from '../../errors';
import { todayInZone } from '../../lib/time';
import type { ReviewBody, StudentMetrics, StudentOverview } from '../../../contract/metrics';
import { RECENT_SUBMISSIONS } from '../../../contract/metrics';
import type { Submission } from '../../../contract/submissions';
import { findSubmissions } from '../submissions/submissions.repo';
import { findOwnSubmissionId, ownStudentKpis, ownStudentMetrics, saveReview, studentMetrics } from './metrics.repo';

/**
 * Progress rules: a student's metrics, the teacher's overview of one of their students, and the
 * teacher's review of a task. `now` is a parameter so that tests can fix the clock; "today" is
 * the school's date in `timeZone` (APP_TIMEZONE).
 */
export class MetricsService {
  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {}

  private today(now: Date): string {
    return todayInZone(this.timeZone, now);
  }

  /** Metrics of a student (the caller has already been checked to be this student or their teacher). */
  metrics(studentId: number, now: Date = new Date()): Promise<StudentMetrics> {
    return studentMetrics(this.db, studentId, this.today(now), this.timeZone);
  }

  /** GET /api/students/{id}/metrics: 404 unless the student is the teacher's own (checked in the same statement). */
  async metricsForTeacher(teacherId: number, studentId: number, now: Date = new Date()): Promise<StudentMetrics> {
    const m = await ownStudentMetrics(this.db, teacherId, studentId, this.today(now), this.timeZone);
    if (!m) throw notFound();
    return m;
  }

  /** GET /api/students/{id}/overview: 404 unless the student is the teacher's own. Two statements: the student with the numbers, the recent tasks. */
  async overview(teacherId: number, studentId: number, now: Date = new Date()): Promise<StudentOverview> {
    const today = this.today(now);
    const own = await ownStudentKpis(this.db, teacherId, studentId, today, this.timeZone);
    if (!own) throw notFound();
    const recent = await findSubmissions(
      this.db,
      { studentId: own.student.id, to: today, order: 'due_desc', limit: RECENT_SUBMISSIONS, withMedia: false },
      today,
    );
    return { student: own.student, kpis: own.kpis, recent_submissions: recent };
  }

  /** PATCH /api/submissions/{id}/review: only a task of one of the teacher's students, else 404. */
  async review(teacherId: number, submissionId: number, body: ReviewBody, now: Date = new Date()): Promise<Submission> {
    const id = await findOwnSubmissionId(this.db, teacherId, submissionId);
    if (id === undefined) throw notFound();
    await saveReview(this.db, id, body);
    const today = this.today(now);
    const [sub] = await findSubmissions(this.db, { ids: [id] }, today);
    if (!sub) throw notFound();
    return sub;
  }
}
