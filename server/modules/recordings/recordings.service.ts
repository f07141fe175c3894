import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { AppError, conflict, invalid, notFound, type Msg } from '../../errors';
import type { AuthUser } from '../../lib/auth';
import type { Storage } from '../../lib/storage';
import { todayInZone } from '../../lib/time';
import {
  RECORDING_LIMITS,
  RECORDING_TEXTS,
  type CountResponse,
  type CreateCommentBody,
  type InboxQuery,
  type InboxResponse,
  type NewFeedbackResponse,
  type Recording,
  type RecordingComment,
  type RecordingListResponse,
  type UpdateCommentBody,
} from '@contract/recordings';
import { cleanFilename } from '../exercises/exercises.upload';
import { findSubmissionState } from '../submissions/submissions.repo';
import { stateStatus } from '../submissions/submissions.service';
import * as repo from './recordings.repo';
import type { StagedRecording } from './recordings.upload';
import type { StagedVoiceComment } from './voice-comment.upload';
import type { StorageQuota } from '../storage/storage.service';

export const recordingMessages = {
  notFound: { de: 'Aufnahme nicht gefunden.', tr: 'Kayıt bulunamadı.' },
  taskNotFound: { de: 'Aufgabe nicht gefunden.', tr: 'Ödev bulunamadı.' },
  commentNotFound: { de: 'Kommentar nicht gefunden.', tr: 'Yorum bulunamadı.' },
  expired: {
    de: 'Diese Aufgabe ist verfallen. Es können keine Aufnahmen mehr gesendet werden.',
    tr: 'Bu ödevin süresi doldu. Artık kayıt gönderilemez.',
  },
  answered: {
    de: 'Diese Aufnahme wurde bereits beantwortet und kann nicht mehr gelöscht werden.',
    tr: 'Bu kayıt zaten yanıtlandı ve artık silinemez.',
  },
  foreignSession: {
    de: 'Diese Übungssitzung gehört nicht zu dieser Aufgabe.',
    tr: 'Bu çalışma oturumu bu ödeve ait değil.',
  },
  pastEnd: (durationMs: number): Msg => ({
    de: `Der Zeitpunkt liegt nach dem Ende der Aufnahme (${formatMs(durationMs)}).`,
    tr: `Zaman, kaydın sonundan sonra (${formatMs(durationMs)}).`,
  }),
} satisfies Record<string, Msg | ((n: number) => Msg)>;

