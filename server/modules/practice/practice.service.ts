import type { Db } from '../../db/client';
import type { AuthUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import { AppError, conflict, type Msg } from '../../errors';
import type { PracticeSession } from '../../../contract/practice';
import { findSubmissionState } from '../submissions/submissions.repo';
import { ownerOf, stateStatus, submissionMessages, taskNotFound } from '../submissions/submissions.service';
import {
  findRunning,
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
        const s = await findSubmissionState(tx, submissionId, { studentId: user.id }, { forUpdate: true });
        if (!s) throw taskNotFound();
        const status = stateStatus(s, today);
        if (status === 'completed') throw conflict(submissionMessages.completed);
        if (status === 'expired') throw conflict(submissionMessages.expired);
        const running = await findRunning(tx, submissionId);
        if (running) throw conflict(practiceMessages.running, { session: running });
        return insertSession(tx, submissionId, user.id);
      });
    } catch (err) {
      if (err instanceof AppError || !isRunningSessionConflict(err)) throw err;
      const running = await findRunning(this.db, submissionId);
      throw conflict(practiceMessages.running, running ? { session: running } : undefined);
    }
  }

  /** Stops the student's running session; its time counts at most 180 minutes; `tempoBpm` (optional) is kept on it. */
  async stop(user: AuthUser, sessionId: number, tempoBpm?: number): Promise<PracticeSession> {
    const stopped = await stopSession(this.db, sessionId, user.id, tempoBpm);
    if (stopped) return stopped;
    const existing = await findStudentSession(this.db, sessionId, user.id);
    if (!existing) throw new AppError(404, practiceMessages.sessionNotFound);
    throw conflict(practiceMessages.notRunning, { session: existing });
  }

  async active(user: AuthUser, submissionId: number): Promise<PracticeSession> {
    await this.visible(user, submissionId);
    const running = await findRunning(this.db, submissionId);
    if (!running) throw new AppError(404, practiceMessages.noActive);
    return running;
  }

  async list(user: AuthUser, submissionId: number): Promise<PracticeSession[]> {
    await this.visible(user, submissionId);
    return listSessions(this.db, submissionId);
  }

  private async visible(user: AuthUser, submissionId: number): Promise<void> {
    if (!(await findSubmissionState(this.db, submissionId, ownerOf(user)))) throw taskNotFound();
  }
}
