import type { Db } from '../../db/client';
import { notFound } from '../../errors';
import type { AuthUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import type { ReviewBody, StudentMetrics, StudentOverview } from '@contract/metrics';
import { RECENT_SUBMISSIONS } from '@contract/metrics';
import type { Submission } from '@contract/submissions';
import { findSubmissions } from '../submissions/submissions.repo';
import { findOwnSubmissionId, ownStudentKpis, ownStudentMetrics, saveReview, studentMetrics } from './metrics.repo';

/** A caller or a student: who, in which school. */
type Person = Pick<AuthUser, 'id' | 'schoolId'>;

/**
 * Progress rules: a student's metrics, the teacher's overview of one of their students, and the
 * teacher's review of a task. `now` is a parameter so that tests can fix the clock; "today" is
 * the school's date in `timeZone` (APP_TIMEZONE). Callers are given as id and school: every
 * statement stays inside the caller's school.
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
  metrics(student: Person, now: Date = new Date()): Promise<StudentMetrics> {
    return studentMetrics(this.db, student.schoolId, student.id, this.today(now), this.timeZone);
  }

  /** GET /api/students/{id}/metrics: 404 unless the student is the teacher's own (checked in the same statement). */
  async metricsForTeacher(teacher: Person, studentId: number, now: Date = new Date()): Promise<StudentMetrics> {
    const m = await ownStudentMetrics(this.db, teacher.schoolId, teacher.id, studentId, this.today(now), this.timeZone);
    if (!m) throw notFound();
    return m;
  }

  /** GET /api/students/{id}/overview: 404 unless the student is the teacher's own. Two statements: the student with the numbers, the recent tasks. */
  async overview(teacher: Person, studentId: number, now: Date = new Date()): Promise<StudentOverview> {
    const today = this.today(now);
    const own = await ownStudentKpis(this.db, teacher.schoolId, teacher.id, studentId, today, this.timeZone);
    if (!own) throw notFound();
    const recent = await findSubmissions(
      this.db,
      { schoolId: teacher.schoolId, studentId: own.student.id, to: today, order: 'due_desc', limit: RECENT_SUBMISSIONS, withMedia: false },
      today,
    );
    return { student: own.student, kpis: own.kpis, recent_submissions: recent };
  }

  /** PATCH /api/submissions/{id}/review: only a task of one of the teacher's students, else 404. */
  async review(teacher: Person, submissionId: number, body: ReviewBody, now: Date = new Date()): Promise<Submission> {
    const id = await findOwnSubmissionId(this.db, teacher.schoolId, teacher.id, submissionId);
    if (id === undefined) throw notFound();
    await saveReview(this.db, teacher.schoolId, id, body);
    const today = this.today(now);
    const [sub] = await findSubmissions(this.db, { schoolId: teacher.schoolId, ids: [id] }, today);
    if (!sub) throw notFound();
    return sub;
  }
}
