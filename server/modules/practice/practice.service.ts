import type { Db } from '../../db/client';
import type { AuthUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import { AppError, conflict, invalid, type Msg } from '../../errors';
import { OFFLINE_CLOCK_SKEW_MS, OFFLINE_MAX_AGE_DAYS, type PracticeOffline, type PracticeSession } from '@contract/practice';
import { PRACTICE_DAY_MAX_MINUTES, PRACTICE_SESSION_CAP_MINUTES, PRACTICE_SESSION_PAGE_MAX, PRACTICE_SESSIONS_PER_DAY_MAX } from '@contract/constants';
import type { Tx } from '../../db/client';
import { findSubmissionState } from '../submissions/submissions.repo';
import { ownerOf, stateStatus, submissionMessages, taskNotFound } from '../submissions/submissions.service';
import {
  clockNow,
  dayTotals,
  type At,
  findOverlapping,
  findRunning,
  insertOfflineSession,
  findStudentSession,
  insertSession,
  isRunningSessionConflict,
  listSessions,
  lockStudent,
  spanEnd,
  stopRunningOfStudent,
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
  dayCount: {
    de: `An einem Tag können höchstens ${PRACTICE_SESSIONS_PER_DAY_MAX} Übungen erfasst werden.`,
    tr: `Bir günde en fazla ${PRACTICE_SESSIONS_PER_DAY_MAX} çalışma kaydedilebilir.`,
  },
  dayFull: {
    de: 'An diesem Tag sind schon 24 Stunden Übung erfasst.',
    tr: 'Bu gün için zaten 24 saat çalışma kaydedildi.',
  },
} satisfies Record<string, Msg>;

/** A span a new session claims: a live one from now on (its end unknown), or one timed on the device. */
type Claim = { live: true } | { live: false; startedAt: Date; endedAt: Date };

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
        const startedAt = await this.claim(tx, user, { live: true });
        return insertSession(tx, user.schoolId, submissionId, user.id, startedAt);
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
      await this.claim(tx, user, { live: false, startedAt, endedAt });
      return insertOfflineSession(tx, user.schoolId, submissionId, user.id, startedAt, endedAt);
    });
  }

  /**
   * The one rule for live and offline sessions (docs/decisions/tasks-and-practice-timer.md,
   * "One thing at a time"): a student practises one thing at a time. Under a lock of the
   * student's row (so two claims never pass together): a live start first stops whatever else of
   * the student runs, counted until now (the student moved on); then no session of the student
   * may overlap the new span (a running one until now), and the day of its start (school time
   * zone) may hold at most PRACTICE_SESSIONS_PER_DAY_MAX sessions and PRACTICE_DAY_MAX_MINUTES.
   * Refusals: 422 naming `started_at`/`ended_at` for an offline session; for a live start
   * (no body) 409 for an overlap, 422 for the day's count. Gives the moment the span starts.
   */
  private async claim(tx: Tx, user: AuthUser, span: Claim): Promise<At> {
    await lockStudent(tx, user.schoolId, user.id);
    // A live session starts when the lock is held (the database's clock), after any it waited for.
    const start: At = span.live ? await clockNow(tx) : span.startedAt;
    if (span.live) await stopRunningOfStudent(tx, user.schoolId, user.id, start);
    if (await findOverlapping(tx, user.schoolId, user.id, start, spanEnd(span.live ? null : span.endedAt, start))) {
      if (span.live) throw conflict(practiceMessages.offlineOverlap);
      throw invalid({ started_at: practiceMessages.offlineOverlap });
    }
    const day = await dayTotals(tx, user.schoolId, user.id, start, this.timeZone);
    if (day.count >= PRACTICE_SESSIONS_PER_DAY_MAX) {
      if (span.live) throw new AppError(422, practiceMessages.dayCount);
      throw invalid({ started_at: practiceMessages.dayCount });
    }
    if (!span.live && day.minutes + (span.endedAt.getTime() - span.startedAt.getTime()) / 60_000 > PRACTICE_DAY_MAX_MINUTES)
      throw invalid({ ended_at: practiceMessages.dayFull });
    return start;
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

  async list(user: AuthUser, submissionId: number, page: { limit?: number | undefined; offset?: number | undefined } = {}): Promise<PracticeSession[]> {
    await this.visible(user, submissionId);
    return listSessions(this.db, user.schoolId, submissionId, page.limit ?? PRACTICE_SESSION_PAGE_MAX, page.offset ?? 0);
  }

  private async visible(user: AuthUser, submissionId: number): Promise<void> {
    if (!(await findSubmissionState(this.db, submissionId, ownerOf(user)))) throw taskNotFound();
  }
}
