import type { Db } from '../../db/client';
import type { AuthUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import { AppError, conflict, invalid, type Msg } from '../../errors';
import { OFFLINE_CLOCK_SKEW_MS, OFFLINE_MAX_AGE_DAYS, type PracticeOffline, type PracticeSession } from '../../../contract/practice';
import { PRACTICE_SESSION_CAP_MINUTES } from '../../../contract/constants';
import { rows } from '../../db/client';
import { sql } from 'drizzle-orm';
import { findSubmissionState } from '../submissions/submissions.repo';
import { ownerOf, stateStatus, submissionMessages, taskNotFound } from '../submissions/submissions.service';
import {
  findOverlapping,
  findRunning,
  insertOfflineSession,
  findStudentSession,
  insertSession,
  isRunningSessionConflict,
  listSessions,
  stopSession,
} from './practice.repo';

export const practiceMessages = {
  running: { de: 'Für diese Aufgabe läuft bereits eine Übung.', tr: 'Bu ödev için zaten devam eden bir çalışma var.' },
  notRunning: { de: 'Diese Übung läuft nicht mehr.', tr: 'Bu çalışma artık devam etmiyor.' },
  sessionNotFound: { de: 'Übungssitzung nicht gefunden.', tr: 'Çalışma oturumu bulunamadı.' },
  noActive: { de: 'Für diese Aufgabe läuft keine Übung.', tr: 'Bu ödev için devam eden bir çalışma yok.' },
  offlineFuture: { de: 'Das Ende der Übung liegt in der Zukunft.', tr: 'Çalışmanın bitişi gelecekte.' },
  offlineOrder: { de: 'Das Ende muss nach dem Beginn liegen.', tr: 'Bitiş, başlangıçtan sonra olmalıdır.' },
  offlineTooLong: {
    de: `Eine Übung darf höchstens ${PRACTICE_SESSION_CAP_MINUTES} Minuten dauern.`,
    tr: `Bir çalışma en fazla ${PRACTICE_SESSION_CAP_MINUTES} dakika sürebilir.`,
  },
  offlineTooOld: {
    de: `Offline geübte Zeiten können nur bis ${OFFLINE_MAX_AGE_DAYS} Tage danach gesendet werden.`,
    tr: `Çevrimdışı çalışma süreleri en fazla ${OFFLINE_MAX_AGE_DAYS} gün sonrasına kadar gönderilebilir.`,
  },
  offlineOverlap: {
    de: 'Diese Zeit überschneidet sich mit einer anderen Übung.',
    tr: 'Bu süre başka bir çalışmayla çakışıyor.',
  },
} satisfies Record<string, Msg>;

export class PracticeService {
  constructor(
    private readonly db: Db,
    private readonly timeZone: string,
  ) {}

  /**
   * Starts the timer on the student's own task. Completed or expired → 409; a session already
   * running → 409 with that session. The unique partial index keeps it to one even under a race.
   */
  async start(user: AuthUser, submissionId: number): Promise<PracticeSession> {
    const today = todayInZone(this.timeZone);
    try {
      return await this.db.transaction(async (tx) => {
        const s = await findSubmissionState(tx, submissionId, { schoolId: user.schoolId, studentId: user.id }, { forUpdate: true });
        if (!s) throw taskNotFound();
        const status = stateStatus(s, today);
        if (status === 'completed') throw conflict(submissionMessages.completed);
        if (status === 'expired') throw conflict(submissionMessages.expired);
        const running = await findRunning(tx, user.schoolId, submissionId);
        if (running) throw conflict(practiceMessages.running, { session: running });
        return insertSession(tx, user.schoolId, submissionId, user.id);
      });
    } catch (err) {
      if (err instanceof AppError || !isRunningSessionConflict(err)) throw err;
      const running = await findRunning(this.db, user.schoolId, submissionId);
      throw conflict(practiceMessages.running, running ? { session: running } : undefined);
    }
  }

  /**
   * A session the student timed on their device without a connection (recorded_offline). Bounds
   * (422, field named): ended_at not after now + 2 minutes (clock skew), within the last 7 days,
   * after started_at, at most 180 minutes long, not overlapping another session of the student
   * (any task, a running one until now). The task: the student's own (404), not expired (409), and
   * when completed only for a session that ended before it was completed (409 otherwise).
   * The student's sessions are serialised by locking the student's row, so two offline sessions
   * sent at once cannot both pass the overlap check.
   */
  async recordOffline(user: AuthUser, submissionId: number, body: PracticeOffline): Promise<PracticeSession> {
    const startedAt = new Date(body.started_at);
    const endedAt = new Date(body.ended_at);
    const now = Date.now();
    if (endedAt.getTime() > now + OFFLINE_CLOCK_SKEW_MS) throw invalid({ ended_at: practiceMessages.offlineFuture });
    if (endedAt.getTime() < now - OFFLINE_MAX_AGE_DAYS * 86_400_000) throw invalid({ ended_at: practiceMessages.offlineTooOld });
    if (startedAt.getTime() >= endedAt.getTime()) throw invalid({ ended_at: practiceMessages.offlineOrder });
    if (endedAt.getTime() - startedAt.getTime() > PRACTICE_SESSION_CAP_MINUTES * 60_000) throw invalid({ ended_at: practiceMessages.offlineTooLong });
    const today = todayInZone(this.timeZone);
    return this.db.transaction(async (tx) => {
      const s = await findSubmissionState(tx, submissionId, { schoolId: user.schoolId, studentId: user.id }, { forUpdate: true });
      if (!s) throw taskNotFound();
      const status = stateStatus(s, today);
      if (status === 'expired') throw conflict(submissionMessages.expired);
      if (status === 'completed' && s.completed_at !== null && endedAt.getTime() > new Date(s.completed_at).getTime())
        throw conflict(submissionMessages.completed);
      await rows(tx, sql`select id from users where id = ${user.id} and school_id = ${user.schoolId} for no key update`);
      if (await findOverlapping(tx, user.schoolId, user.id, startedAt, endedAt)) throw invalid({ started_at: practiceMessages.offlineOverlap });
      return insertOfflineSession(tx, user.schoolId, submissionId, user.id, startedAt, endedAt);
    });
  }

  /** Stops the student's running session; its time counts at most 180 minutes; `tempoBpm` (optional) is kept on it. */
  async stop(user: AuthUser, sessionId: number, tempoBpm?: number): Promise<PracticeSession> {
    const stopped = await stopSession(this.db, user.schoolId, sessionId, user.id, tempoBpm);
    if (stopped) return stopped;
    const existing = await findStudentSession(this.db, user.schoolId, sessionId, user.id);
    if (!existing) throw new AppError(404, practiceMessages.sessionNotFound);
    throw conflict(practiceMessages.notRunning, { session: existing });
  }

  async active(user: AuthUser, submissionId: number): Promise<PracticeSession> {
    await this.visible(user, submissionId);
    const running = await findRunning(this.db, user.schoolId, submissionId);
    if (!running) throw new AppError(404, practiceMessages.noActive);
    return running;
  }

  async list(user: AuthUser, submissionId: number): Promise<PracticeSession[]> {
    await this.visible(user, submissionId);
    return listSessions(this.db, user.schoolId, submissionId);
  }

  private async visible(user: AuthUser, submissionId: number): Promise<void> {
    if (!(await findSubmissionState(this.db, submissionId, ownerOf(user)))) throw taskNotFound();
  }
}
