import { sql, type SQL } from 'drizzle-orm';
import { rows, type DbOrTx } from '../../db/client';
import type { CommentAudio, FeedbackTarget, InboxItem, Recording, RecordingComment, RecordingKind, RecordingMimeType } from '@contract/recordings';

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

/**
 * Whose recordings a caller may see: a student their own, a teacher their students'; always inside
 * the caller's school (every statement of this file names `school_id`, docs/decisions/schools-and-roles.md).
 */
export type RecordingOwner = ({ studentId: number } | { teacherId: number }) & { schoolId: number };

function ownerSql(owner: RecordingOwner): SQL {
  const who = 'studentId' in owner ? sql`r.student_id = ${owner.studentId}` : sql`r.teacher_id = ${owner.teacherId}`;
  return sql`r.school_id = ${owner.schoolId} and ${who}`;
}

/** "Neues Feedback": answered or commented after the student's last look. */
export const NEW_FEEDBACK_SQL = sql`(r.feedback_at is not null and (r.seen_at is null or r.feedback_at > r.seen_at))`;

type RecordingRow = {
  id: number;
  submission_id: number;
  student_id: number;
  student_name: string;
  exercise_title: string;
  kind: RecordingKind;
  mime_type: RecordingMimeType;
  size: number | string;
  duration_ms: number;
  path: string;
  message: string | null;
  practice_session_id: number | null;
  created_at: Date | string;
  answered_at: Date | string | null;
  seen_at: Date | string | null;
  new_feedback: boolean;
  comments: unknown;
};

type CommentJson = {
  id: number;
  recording_id: number;
  teacher_id: number;
  teacher_name: string;
  at_ms: number | null;
  text: string;
  audio_path: string | null;
  audio_mime_type: string | null;
  audio_size: number | string | null;
  audio_duration_ms: number | null;
  created_at: string;
  updated_at: string;
};

/** The columns of a comment as the JSON of findRecordings and the row of findComment name them. */
const COMMENT_AUDIO_JSON = sql`'audio_path', c.audio_path, 'audio_mime_type', c.audio_mime_type, 'audio_size', c.audio_size, 'audio_duration_ms', c.audio_duration_ms`;

function toComment(c: CommentJson): RecordingComment {
  return {
    id: c.id,
    recording_id: c.recording_id,
    teacher: { id: c.teacher_id, name: c.teacher_name },
    at_ms: c.at_ms,
    text: c.text,
    audio:
      c.audio_path === null
        ? null
        : { path: c.audio_path, mime_type: c.audio_mime_type as CommentAudio['mime_type'], size: Number(c.audio_size ?? 0), duration_ms: c.audio_duration_ms ?? 0 },
    created_at: iso(c.created_at)!,
    updated_at: iso(c.updated_at)!,
  };
}

function toRecording(r: RecordingRow): Recording {
  const comments = (typeof r.comments === 'string' ? JSON.parse(r.comments) : r.comments) as CommentJson[] | null;
  return {
    id: r.id,
    submission_id: r.submission_id,
    student: { id: r.student_id, name: r.student_name },
    exercise_title: r.exercise_title,
    kind: r.kind,
    mime_type: r.mime_type,
    size: Number(r.size),
    duration_ms: r.duration_ms,
    path: r.path,
    message: r.message,
    practice_session_id: r.practice_session_id,
    created_at: iso(r.created_at)!,
    answered_at: iso(r.answered_at),
    seen_at: iso(r.seen_at),
    new_feedback: r.new_feedback === true,
    comments: (comments ?? []).map(toComment),
  };
}

