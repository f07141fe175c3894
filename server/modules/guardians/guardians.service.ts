import type { Db } from '../../db/client';
import { conflict, notFound, type Msg } from '../../errors';
import { audit } from '../../lib/audit';
import { forgetUser, type AuthUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import {
  GUARDIAN_RECORDINGS_MAX,
  GUARDIAN_TASK_DAYS,
  type GuardianAddBody,
  type GuardianAddResponse,
  type GuardianChild,
  type GuardianChildDetail,
  type StudentGuardiansResponse,
} from '@contract/guardians';
import { MetricsService } from '../metrics/metrics.service';
import { findRecordings } from '../recordings/recordings.repo';
import { createInvite, schoolInvites } from '../school/invites';
import type { Mailer } from '../../lib/mail';
import { accountWithEmail, lockEmail } from '../school/school.repo';
import { findSubmissions } from '../submissions/submissions.repo';
import { SubmissionsService } from '../submissions/submissions.service';
import { findSchoolGuardianByEmail, findStaffStudent, guardianChildren, linkGuardian, listGuardiansOf, unlinkGuardian } from './guardians.repo';

export const guardianMessages = {
  /** The e-mail of a teacher, a student, an administrator or another school's account. */
  emailOtherAccount: {
    de: 'Diese E-Mail-Adresse gehört bereits zu einem anderen Konto (keinem Elternkonto dieser Schule). Bitte geben Sie eine andere E-Mail-Adresse der Eltern an.',
    tr: 'Bu e-posta adresi zaten başka bir hesaba ait (bu okulun veli hesabı değil). Lütfen velinin başka bir e-posta adresini girin.',
  },
} satisfies Record<string, Msg>;

/** A calendar date `n` days from `date` (both YYYY-MM-DD). */
function addDays(date: string, n: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * Parents' read-only access (docs/decisions/schools-and-roles.md): the staff side (a student's teacher or the school's
 * administrator links and removes guardians) and the guardian's own reads. A student the caller may
 * not manage, and a child not linked to the guardian, answer 404 like a missing id.
 */
export class GuardiansService {
  private readonly metrics: MetricsService;

  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {
    this.metrics = new MetricsService(db, timeZone);
  }

  private async staffStudent(actor: AuthUser, studentId: number) {
    const student = await findStaffStudent(this.db, actor, studentId);
    if (!student) throw notFound();
    return student;
  }

  /** GET /api/students/{id}/guardians: the guardians following the student and the open guardian invitations naming them. */
  async list(actor: AuthUser, studentId: number): Promise<StudentGuardiansResponse> {
    const student = await this.staffStudent(actor, studentId);
    const guardians = await listGuardiansOf(this.db, actor.schoolId, student.id);
    const invites = await schoolInvites(this.db, actor.schoolId, { studentId: student.id, open: true, kind: 'guardian' });
    return { guardians, invites };
  }

  /**
   * POST /api/students/{id}/guardians: a guardian account of the school with this e-mail follows the
   * student at once ('guardian.link'); an e-mail of any other account is a 409; otherwise an
   * invitation link is made (createInvite: 'invite.create', e-mailed after its commit when SMTP is set).
   */
  async add(actor: AuthUser, studentId: number, body: GuardianAddBody, origin: string, mailer: Mailer | null): Promise<GuardianAddResponse> {
    const linked = await this.db.transaction(async (tx) => {
      const student = await findStaffStudent(tx, actor, studentId, { forUpdate: true });
      if (!student) throw notFound();
      // Serialised with invitations and their acceptance for the same address (school/invites.ts).
      await lockEmail(tx, body.email);
      const guardian = await findSchoolGuardianByEmail(tx, actor.schoolId, body.email);
      if (!guardian) {
        if (await accountWithEmail(tx, body.email)) throw conflict(guardianMessages.emailOtherAccount);
        return null;
      }
      const link = await linkGuardian(tx, actor.schoolId, guardian.id, student.id);
      if (link.created) {
        await audit(tx, actor, 'guardian.link', { type: 'user', id: guardian.id, name: guardian.name }, { student_id: student.id, student_name: student.name });
      }
      return { id: guardian.id, name: guardian.name, email: guardian.email, created_at: link.created_at };
    });
    if (linked) return { guardian: linked, invite: null };
    const invite = await createInvite(this.db, actor, { kind: 'guardian', name: body.name, email: body.email, studentIds: [studentId] }, origin, mailer);
    return { guardian: null, invite };
  }

  /**
   * DELETE /api/students/{id}/guardians/{guardianId}: the guardian no longer follows the student, at
   * once; a guardian left without a child loses the account. Audited as 'guardian.remove'.
   */
  async remove(actor: AuthUser, studentId: number, guardianId: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      const student = await findStaffStudent(tx, actor, studentId, { forUpdate: true });
      if (!student) throw notFound();
      const removed = await unlinkGuardian(tx, actor.schoolId, guardianId, student.id);
      if (!removed) throw notFound();
      await audit(tx, actor, 'guardian.remove', { type: 'user', id: removed.guardian.id, name: removed.guardian.name }, {
        student_id: student.id,
        student_name: student.name,
        account_deleted: removed.accountDeleted,
      });
    });
    // Committed: every process looks the guardian's tokens up again (gone with a deleted account).
    await forgetUser(this.db, guardianId);
  }

  /** GET /api/guardian/children: the guardian's children by name, with their figures (one statement). */
  children(guardian: AuthUser, now: Date = new Date()): Promise<GuardianChild[]> {
    return guardianChildren(this.db, guardian, todayInZone(this.timeZone, now), this.timeZone);
  }

  /**
   * GET /api/guardian/children/{id}: the child's figures, metrics, the tasks due in the guardian's
   * window (newest first, with the teacher's feedback), the current series and the latest recordings
   * with comments, in six statements whatever the data; 404 for anyone not the guardian's child.
   */
  async child(guardian: AuthUser, childId: number, now: Date = new Date()): Promise<GuardianChildDetail> {
    const today = todayInZone(this.timeZone, now);
    const [child] = await guardianChildren(this.db, guardian, today, this.timeZone, childId);
    if (!child) throw notFound();
    const student = { id: child.id, schoolId: guardian.schoolId };
    const metrics = await this.metrics.metrics(student, now);
    const submissions = await findSubmissions(
      this.db,
      { schoolId: guardian.schoolId, studentId: child.id, from: addDays(today, -GUARDIAN_TASK_DAYS.back), to: addDays(today, GUARDIAN_TASK_DAYS.ahead), order: 'due_desc' },
      today,
    );
    const recordings = await findRecordings(this.db, { limit: GUARDIAN_RECORDINGS_MAX }, { schoolId: guardian.schoolId, studentId: child.id });
    // A repeating task is one item with today's progress and its streak (docs/decisions/done-means-practised.md).
    const series = await new SubmissionsService(this.db, this.timeZone).seriesOf(guardian.schoolId, child.id, { scope: 'current' }, today);
    return { child, metrics, submissions, series, recordings };
  }
}
