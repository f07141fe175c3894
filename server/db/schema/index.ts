import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  bigint,
  bigserial,
  customType,
  pgSequence,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

/**
 * The school a row belongs to (docs/decisions/schools-and-roles.md): the unit of tenancy and
 * the shard key. The app's inserts name it; an insert that leaves it out gets the parent row's school
 * from the trigger `uk_fill_school_id` (migration 0009), which also refuses a row whose school differs
 * from its parent's.
 */
const schoolId = () =>
  integer('school_id')
    .notNull()
    .references((): AnyPgColumn => schools.id, { onDelete: 'cascade' })
    .$defaultFn(() => sql`null`);

/** A music school: teachers, students, guardians, courses and exercises belong to exactly one. */
export const schools = pgTable('schools', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  /** The school's own storage quotas in bytes; null: the server's default (docs/decisions/storage-quota.md). */
  storageQuotaBytes: bigint('storage_quota_bytes', { mode: 'number' }),
  studentQuotaBytes: bigint('student_quota_bytes', { mode: 'number' }),
  /** How many days messages are kept (docs/decisions/messages.md). */
  messageRetentionDays: integer('message_retention_days').notNull().default(365),
});

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();

/**
 * Administrators, teachers, students and guardians of a school. A student belongs to one teacher
 * (teacher_id); a guardian follows the students of guardian_links. A deactivated account
 * (deactivated_at) cannot sign in, and its tokens are deleted.
 */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    schoolId: schoolId(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    role: text('role', { enum: ['admin', 'teacher', 'student', 'guardian'] }).notNull(),
    passwordHash: text('password_hash').notNull(),
    phone: text('phone'),
    notes: text('notes'),
    teacherId: integer('teacher_id').references((): AnyPgColumn => users.id, { onDelete: 'cascade' }),
    deactivatedAt: timestamp('deactivated_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    index('users_teacher_created_idx').on(t.teacherId, t.createdAt),
    index('users_teacher_name_idx').on(t.teacherId, t.name),
    index('users_school_role_name_idx').on(t.schoolId, t.role, t.name),
    check('users_role_check', sql`${t.role} in ('admin', 'teacher', 'student', 'guardian')`),
    check('users_student_has_teacher', sql`(${t.role} = 'student') = (${t.teacherId} is not null)`),
  ],
);

/** Opaque bearer tokens; only the SHA-256 of the token is stored. */
export const tokens = pgTable(
  'tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tokens_hash_key').on(t.tokenHash), index('tokens_user_idx').on(t.userId)],
);

export const courses = pgTable(
  'courses',
  {
    id: serial('id').primaryKey(),
    schoolId: schoolId(),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('courses_teacher_name_idx').on(t.teacherId, t.name)],
);

export const enrolments = pgTable(
  'enrolments',
  {
    schoolId: schoolId(),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.courseId, t.studentId] }), index('enrolments_student_idx').on(t.studentId)],
);

/** Exercise templates. Deleting one only sets deleted_at, so tasks keep their text and media. */
export const exercises = pgTable(
  'exercises',
  {
    id: serial('id').primaryKey(),
    schoolId: schoolId(),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    description: text('description'),
    category: text('category'),
    difficulty: text('difficulty', { enum: ['leicht', 'mittel', 'fortgeschritten'] }),
    target: text('target'),
    estimatedMinutes: integer('estimated_minutes'),
    tags: jsonb('tags').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    priority: smallint('priority').notNull().default(2),
    language: text('language').notNull().default('de'),
    // Practice-tool settings (contract/exercise-settings.ts), all optional.
    tempoBpm: smallint('tempo_bpm'),
    // The note value the tempo counts; null = the usul's or meter's written unit (docs/decisions/exercise-settings.md).
    tempoUnit: text('tempo_unit', { enum: ['half', 'quarter', 'dotted-quarter', 'eighth', 'sixteenth'] }),
    meter: text('meter'),
    meterGrouping: text('meter_grouping'),
    usul: text('usul'),
    usulPattern: jsonb('usul_pattern').$type<Array<'dum' | 'tek' | 'rest'>>(),
    makam: text('makam'),
    durak: text('durak'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('exercises_teacher_live_idx').on(t.teacherId, t.createdAt).where(sql`${t.deletedAt} is null`),
    check('exercises_priority_check', sql`${t.priority} between 1 and 5`),
    check('exercises_minutes_check', sql`${t.estimatedMinutes} is null or ${t.estimatedMinutes} >= 1`),
    check('exercises_tempo_check', sql`${t.tempoBpm} is null or ${t.tempoBpm} between 20 and 300`),
    check('exercises_tempo_unit_check', sql`${t.tempoUnit} is null or ${t.tempoUnit} in ('half', 'quarter', 'dotted-quarter', 'eighth', 'sixteenth')`),
  ],
);

export const exerciseCourses = pgTable(
  'exercise_courses',
  {
    schoolId: schoolId(),
    exerciseId: integer('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    courseId: integer('course_id')
      .notNull()
      .references(() => courses.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.exerciseId, t.courseId] }), index('exercise_courses_course_idx').on(t.courseId)],
);