/** Recordings with their comments (ordered by at_ms, nulls first), newest first (at most `limit`); one query. */
export async function findRecordings(db: DbOrTx, where: { submissionId?: number; id?: number; limit?: number }, owner: RecordingOwner): Promise<Recording[]> {
  const conds: SQL[] = [ownerSql(owner)];
  if (where.submissionId !== undefined) conds.push(sql`r.submission_id = ${where.submissionId}`);
  if (where.id !== undefined) conds.push(sql`r.id = ${where.id}`);
  const result = await rows<RecordingRow>(
    db,
    sql`select r.id, r.submission_id, r.student_id, u.name as student_name, s.exercise_title, r.kind, r.mime_type, r.size,
        r.duration_ms, r.path, r.message, r.practice_session_id, r.created_at, r.answered_at, r.seen_at, ${NEW_FEEDBACK_SQL} as new_feedback,
        coalesce((select json_agg(json_build_object('id', c.id, 'recording_id', c.recording_id, 'teacher_id', c.teacher_id,
            'teacher_name', t.name, 'at_ms', c.at_ms, 'text', c.text, ${COMMENT_AUDIO_JSON}, 'created_at', c.created_at, 'updated_at', c.updated_at)
            order by c.at_ms asc nulls first, c.created_at, c.id)
          from recording_comments c join users t on t.id = c.teacher_id and t.school_id = c.school_id
          where c.recording_id = r.id and c.school_id = r.school_id), '[]'::json) as comments
      from recordings r
      join submissions s on s.id = r.submission_id and s.school_id = r.school_id
      join users u on u.id = r.student_id and u.school_id = r.school_id
      where ${sql.join(conds, sql` and `)}
      order by r.created_at desc, r.id desc${where.limit !== undefined ? sql` limit ${where.limit}` : sql``}`,
  );
  return result.map(toRecording);
}

export type RecordingState = {
  id: number;
  submission_id: number;
  student_id: number;
  teacher_id: number;
  path: string;
  duration_ms: number;
  answered_at: Date | string | null;
};

/** The fields that decide what may be done with a recording, when `owner` may see it; `forUpdate` locks it. */
export async function findRecordingState(db: DbOrTx, id: number, owner: RecordingOwner, opts: { forUpdate?: boolean } = {}): Promise<RecordingState | null> {
  const [r] = await rows<RecordingState>(
    db,
    sql`select r.id, r.submission_id, r.student_id, r.teacher_id, r.path, r.duration_ms, r.answered_at
      from recordings r where r.id = ${id} and ${ownerSql(owner)} ${opts.forUpdate ? sql`for update` : sql``}`,
  );
  return r ?? null;
}