function formatMs(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

const recordingNotFound = () => notFound(recordingMessages.notFound);
const taskNotFound = () => notFound(recordingMessages.taskNotFound);

function ownerOf(user: AuthUser): repo.RecordingOwner {
  return user.role === 'student' ? { schoolId: user.schoolId, studentId: user.id } : { schoolId: user.schoolId, teacherId: user.id };
}
const taskOwnerOf = ownerOf;

/** The folder of a task's recordings. Submission ids are never reused, so a deleted task's folder can go whole. */
export const recordingFolder = (submissionId: number) => `recordings/${submissionId}`;

/**
 * After a task or a student was deleted (rows gone with the commit, by foreign key): their
 * recordings' folders. A failure is logged; the orphan sweep of the daily job catches what is left.
 */
export async function removeRecordingFolders(storage: Storage, submissionIds: number[], log: FastifyBaseLogger): Promise<void> {
  for (const id of submissionIds) {
    if (!Number.isSafeInteger(id) || id <= 0) continue;
    await storage.removeFolder(recordingFolder(id)).catch((err: unknown) =>
      log.warn({ err, submissionId: id }, 'could not delete the recordings of a deleted task'),
    );
  }
}

export class RecordingsService {
  constructor(
    private readonly db: Db,
    private readonly storage: Storage,
    private readonly timeZone: string,
    private readonly log: FastifyBaseLogger,
    /** The storage quotas (docs/decisions/storage-quota.md); checked again with the actual size when a recording is stored. */
    private readonly quota?: StorageQuota,
  ) {}

  /**
   * Before the body is read: the task is the student's own (404), not expired (409), and has room
   * for another recording (422). Checked again in the transaction that stores it.
   */
  async assertCanUpload(student: AuthUser, submissionId: number): Promise<void> {
    const s = await findSubmissionState(this.db, submissionId, { schoolId: student.schoolId, studentId: student.id });
    if (!s) throw taskNotFound();
    if (stateStatus(s, todayInZone(this.timeZone)) === 'expired') throw conflict(recordingMessages.expired);
    if ((await repo.countForSubmission(this.db, student.schoolId, submissionId)) >= RECORDING_LIMITS.perTask) throw tooMany();
  }

  /** Stores a checked recording: the row and the file move in one transaction; consumes the staged file. */
  async create(student: AuthUser, submissionId: number, staged: StagedRecording): Promise<Recording> {
    const path = `${recordingFolder(submissionId)}/${randomBytes(16).toString('hex')}.${staged.ext}`;
    let moved = false;
    let committed = false;
    try {
      const id = await this.db.transaction(async (tx) => {
        // The task row is locked: two uploads at once cannot both be the 20th.
        const s = await findSubmissionState(tx, submissionId, { schoolId: student.schoolId, studentId: student.id }, { forUpdate: true });
        if (!s) throw taskNotFound();
        if (stateStatus(s, todayInZone(this.timeZone)) === 'expired') throw conflict(recordingMessages.expired);
        if ((await repo.countForSubmission(tx, student.schoolId, submissionId)) >= RECORDING_LIMITS.perTask) throw tooMany();
        // The actual size against the quotas, after the uploads of the school before this one committed.
        await this.quota?.assertRoom(tx, { schoolId: student.schoolId, studentId: student.id }, staged.size, { lock: true });
        // A take of a practice session names one of this student's sessions on this task; another
        // student's, another task's and an unknown id answer alike (nobody learns what exists).
        if (
          staged.practiceSessionId !== null &&
          !(await repo.isSessionOf(tx, { schoolId: student.schoolId, sessionId: staged.practiceSessionId, studentId: student.id, submissionId }))
        )
          throw invalid({ practice_session_id: recordingMessages.foreignSession });
        const newId = await repo.insertRecording(tx, {
          schoolId: student.schoolId,
          submissionId,
          studentId: student.id,
          teacherId: s.teacher_id,
          kind: staged.kind,
          mimeType: staged.mimeType,
          path,
          filename: cleanFilename(staged.filename && staged.filename !== 'blob' ? staged.filename : undefined, staged.ext, staged.mimeType).replace(/^datei\./, 'aufnahme.'),
          size: staged.size,
          durationMs: staged.durationMs,
          message: staged.message,
          practiceSessionId: staged.practiceSessionId,
        });
        // The file into place before the commit (a rename on the same disk, or the upload to the
        // bucket; a failed upload leaves no object, lib/storage-s3.ts): a crash in between
        // leaves a file without a row (the daily sweep removes it), never a row without its file.
        await this.storage.putFile(path, staged.tempFile);
        moved = true;
        return newId;
      });
      committed = true;
      return await this.get(student, id);
    } finally {
      await rm(staged.tempFile, { force: true });
      if (!committed && moved) await this.storage.remove(path).catch(() => {});
    }
  }

  async list(user: AuthUser, submissionId: number): Promise<RecordingListResponse> {
    if (!(await findSubmissionState(this.db, submissionId, taskOwnerOf(user)))) throw taskNotFound();
    return { data: await repo.findRecordings(this.db, { submissionId }, ownerOf(user)) };
  }

  async get(user: AuthUser, id: number): Promise<Recording> {
    const [r] = await repo.findRecordings(this.db, { id }, ownerOf(user));
    if (!r) throw recordingNotFound();
    return r;
  }

  /** The student deletes their own recording until it is answered (409 after); the file goes after the commit. */
  async remove(student: AuthUser, id: number): Promise<void> {
    const path = await this.db.transaction(async (tx) => {
      const r = await repo.findRecordingState(tx, id, ownerOf(student), { forUpdate: true });
      if (!r) throw recordingNotFound();
      if (r.answered_at !== null) throw conflict(recordingMessages.answered);
      // the spoken comments' clips go with it (their rows by foreign key)
      const clips = await repo.commentAudioPaths(tx, student.schoolId, id);
      await repo.deleteRecording(tx, student.schoolId, id);
      return [r.path, ...clips];
    });
    for (const p of path) await this.storage.remove(p).catch((err: unknown) => this.log.warn({ err, path: p }, 'could not delete a recording file'));
  }

  /** The teacher marks it answered; a second call changes nothing. */
  async answer(teacher: AuthUser, id: number): Promise<Recording> {
    await this.db.transaction(async (tx) => {
      if (!(await repo.findRecordingState(tx, id, ownerOf(teacher), { forUpdate: true }))) throw recordingNotFound();
      await repo.markAnswered(tx, teacher.schoolId, id);
    });
    return this.get(teacher, id);
  }

  /** The student opened the feedback: everything up to now is seen. */
  async seen(student: AuthUser, id: number): Promise<Recording> {
    await this.db.transaction(async (tx) => {
      if (!(await repo.findRecordingState(tx, id, ownerOf(student), { forUpdate: true }))) throw recordingNotFound();
      await repo.markSeen(tx, student.schoolId, id);
    });
    return this.get(student, id);
  }

  async addComment(teacher: AuthUser, recordingId: number, body: CreateCommentBody): Promise<RecordingComment> {
    const commentId = await this.db.transaction(async (tx) => {
      const r = await repo.findRecordingState(tx, recordingId, ownerOf(teacher), { forUpdate: true });
      if (!r) throw recordingNotFound();
      checkMoment(body.at_ms, r.duration_ms);
      const cid = await repo.insertComment(tx, { schoolId: teacher.schoolId, recordingId, teacherId: teacher.id, atMs: body.at_ms, text: body.text });
      await repo.touchFeedback(tx, teacher.schoolId, recordingId);
      return cid;
    });
    return (await repo.findComment(this.db, teacher.schoolId, commentId, teacher.id))!;
  }

  /**
   * The teacher's spoken comment (docs/decisions/spoken-comments-and-quick-replies.md): a checked
   * clip stored beside the take (recordings/{taskId}/c{32 hex}.{ext}) in the transaction that
   * inserts the comment, against the school's quota (a teacher has none of their own); consumes the
   * staged file. A refusal leaves neither a row nor a file.
   */
  async addVoiceComment(teacher: AuthUser, recordingId: number, staged: StagedVoiceComment): Promise<RecordingComment> {
    let path = '';
    let moved = false;
    let committed = false;
    try {
      const commentId = await this.db.transaction(async (tx) => {
        const r = await repo.findRecordingState(tx, recordingId, ownerOf(teacher), { forUpdate: true });
        if (!r) throw recordingNotFound();
        checkMoment(staged.atMs, r.duration_ms);
        await this.quota?.assertRoom(tx, { schoolId: teacher.schoolId, studentId: null }, staged.size, { lock: true });
        path = `${recordingFolder(r.submission_id)}/c${randomBytes(16).toString('hex')}.${staged.ext}`;
        const cid = await repo.insertComment(tx, {
          schoolId: teacher.schoolId,
          recordingId,
          teacherId: teacher.id,
          atMs: staged.atMs,
          text: staged.text,
          audio: { path, mimeType: staged.mimeType, size: staged.size, durationMs: staged.durationMs },
        });
        await repo.touchFeedback(tx, teacher.schoolId, recordingId);
        // into place before the commit, as a take: a crash leaves at worst a file without a row
        await this.storage.putFile(path, staged.tempFile);
        moved = true;
        return cid;
      });
      committed = true;
      return (await repo.findComment(this.db, teacher.schoolId, commentId, teacher.id))!;
    } finally {
      await rm(staged.tempFile, { force: true });
      if (!committed && moved && path) await this.storage.remove(path).catch(() => {});
    }
  }

  /** The teacher edits their own comment (404 for anyone else's); the change is new feedback. */
  async updateComment(teacher: AuthUser, id: number, body: UpdateCommentBody): Promise<RecordingComment> {
    await this.db.transaction(async (tx) => {
      const c = await repo.findOwnCommentState(tx, teacher.schoolId, id, teacher.id);
      if (!c) throw notFound(recordingMessages.commentNotFound);
      if (body.at_ms !== undefined) checkMoment(body.at_ms, c.duration_ms);
      await repo.updateComment(tx, teacher.schoolId, id, { ...(body.at_ms !== undefined ? { atMs: body.at_ms } : {}), ...(body.text !== undefined ? { text: body.text } : {}) });
      await repo.touchFeedback(tx, teacher.schoolId, c.recording_id);
    });
    return (await repo.findComment(this.db, teacher.schoolId, id, teacher.id))!;
  }

  async deleteComment(teacher: AuthUser, id: number): Promise<void> {
    const clip = await this.db.transaction(async (tx) => {
      const c = await repo.findOwnCommentState(tx, teacher.schoolId, id, teacher.id);
      if (!c) throw notFound(recordingMessages.commentNotFound);
      await repo.deleteComment(tx, teacher.schoolId, id);
      return c.audio_path;
    });
    if (clip) await this.storage.remove(clip).catch((err: unknown) => this.log.warn({ err, path: clip }, 'could not delete a spoken comment'));
  }

  async inbox(teacher: AuthUser, q: InboxQuery): Promise<InboxResponse> {
    const perPage = q.per_page ?? RECORDING_LIMITS.inboxPerPage;
    const page = q.page ?? 1;
    const found = await repo.findInbox(this.db, teacher.schoolId, teacher.id, {
      ...(q.course_id !== undefined ? { courseId: q.course_id } : {}),
      limit: perPage + 1,
      offset: (page - 1) * perPage,
    });
    return { data: found.slice(0, perPage), pagination: { current_page: page, per_page: perPage, has_more: found.length > perPage } };
  }

  async inboxCount(teacher: AuthUser, courseId: number | undefined): Promise<CountResponse> {
    return { count: await repo.countInbox(this.db, teacher.schoolId, teacher.id, courseId) };
  }

  /** How many recordings have new feedback, and where the newest lands (the take and its newest comment). */
  async newFeedbackCount(student: AuthUser, courseId: number | undefined): Promise<NewFeedbackResponse> {
    const count = await repo.countNewFeedback(this.db, student.schoolId, student.id, courseId);
    return { count, latest: count ? await repo.newFeedbackTarget(this.db, student.schoolId, student.id, courseId) : null };
  }
}

const tooMany = () => new AppError(422, RECORDING_TEXTS.tooMany, { file: [RECORDING_TEXTS.tooMany] });

function checkMoment(atMs: number | null, durationMs: number): void {
  if (atMs !== null && atMs > durationMs) throw invalid({ at_ms: recordingMessages.pastEnd(durationMs) });
}

export type RetentionResult = { deleted: number; filesRemoved: number; orphansRemoved: number; orphansMovedAside: number };

/**
 * The daily job: recordings older than `keepDays` go (rows in transactions of at most 500, then
 * their files), then files under recordings/ that no row names and that are older than an hour
 * (a crash between a commit and the file's removal, or before an upload's commit). Safe to run
 * twice, and at the same time as uploads (a fresh upload's file is younger than an hour). When the
 * database knows no recording at all, orphan files are moved aside to DATA_DIR/media-orphans
 * instead of deleted: a wrong DATABASE_URL must not cost a school its recordings.
 */
export async function runRetention(db: Db, storage: Storage, keepDays: number, log: FastifyBaseLogger, now = new Date()): Promise<RetentionResult> {
  const result: RetentionResult = { deleted: 0, filesRemoved: 0, orphansRemoved: 0, orphansMovedAside: 0 };
  const cutoff = new Date(now.getTime() - keepDays * 86_400_000);
  for (;;) {
    const { deleted, paths } = await db.transaction((tx) => repo.deleteOlderThan(tx, cutoff, 500));
    result.deleted += deleted;
    for (const p of paths) {
      try {
        await storage.remove(p);
        result.filesRemoved++;
      } catch (err) {
        log.warn({ err, path: p }, 'could not delete an expired recording file');
      }
    }
    if (deleted < 500) break;
  }

  await storage.removeEmptyFolders('recordings');
  const candidates: string[] = [];
  for await (const f of storage.list('recordings')) {
    if (/^recordings\/[^/]+\/[^/]+$/.test(f.path) && now.getTime() - f.mtime.getTime() > 60 * 60 * 1000) candidates.push(f.path);
  }
  if (!candidates.length) return result;
  const known = await repo.knownPaths(db, candidates);
  const orphans = candidates.filter((p) => !known.has(p));
  if (!orphans.length) return result;
  const aside = !(await repo.anyRecording(db));
  for (const p of orphans) {
    try {
      if (aside) {
        await storage.moveAside(p);
        result.orphansMovedAside++;
      } else {
        await storage.remove(p);
        result.orphansRemoved++;
      }
    } catch (err) {
      log.warn({ err, path: p }, 'could not remove an orphan recording file');
    }
  }
  if (aside) log.warn({ count: orphans.length }, 'recording files without any recording in the database moved to media-orphans');
  return result;
}