export const mediaFiles = pgTable(
  'media_files',
  {
    id: serial('id').primaryKey(),
    schoolId: schoolId(),
    exerciseId: integer('exercise_id')
      .notNull()
      .references(() => exercises.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['image', 'pdf', 'video'] }).notNull(),
    path: text('path').notNull(),
    filename: text('filename').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    mimeType: text('mime_type').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('media_files_path_key').on(t.path), index('media_files_exercise_idx').on(t.exerciseId)],
);

/** A task: one exercise assigned to one student for one due date. */
export const submissions = pgTable(
  'submissions',
  {
    id: serial('id').primaryKey(),
    schoolId: schoolId(),
    studentId: integer('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    exerciseId: integer('exercise_id').references(() => exercises.id, { onDelete: 'set null' }),
    exerciseTitle: text('exercise_title').notNull(),
    courseId: integer('course_id').references(() => courses.id, { onDelete: 'set null' }),
    seriesId: uuid('series_id').notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    expirationDate: date('expiration_date', { mode: 'string' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    teacherNote: text('teacher_note'),
    teacherFeedback: text('teacher_feedback'),
    accuracyScore: doublePrecision('accuracy_score'),
    timeSpentMinutes: doublePrecision('time_spent_minutes').notNull().default(0),
    competencyLevel: text('competency_level', { enum: ['beginner', 'intermediate', 'advanced', 'expert'] }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('submissions_student_due_idx').on(t.studentId, t.dueDate),
    index('submissions_teacher_due_idx').on(t.teacherId, t.dueDate),
    index('submissions_course_due_idx').on(t.courseId, t.dueDate),
    index('submissions_series_idx').on(t.seriesId, t.dueDate),
    index('submissions_exercise_idx').on(t.exerciseId),
    index('submissions_student_completed_idx').on(t.studentId, t.completedAt),
    index('submissions_school_completed_idx').on(t.schoolId, t.completedAt),
    uniqueIndex('submissions_series_student_due_key').on(t.seriesId, t.studentId, t.dueDate),
    check('submissions_accuracy_check', sql`${t.accuracyScore} is null or (${t.accuracyScore} >= 0 and ${t.accuracyScore} <= 100)`),
    check('submissions_expiry_check', sql`${t.expirationDate} is null or ${t.expirationDate} >= ${t.dueDate}`),
  ],
);

/** A timed practice session on a task. At most one running (ended_at null) per task. */
export const practiceSessions = pgTable(
  'practice_sessions',
  {
    id: serial('id').primaryKey(),
    schoolId: schoolId(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    startedAt: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
    durationMinutes: doublePrecision('duration_minutes'),
    /** The tempo the student reached (the metronome's last tempo), when the stop sent one. */
    tempoBpm: smallint('tempo_bpm'),
    /** Timed on the student's device without a connection and sent later (POST …/practice-sessions/offline). */
    recordedOffline: boolean('recorded_offline').notNull().default(false),
  },
  (t) => [
    uniqueIndex('practice_sessions_one_running_key').on(t.submissionId).where(sql`${t.endedAt} is null`),
    index('practice_sessions_submission_idx').on(t.submissionId, t.startedAt),
    index('practice_sessions_student_started_idx').on(t.studentId, t.startedAt),
    index('practice_sessions_school_started_idx').on(t.schoolId, t.startedAt),
    check('practice_sessions_duration_check', sql`${t.durationMinutes} is null or (${t.durationMinutes} >= 0 and ${t.durationMinutes} <= 180)`),
    check('practice_sessions_tempo_check', sql`${t.tempoBpm} is null or ${t.tempoBpm} between 20 and 300`),
  ],
);

/**
 * The first answer of a write sent with an `Idempotency-Key` (server/lib/idempotency.ts), kept 24
 * hours per user: a repeat gets it again instead of running the write twice. `status` is null
 * while the first request still runs (a reservation). `headers` also keeps the request's
 * fingerprint under `:fingerprint` (never replayed): the same key with another body is refused.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    status: smallint('status'),
    body: text('body'),
    headers: jsonb('headers').$type<Record<string, string>>(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

export const schema = { schools, users, tokens, courses, enrolments, exercises, exerciseCourses, mediaFiles, submissions, practiceSessions };

/**
 * A recording a student sent for a task (shared/RECORDINGS.md). `teacher_id` is the task's teacher,
 * copied so that the teacher's inbox is one indexed query; `feedback_at` is the latest answer or
 * comment, so "Neues Feedback" is `feedback_at > seen_at` without looking at the comments.
 */
export const recordings = pgTable(
  'recordings',
  {
    id: serial('id').primaryKey(),
    schoolId: schoolId(),
    submissionId: integer('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['audio', 'video'] }).notNull(),
    mimeType: text('mime_type').notNull(),
    path: text('path').notNull(),
    filename: text('filename').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    durationMs: integer('duration_ms').notNull(),
    message: text('message'),
    /**
     * The practice session this take recorded ('Diesen Durchgang aufnehmen'): of the same student
     * and task, checked on upload; null for a take recorded outside a session. A deleted session
     * leaves the take.
     */
    practiceSessionId: integer('practice_session_id').references(() => practiceSessions.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    answeredAt: timestamp('answered_at', { withTimezone: true, mode: 'date' }),
    seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }),
    feedbackAt: timestamp('feedback_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('recordings_path_key').on(t.path),
    index('recordings_submission_idx').on(t.submissionId, t.createdAt),
    index('recordings_student_idx').on(t.studentId, t.createdAt),
    index('recordings_inbox_idx').on(t.teacherId, t.createdAt, t.id).where(sql`${t.answeredAt} is null`),
    index('recordings_created_idx').on(t.createdAt),
    index('recordings_practice_session_idx').on(t.practiceSessionId),
    check('recordings_kind_check', sql`${t.kind} in ('audio', 'video')`),
    check('recordings_numbers_check', sql`${t.size} >= 0 and ${t.durationMs} >= 0`),
  ],
);

/** A teacher's comment on a recording, at a moment (`at_ms`) or general (null). */
export const recordingComments = pgTable(
  'recording_comments',
  {
    id: serial('id').primaryKey(),
    schoolId: schoolId(),
    recordingId: integer('recording_id')
      .notNull()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    atMs: integer('at_ms'),
    /** Empty only for a spoken comment (audio_path set). */
    text: text('text').notNull(),
    /** A spoken comment's clip (docs/decisions/spoken-comments-and-quick-replies.md): recordings/{taskId}/c{32 hex}.{ext}. */
    audioPath: text('audio_path'),
    audioMimeType: text('audio_mime_type'),
    audioSize: bigint('audio_size', { mode: 'number' }),
    audioDurationMs: integer('audio_duration_ms'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('recording_comments_recording_idx').on(t.recordingId, t.atMs),
    uniqueIndex('recording_comments_audio_path_key').on(t.audioPath).where(sql`${t.audioPath} is not null`),
    check('recording_comments_at_check', sql`${t.atMs} is null or ${t.atMs} >= 0`),
    check('recording_comments_text_check', sql`char_length(${t.text}) <= 2000 and (char_length(${t.text}) >= 1 or ${t.audioPath} is not null)`),
    check(
      'recording_comments_audio_check',
      sql`(${t.audioPath} is null and ${t.audioMimeType} is null and ${t.audioSize} is null and ${t.audioDurationMs} is null) or (${t.audioPath} is not null and ${t.audioMimeType} is not null and ${t.audioSize} >= 0 and ${t.audioDurationMs} >= 0)`,
    ),
  ],
);

/** Raw bytes (PostgreSQL bytea). The app writes and reads them as base64 in SQL (decode/encode), so no driver's binary handling is involved. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => 'bytea' });

/**
 * What the app heard in a take (docs/decisions/listening.md): the pitch track and onsets that a
 * browser computed from the take's audio (the encoded track of contract/listening/encoding.ts, at most
 * 512 KiB), and the report the server computed itself from that track and the exercise's settings
 * (`settings_key`: those settings and the analysis version; when either changes, the next read
 * computes the report again). One per recording; it goes with the take (cascade).
 */
export const recordingAnalyses = pgTable(
  'recording_analyses',
  {
    recordingId: integer('recording_id')
      .primaryKey()
      .references(() => recordings.id, { onDelete: 'cascade' }),
    schoolId: schoolId(),
    track: bytea('track').notNull(),
    trackVersion: smallint('track_version').notNull(),
    /** Whose device computed the track: the student's (right after recording) or the teacher's (on first view). */
    computedBy: text('computed_by', { enum: ['student', 'teacher'] }).notNull(),
    computedAt: timestamp('computed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    report: jsonb('report').notNull(),
    analysisVersion: smallint('analysis_version').notNull(),
    settingsKey: text('settings_key').notNull(),
    reportAt: timestamp('report_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    index('recording_analyses_school_idx').on(t.schoolId),
    check('recording_analyses_track_check', sql`octet_length(${t.track}) between 14 and 524288`),
    check('recording_analyses_computed_by_check', sql`${t.computedBy} in ('student', 'teacher')`),
  ],
);

/** A teacher's saved reply texts for comments (docs/decisions/spoken-comments-and-quick-replies.md): only theirs, at most 50 of 500 characters. */
export const quickReplies = pgTable(
  'quick_replies',
  {
    id: serial('id').primaryKey(),
    schoolId: schoolId(),
    teacherId: integer('teacher_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('quick_replies_teacher_idx').on(t.teacherId, t.id), check('quick_replies_text_check', sql`char_length(${t.text}) between 1 and 500`)],
);

/**
 * Failed sign-ins, counted across every server process on the database (server/lib/rate-limit.ts):
 * one row per failure and key (`e|{address}|{email}`, `a|{address}`), kept 15 minutes.
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    failedAt: timestamp('failed_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('sign_in_failures_key_idx').on(t.key, t.failedAt), index('sign_in_failures_failed_idx').on(t.failedAt)],
);

/**
 * "Passwort vergessen?" links (docs/decisions/password-reset.md): a one-time secret per request,
 * stored only as its SHA-256, valid PASSWORD_RESET_VALID_MINUTES, used once. A newer request
 * replaces the user's older open links; the row goes with the account (cascade).
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('password_resets_token_hash_key').on(t.tokenHash), index('password_resets_user_idx').on(t.userId)],
);

/**
 * What a user wants to be told outside the app (docs/decisions/reminders.md): a student's daily
 * practice reminder (time of day in the school's time zone, 'HH:MM', null: none), a parent's weekly
 * note, and the language of the mails (the page's language when it was set).
 */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    reminderTime: text('reminder_time'),
    /** A parent's weekly note about their children (Sunday evening), opted in. */
    weeklyNote: boolean('weekly_note').notNull().default(false),
    /** A daily digest of new feedback (a student's own takes, a parent's children's), opted in. */
    feedbackDigest: boolean('feedback_digest').notNull().default(false),
    language: text('language', { enum: ['de', 'tr'] })
      .notNull()
      .default('de'),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('notification_settings_reminder_idx').on(t.reminderTime),
    check('notification_settings_time_check', sql`${t.reminderTime} is null or ${t.reminderTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`),
    check('notification_settings_language_check', sql`${t.language} in ('de', 'tr')`),
  ],
);

/** One row per reminder sent (or being sent): at most one of a kind per user and school day, across every process. */
export const remindersSent = pgTable(
  'reminders_sent',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    localDate: date('local_date', { mode: 'string' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind, t.localDate] }), index('reminders_sent_date_idx').on(t.localDate)],
);

/**
 * Messages (docs/decisions/messages.md): one conversation per student (student_id) between the
 * student, their teacher and their parents. A lesson note is a kind of message; a pinned one stays
 * on top. The author's account may be erased (author_id null); the student's erasure takes the
 * whole conversation.
 */
export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    schoolId: schoolId(),
    studentId: integer('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    authorId: integer('author_id').references(() => users.id, { onDelete: 'set null' }),
    authorRole: text('author_role').notNull(),
    kind: text('kind').notNull().default('message'),
    body: text('body').notNull(),
    linkTaskId: integer('link_task_id').references(() => submissions.id, { onDelete: 'set null' }),
    linkRecordingId: integer('link_recording_id').references(() => recordings.id, { onDelete: 'set null' }),
    linkAtMs: integer('link_at_ms'),
    pinnedAt: timestamp('pinned_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('messages_student_idx').on(t.studentId, t.id),
    index('messages_school_created_idx').on(t.schoolId, t.createdAt),
    index('messages_pinned_idx').on(t.studentId, t.pinnedAt).where(sql`${t.pinnedAt} is not null`),
    check('messages_body_check', sql`char_length(${t.body}) between 1 and 2000`),
    check('messages_kind_check', sql`${t.kind} in ('message', 'lesson_note')`),
    check('messages_role_check', sql`${t.authorRole} in ('teacher', 'student', 'guardian')`),
  ],
);

/** Up to which message a participant has read a conversation. */
export const messageReads = pgTable(
  'message_reads',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastReadId: integer('last_read_id').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.studentId] })],
);

/**
 * A browser's push subscription (docs/decisions/web-push.md): where the push service takes a
 * notification for this user's device, and the keys it is encrypted with (RFC 8291). One row per
 * endpoint; an endpoint the push service calls gone (404, 410) is deleted.
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    language: text('language').notNull().default('de'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_key').on(t.endpoint),
    index('push_subscriptions_user_idx').on(t.userId),
    check('push_subscriptions_language_check', sql`${t.language} in ('de', 'tr')`),
  ],
);

/** When each scheduled job last ran, so that it runs once across all processes (server/lib/jobs.ts). */
export const scheduledJobs = pgTable('scheduled_jobs', {
  name: text('name').primaryKey(),
  lastRunAt: timestamp('last_run_at', { withTimezone: true, mode: 'date' }).notNull(),
});

/** Numbers every invalidation message, so a process can tell it missed one (server/lib/cluster.ts). */
export const invalidationSeq = pgSequence('uk_invalidation_seq');

/**
 * A user's private calendar address (GET /calendar/{secret}.ics, docs/decisions/calendar-feed-and-reports.md).
 * The secret itself is stored nowhere: it is HMAC-SHA256(APP_SECRET, user id and `nonce`), so the
 * database alone does not reveal an address; `secret_hash` (SHA-256 of the secret) finds the user.
 * Renewing draws a new nonce: the old address answers 404 at once.
 */
export const calendarFeeds = pgTable(
  'calendar_feeds',
  {
    schoolId: schoolId(),
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    nonce: text('nonce').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('calendar_feeds_secret_hash_key').on(t.secretHash)],
);

/** A guardian (parent) follows a student read-only (docs/decisions/schools-and-roles.md): tasks, minutes, streak, feedback, recordings. */
export const guardianLinks = pgTable(
  'guardian_links',
  {
    schoolId: schoolId(),
    guardianId: integer('guardian_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    studentId: integer('student_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.guardianId, t.studentId] }), index('guardian_links_student_idx').on(t.studentId)],
);

/**
 * A one-time link that lets a new teacher or guardian set a password (docs/decisions/schools-and-roles.md). Only the SHA-256 of
 * the link's secret is stored; a guardian invitation names the students the guardian will follow.
 */
export const invites = pgTable(
  'invites',
  {
    id: serial('id').primaryKey(),
    schoolId: integer('school_id')
      .notNull()
      .references(() => schools.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['teacher', 'guardian'] }).notNull(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    studentIds: jsonb('student_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true, mode: 'date' }),
    acceptedUserId: integer('accepted_user_id').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    uniqueIndex('invites_token_hash_key').on(t.tokenHash),
    index('invites_school_created_idx').on(t.schoolId, t.createdAt),
    check('invites_kind_check', sql`${t.kind} in ('teacher', 'guardian')`),
  ],
);

/**
 * What was done to a school's people and data (docs/decisions/schools-and-roles.md): sign-ins of administrators, invitations,
 * role and state changes, moves, exports and erasures. The actor's name is copied, so the entry
 * still says who after the account is gone.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    schoolId: integer('school_id')
      .notNull()
      .references(() => schools.id, { onDelete: 'cascade' }),
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    actorRole: text('actor_role').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: integer('target_id'),
    targetName: text('target_name'),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_school_created_idx').on(t.schoolId, t.createdAt, t.id)],
);