export async function countForSubmission(db: DbOrTx, schoolId: number, submissionId: number): Promise<number> {
  const [r] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from recordings where submission_id = ${submissionId} and school_id = ${schoolId}`,
  );
  return Number(r?.n ?? 0);
}

export type NewRecording = {
  schoolId: number;
  submissionId: number;
  studentId: number;
  teacherId: number;
  kind: RecordingKind;
  mimeType: RecordingMimeType;
  path: string;
  filename: string;
  size: number;
  durationMs: number;
  message: string | null;
  /** The practice session the take recorded, already checked with `isSessionOf`. */
  practiceSessionId: number | null;
};

/** Whether a practice session is of this student and this task (in the caller's school). */
export async function isSessionOf(db: DbOrTx, o: { schoolId: number; sessionId: number; studentId: number; submissionId: number }): Promise<boolean> {
  const found = await rows<{ id: number }>(
    db,
    sql`select id from practice_sessions
      where id = ${o.sessionId} and school_id = ${o.schoolId} and student_id = ${o.studentId} and submission_id = ${o.submissionId}`,
  );
  return found.length === 1;
}

export async function insertRecording(db: DbOrTx, r: NewRecording): Promise<number> {
  const [row] = await rows<{ id: number }>(
    db,
    sql`insert into recordings (school_id, submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms, message, practice_session_id)
      values (${r.schoolId}, ${r.submissionId}, ${r.studentId}, ${r.teacherId}, ${r.kind}, ${r.mimeType}, ${r.path}, ${r.filename}, ${r.size}, ${r.durationMs}, ${r.message}, ${r.practiceSessionId})
      returning id`,
  );
  return row!.id;
}

export async function deleteRecording(db: DbOrTx, schoolId: number, id: number): Promise<void> {
  await db.execute(sql`delete from recordings where id = ${id} and school_id = ${schoolId}`);
}

/** Marks answered (once: a second call keeps the first time); the answer is new feedback for the student. */
export async function markAnswered(db: DbOrTx, schoolId: number, id: number): Promise<void> {
  await db.execute(
    sql`update recordings set answered_at = now(), feedback_at = greatest(feedback_at, now())
        where id = ${id} and school_id = ${schoolId} and answered_at is null`,
  );
}

export async function markSeen(db: DbOrTx, schoolId: number, id: number): Promise<void> {
  await db.execute(sql`update recordings set seen_at = greatest(now(), feedback_at) where id = ${id} and school_id = ${schoolId}`);
}

export async function touchFeedback(db: DbOrTx, schoolId: number, recordingId: number): Promise<void> {
  await db.execute(sql`update recordings set feedback_at = now() where id = ${recordingId} and school_id = ${schoolId}`);
}

export async function insertComment(
  db: DbOrTx,
  c: {
    schoolId: number;
    recordingId: number;
    teacherId: number;
    atMs: number | null;
    text: string;
    audio?: { path: string; mimeType: string; size: number; durationMs: number };
  },
): Promise<number> {
  const a = c.audio;
  const [row] = await rows<{ id: number }>(
    db,
    sql`insert into recording_comments (school_id, recording_id, teacher_id, at_ms, text, audio_path, audio_mime_type, audio_size, audio_duration_ms)
        values (${c.schoolId}, ${c.recordingId}, ${c.teacherId}, ${c.atMs}, ${c.text},
          ${a?.path ?? null}, ${a?.mimeType ?? null}, ${a?.size ?? null}, ${a?.durationMs ?? null}) returning id`,
  );
  return row!.id;
}

/** The clips of a recording's spoken comments (their files go when the recording goes). */
export async function commentAudioPaths(db: DbOrTx, schoolId: number, recordingId: number): Promise<string[]> {
  const result = await rows<{ path: string }>(
    db,
    sql`select audio_path as path from recording_comments where recording_id = ${recordingId} and school_id = ${schoolId} and audio_path is not null`,
  );
  return result.map((r) => r.path);
}

/**
 * Where the student's "Neues Feedback" lands: of the recordings with new feedback (optionally of
 * one course's tasks), the one with the latest feedback, and its newest comment (written or edited
 * last) with that comment's moment; null when there is none.
 */
export async function newFeedbackTarget(db: DbOrTx, schoolId: number, studentId: number, courseId?: number): Promise<FeedbackTarget | null> {
  const [r] = await rows<FeedbackTarget>(
    db,
    sql`select r.id as recording_id, r.submission_id, c.id as comment_id, c.at_ms
      from recordings r
      ${courseId !== undefined ? sql`join submissions s on s.id = r.submission_id and s.school_id = r.school_id and s.course_id = ${courseId}` : sql``}
      left join lateral (select c.id, c.at_ms from recording_comments c where c.recording_id = r.id and c.school_id = r.school_id
                         order by c.updated_at desc, c.id desc limit 1) c on true
      where r.school_id = ${schoolId} and r.student_id = ${studentId} and ${NEW_FEEDBACK_SQL}
      order by r.feedback_at desc, r.id desc limit 1`,
  );
  return r ? { recording_id: r.recording_id, submission_id: r.submission_id, comment_id: r.comment_id ?? null, at_ms: r.at_ms ?? null } : null;
}

export async function findComment(db: DbOrTx, schoolId: number, id: number, teacherId: number): Promise<RecordingComment | null> {
  const [c] = await rows<CommentJson>(
    db,
    sql`select c.id, c.recording_id, c.teacher_id, t.name as teacher_name, c.at_ms, c.text, c.audio_path, c.audio_mime_type, c.audio_size,
        c.audio_duration_ms, c.created_at, c.updated_at
      from recording_comments c join users t on t.id = c.teacher_id and t.school_id = c.school_id
      where c.id = ${id} and c.school_id = ${schoolId} and c.teacher_id = ${teacherId}`,
  );
  return c ? toComment(c) : null;
}

/** A comment of this teacher on a recording of their own student, with the recording's length; locks the comment. */
export async function findOwnCommentState(
  db: DbOrTx,
  schoolId: number,
  id: number,
  teacherId: number,
): Promise<{ id: number; recording_id: number; duration_ms: number; audio_path: string | null } | null> {
  const [c] = await rows<{ id: number; recording_id: number; duration_ms: number; audio_path: string | null }>(
    db,
    sql`select c.id, c.recording_id, r.duration_ms, c.audio_path from recording_comments c
      join recordings r on r.id = c.recording_id and r.school_id = c.school_id
      where c.id = ${id} and c.school_id = ${schoolId} and c.teacher_id = ${teacherId} and r.teacher_id = ${teacherId} for update of c`,
  );
  return c ?? null;
}

export async function updateComment(db: DbOrTx, schoolId: number, id: number, patch: { atMs?: number | null; text?: string }): Promise<void> {
  const sets: SQL[] = [sql`updated_at = now()`];
  if (patch.atMs !== undefined) sets.push(sql`at_ms = ${patch.atMs}`);
  if (patch.text !== undefined) sets.push(sql`text = ${patch.text}`);
  await db.execute(sql`update recording_comments set ${sql.join(sets, sql`, `)} where id = ${id} and school_id = ${schoolId}`);
}

export async function deleteComment(db: DbOrTx, schoolId: number, id: number): Promise<void> {
  await db.execute(sql`delete from recording_comments where id = ${id} and school_id = ${schoolId}`);
}

/**
 * One page of the teacher's unanswered recordings, oldest first: one query, read along the
 * partial index recordings_inbox_idx (teacher_id, created_at, id) where answered_at is null.
 * The rows come out of the database in the answer's own shape (the student as a JSON object, the
 * time as ISO text, bigint and counts as numbers by the drivers' parsers), so no row is rebuilt
 * here: that copy, the time parsed into a Date and written out again, was most of what the page
 * cost beyond its SQL (docs/decisions/bench-results.md, 2026-12-07).
 */
export async function findInbox(
  db: DbOrTx,
  schoolId: number,
  teacherId: number,
  o: { courseId?: number; limit: number; offset: number },
): Promise<InboxItem[]> {
  return rows<InboxItem>(
    db,
    sql`select r.id, r.submission_id, json_build_object('id', u.id, 'name', u.name) as student, s.exercise_title, s.course_id,
        s.due_date::text as due_date, r.kind, r.mime_type, r.duration_ms, r.size, r.path, r.message,
        to_char(r.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
        (select count(*)::int from recording_comments c where c.recording_id = r.id and c.school_id = r.school_id) as comments_count
      from recordings r
      join submissions s on s.id = r.submission_id and s.school_id = r.school_id
      join users u on u.id = r.student_id and u.school_id = r.school_id
      where r.school_id = ${schoolId} and r.teacher_id = ${teacherId} and r.answered_at is null
        ${o.courseId !== undefined ? sql`and s.course_id = ${o.courseId}` : sql``}
      order by r.created_at asc, r.id asc
      limit ${o.limit} offset ${o.offset}`,
  );
}

export async function countInbox(db: DbOrTx, schoolId: number, teacherId: number, courseId?: number): Promise<number> {
  const [r] = await rows<{ n: number }>(
    db,
    courseId === undefined
      ? sql`select count(*)::int as n from recordings r where r.school_id = ${schoolId} and r.teacher_id = ${teacherId} and r.answered_at is null`
      : sql`select count(*)::int as n from recordings r join submissions s on s.id = r.submission_id and s.school_id = r.school_id
          where r.school_id = ${schoolId} and r.teacher_id = ${teacherId} and r.answered_at is null and s.course_id = ${courseId}`,
  );
  return Number(r?.n ?? 0);
}

/** The student's recordings with new feedback (optionally of one course's tasks). */
export async function countNewFeedback(db: DbOrTx, schoolId: number, studentId: number, courseId?: number): Promise<number> {
  const [r] = await rows<{ n: number }>(
    db,
    sql`select count(*)::int as n from recordings r
      ${courseId !== undefined ? sql`join submissions s on s.id = r.submission_id and s.school_id = r.school_id and s.course_id = ${courseId}` : sql``}
      where r.school_id = ${schoolId} and r.student_id = ${studentId} and ${NEW_FEEDBACK_SQL}`,
  );
  return Number(r?.n ?? 0);
}

/**
 * Deletes the recordings created before `cutoff` (at most `limit`), answering their paths: the daily
 * retention job, across all schools on purpose (one rule for the whole installation).
 */
export async function deleteOlderThan(db: DbOrTx, cutoff: Date, limit: number): Promise<{ deleted: number; paths: string[] }> {
  const found = await rows<{ id: number }>(
    db,
    sql`select id from recordings where created_at < ${cutoff.toISOString()}::timestamptz order by created_at limit ${limit} for update`,
  );
  if (!found.length) return { deleted: 0, paths: [] };
  const ids = sql.join(found.map((r) => sql`${r.id}`), sql`, `);
  // the spoken comments' clips go with their recording (the rows by foreign key)
  const clips = await rows<{ path: string }>(db, sql`select audio_path as path from recording_comments where audio_path is not null and recording_id in (${ids})`);
  const result = await rows<{ path: string }>(db, sql`delete from recordings where id in (${ids}) returning path`);
  return { deleted: result.length, paths: [...result.map((r) => r.path), ...clips.map((r) => r.path)] };
}

/** Which of these paths a recording row names, in any school (the daily sweep of the media store; paths are unique). */
export async function knownPaths(db: DbOrTx, paths: string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (let i = 0; i < paths.length; i += 500) {
    const chunk = paths.slice(i, i + 500);
    const list = sql.join(chunk.map((p) => sql`${p}`), sql`, `);
    const result = await rows<{ path: string }>(
      db,
      sql`select path from recordings where path in (${list}) union all select audio_path as path from recording_comments where audio_path in (${list})`,
    );
    for (const r of result) known.add(r.path);
  }
  return known;
}

/** Whether the database knows any recording at all, in any school (the sweep's guard against a wrong DATABASE_URL). */
export async function anyRecording(db: DbOrTx): Promise<boolean> {
  const r = await rows<{ one: number }>(db, sql`select 1 as one from recordings limit 1`);
  return r.length > 0;
}

/**
 * Bytes per teacher: recordings of their students and their exercises' media. The operator's CLI
 * (`space`), across all schools on purpose; each teacher's rows are joined inside their school.
 */
export async function spacePerTeacher(db: DbOrTx): Promise<Array<{ teacher_id: number; name: string; email: string; recordings: number; recording_bytes: number; media_bytes: number }>> {
  const result = await rows<{ teacher_id: number; name: string; email: string; recordings: number; recording_bytes: string | number; media_bytes: string | number }>(
    db,
    sql`select t.id as teacher_id, t.name, t.email,
        coalesce((select count(*)::int from recordings r where r.teacher_id = t.id and r.school_id = t.school_id), 0) as recordings,
        coalesce((select sum(r.size) from recordings r where r.teacher_id = t.id and r.school_id = t.school_id), 0) as recording_bytes,
        coalesce((select sum(m.size) from media_files m join exercises e on e.id = m.exercise_id and e.school_id = m.school_id
                  where e.teacher_id = t.id and e.school_id = t.school_id), 0) as media_bytes
      from users t where t.role = 'teacher' order by t.name, t.id`,
  );
  return result.map((r) => ({ ...r, recordings: Number(r.recordings), recording_bytes: Number(r.recording_bytes), media_bytes: Number(r.media_bytes) }));
}

/** The submission ids of a student (their recordings' folders). */
export async function submissionIdsOfStudent(db: DbOrTx, schoolId: number, studentId: number): Promise<number[]> {
  const result = await rows<{ id: number }>(db, sql`select id from submissions where student_id = ${studentId} and school_id = ${schoolId}`);
  return result.map((r) => r.id);
}
