import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idempotencyHeaders, idParams, languageOnlyQuery } from '@contract/common';
import {
  countQuery,
  countResponse,
  createCommentBody,
  inboxQuery,
  inboxResponse,
  newFeedbackResponse,
  RECORDING_LIMITS,
  VOICE_COMMENT_LIMITS,
  voiceCommentUploadDoc,
  recordingCommentSchema,
  recordingListResponse,
  recordingSchema,
  recordingUploadDoc,
  updateCommentBody,
} from '@contract/recordings';
import { AppError } from '../../errors';
import { currentUser } from '../../lib/auth';
import { clusterOf } from '../../lib/cluster';
import { JOBS, scheduleOnce } from '../../lib/jobs';
import { storageErrorSchema } from '@contract/storage';
import { declaredUploadBytes } from '../../lib/disk-space';
import { StorageQuota } from '../storage/storage.service';
import { RecordingsService, runRetention } from './recordings.service';
import { readRecordingForm, RECORDING_FORM_LIMITS } from './recordings.upload';
import { readVoiceCommentForm } from './voice-comment.upload';
import { ANALYSIS_LIMITS, analysisErrorSchema, analysisPutBody, recordingAnalysisSchema } from '@contract/recording-analysis';
import { AnalysisService } from './analysis.service';

/** The multipart body is read by the handler (streamed to disk): only params and query are validated up front. */
const skipBodyValidation: typeof validatorCompiler = (ctx) => (ctx.httpPart === 'body' ? () => ({ value: undefined }) : validatorCompiler(ctx));

const notMultipart = () =>
  new AppError(415, { de: 'Bitte sende die Aufnahme als multipart/form-data.', tr: 'Lütfen kaydı multipart/form-data olarak gönder.' });

/** The daily retention job: first looked at a few minutes after the start, then hourly; runs when 24 hours have passed. */
export const RETENTION_FIRST_RUN_MS = 5 * 60 * 1000;
export const RETENTION_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** How often each process looks whether the daily run is due (scheduled_jobs). */
export const RETENTION_CHECK_MS = 60 * 60 * 1000;

export default async function recordingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const storage = app.deps.storage;
  const quota = new StorageQuota(app.deps.db, app.deps.config, app.deps.mediaDir);
  const service = new RecordingsService(app.deps.db, storage, app.deps.config.APP_TIMEZONE, app.log, quota);
  const analyses = new AnalysisService(app.deps.db);

  // Recordings older than RECORDINGS_KEEP_DAYS, and orphan files, go once a day: once across all
  // server processes on the database (server/lib/jobs.ts; each looks hourly whether it is due).
  let job: ReturnType<typeof scheduleOnce> | null = null;
  app.addHook('onReady', async () => {
    job = scheduleOnce({
      db: app.deps.db,
      target: { kind: app.deps.dbKind, ...(app.deps.pool ? { pool: app.deps.pool } : {}) },
      name: JOBS.recordingsRetention,
      intervalMs: RETENTION_INTERVAL_MS,
      firstCheckMs: RETENTION_FIRST_RUN_MS,
      checkMs: RETENTION_CHECK_MS,
      run: async () => {
        const r = await runRetention(app.deps.db, storage, app.deps.config.RECORDINGS_KEEP_DAYS, app.log);
        if (r.deleted || r.orphansRemoved || r.orphansMovedAside) {
          // written past the request hooks that drop kept answers: here and in every other process
          await clusterOf(app.deps.db).publish({ kind: 'all' });
          app.log.info(r, 'recordings retention');
        }
      },
      onError: (err) => app.log.error({ err }, 'recordings retention failed'),
    });
  });
  app.addHook('onClose', async () => {
    await job?.stop();
  });

  // Encapsulated in this plugin: one file, two small text fields.
  await app.register(multipart, {
    throwFileSizeLimit: false,
    preservePath: true,
    limits: {
      fileSize: RECORDING_LIMITS.maxBytes,
      files: RECORDING_FORM_LIMITS.files,
      fields: RECORDING_FORM_LIMITS.fields,
      fieldSize: RECORDING_FORM_LIMITS.fieldBytes,
      fieldNameSize: RECORDING_FORM_LIMITS.fieldNameBytes,
      parts: RECORDING_FORM_LIMITS.fields + RECORDING_FORM_LIMITS.files,
      headerPairs: 20,
    },
  });

  app.post(
    '/api/submissions/:id/recordings',
    {
      config: { access: 'student', idempotent: true },
      validatorCompiler: skipBodyValidation as never,
      schema: {
        tags: ['recordings'],
        description:
          'The owning student sends a recording of an open, overdue or completed task (expired → 409). Type and length are read from the bytes; at most 50 MiB (413), audio 20 min, video 5 min, 20 per task (422). ' +
          "Past the student's or the school's storage quota 413 with code storage_quota_student or storage_quota_school, checked before the body " +
          '(by Content-Length) and again when it is stored; 507 with code insufficient_storage when the server\'s disk would keep less than STORAGE_FREE_MARGIN_MB free (docs/decisions/storage-quota.md).',
        consumes: ['multipart/form-data'],
        params: idParams,
        querystring: languageOnlyQuery,
        headers: idempotencyHeaders,
        body: recordingUploadDoc,
        response: { 201: recordingSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors, 413: storageErrorSchema, 507: storageErrorSchema },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      // Before a byte of the body is read: whose task, its state, room for another, room in the
      // quotas and on the disk for what the client says it sends (docs/decisions/storage-quota.md).
      await service.assertCanUpload(user, req.params.id);
      if (!req.isMultipart()) throw notMultipart();
      const declared = declaredUploadBytes(req.headers['content-length']);
      await quota.assertRoom(app.deps.db, { schoolId: user.schoolId, studentId: user.id }, declared ?? 0);
      await quota.assertDisk(Math.min(declared ?? RECORDING_LIMITS.maxBytes, RECORDING_LIMITS.maxBytes));
      const staged = await readRecordingForm(req, storage);
      const recording = await service.create(user, req.params.id, staged);
      return reply.code(201).send(recording);
    },
  );

  app.get(
    '/api/submissions/:id/recordings',
    {
      config: { access: 'user' },
      schema: {
        tags: ['recordings'],
        description: "A task's recordings, newest first, each with its comments (by at_ms, general remarks first): for the owning student and their teacher.",
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: recordingListResponse, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.list(currentUser(req), req.params.id),
  );

  app.get(
    '/api/recordings/inbox',
    {
      config: { access: 'teacher', cache: true },
      schema: {
        tags: ['recordings'],
        description: "Zu prüfen: the unanswered recordings of the teacher's students, oldest first, one page (`page` from 1, `per_page` ≤ 100; default 20).",
        querystring: inboxQuery,
        response: { 200: inboxResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => service.inbox(currentUser(req), req.query),
  );

  app.get(
    '/api/recordings/inbox/count',
    {
      config: { access: 'teacher', cache: true },
      schema: {
        tags: ['recordings'],
        description: 'How many recordings wait in the inbox (the navigation badge); `course_id` filters.',
        querystring: countQuery,
        response: { 200: countResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => service.inboxCount(currentUser(req), req.query.course_id),
  );

  app.get(
    '/api/recordings/new-feedback/count',
    {
      config: { access: 'student', cache: true },
      schema: {
        tags: ['recordings'],
        description:
          "How many of the student's recordings have new feedback (the dashboard's 'Neues Feedback'), and where the link lands (`latest`: the recording with the newest feedback, its newest comment and that comment's moment); `course_id` filters.",
        querystring: countQuery,
        response: { 200: newFeedbackResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => service.newFeedbackCount(currentUser(req), req.query.course_id),
  );

  app.get(
    '/api/recordings/:id',
    {
      config: { access: 'user' },
      schema: {
        tags: ['recordings'],
        description: 'One recording with its comments: for the owning student and their teacher.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: recordingSchema, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.get(currentUser(req), req.params.id),
  );

  app.delete(
    '/api/recordings/:id',
    {
      config: { access: 'student' },
      schema: {
        tags: ['recordings'],
        description: 'The owning student deletes a recording and its file, until it is answered (409 after).',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => {
      await service.remove(currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/recordings/:id/answer',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['recordings'],
        description: 'The teacher marks the recording answered ("Beantwortet"): it leaves the inbox. Calling it again changes nothing.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: recordingSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req) => service.answer(currentUser(req), req.params.id),
  );

  app.post(
    '/api/recordings/:id/seen',
    {
      config: { access: 'student' },
      schema: {
        tags: ['recordings'],
        description: 'The student opened the feedback: it is no longer new.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: recordingSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req) => service.seen(currentUser(req), req.params.id),
  );

  app.post(
    '/api/recordings/:id/comments',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['recordings'],
        description: "The teacher comments at a moment (`at_ms`, 0 … the recording's length; past it → 422) or generally (`at_ms` null).",
        params: idParams,
        querystring: languageOnlyQuery,
        body: createCommentBody,
        response: { 201: recordingCommentSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => reply.code(201).send(await service.addComment(currentUser(req), req.params.id, req.body)),
  );

  app.post(
    '/api/recordings/:id/voice-comments',
    {
      config: { access: 'teacher' },
      validatorCompiler: skipBodyValidation as never,
      schema: {
        tags: ['recordings'],
        description:
          `The teacher answers with their voice (docs/decisions/spoken-comments-and-quick-replies.md): one audio clip (type and length read from the bytes; at most ${VOICE_COMMENT_LIMITS.maxBytes} bytes → 413, ` +
          `${VOICE_COMMENT_LIMITS.maxMs / 1000} s → 422, video → 422) pinned at \`at_ms\` (empty: a general remark), optionally with words. ` +
          "Played by the student, their teacher and their guardians through GET /api/media/{audio.path}. Counts in the school's storage quota (413 storage_quota_school; 507 insufficient_storage).",
        consumes: ['multipart/form-data'],
        params: idParams,
        querystring: languageOnlyQuery,
        body: voiceCommentUploadDoc,
        response: { 201: recordingCommentSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors, 413: storageErrorSchema, 507: storageErrorSchema },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      // Before a byte of the body is read: whose recording, room in the school's quota and on the disk.
      await service.get(user, req.params.id);
      if (!req.isMultipart()) throw notMultipart();
      const declared = declaredUploadBytes(req.headers['content-length']);
      await quota.assertRoom(app.deps.db, { schoolId: user.schoolId, studentId: null }, Math.min(declared ?? 0, VOICE_COMMENT_LIMITS.maxBytes));
      await quota.assertDisk(Math.min(declared ?? VOICE_COMMENT_LIMITS.maxBytes, VOICE_COMMENT_LIMITS.maxBytes));
      const staged = await readVoiceCommentForm(req, storage);
      return reply.code(201).send(await service.addVoiceComment(user, req.params.id, staged));
    },
  );

  app.patch(
    '/api/recording-comments/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['recordings'],
        description: 'The teacher edits their own comment (text and/or at_ms).',
        params: idParams,
        querystring: languageOnlyQuery,
        body: updateCommentBody,
        response: { 200: recordingCommentSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req) => service.updateComment(currentUser(req), req.params.id, req.body),
  );

  app.delete(
    '/api/recording-comments/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['recordings'],
        description: 'The teacher deletes their own comment.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => {
      await service.deleteComment(currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  // What the app heard in a take (docs/decisions/listening.md, "Where it runs"; what it may cost:
  // "What a report may cost" — decoded and computed in a worker, bounded, charged to the user).
  app.get(
    '/api/recordings/:id/analysis',
    {
      config: { access: 'any' },
      schema: {
        tags: ['recordings'],
        description:
          "The take's intonation and tempo report, computed by the server from the stored pitch track and the exercise's current settings (makam and durak, else 12-TET; tempo in its unit): " +
          'for the owning student, their teacher and their guardians (anyone else 404; an administrator 403). ' +
          '404 with code analysis_missing while no browser has sent the track yet (the student\'s or teacher\'s browser then computes it and PUTs it). ' +
          'When the settings changed since the report was computed, it is computed again in the analysis worker; 503 with code analysis_busy (its queue is full) or ' +
          'analysis_limits (out of its time or memory) and Retry-After when it cannot be now.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: recordingAnalysisSchema, ...errorResponsesOf(401, 403), 404: analysisErrorSchema, 503: analysisErrorSchema },
      },
    },
    async (req) => analyses.get(currentUser(req), req.params.id),
  );

  app.put(
    '/api/recordings/:id/analysis',
    {
      config: { access: 'user' },
      bodyLimit: ANALYSIS_LIMITS.bodyBytes,
      schema: {
        tags: ['recordings'],
        description:
          'A browser sends the pitch track and onsets it computed from the take (contract/listening/encoding.ts as base64; at most ' +
          `${ANALYSIS_LIMITS.maxTrackBytes / 1024} KiB decoded → 413; hop ${ANALYSIS_LIMITS.minHopMs}–${ANALYSIS_LIMITS.maxHopMs} ms, at most ${ANALYSIS_LIMITS.maxFrames} frames ` +
          `(a 60-minute take), not longer than the take + ${ANALYSIS_LIMITS.slackMs / 1000} s → else 422 on track; read by the bounded decoder and its counts checked → else 422 on track). ` +
          'The server computes the report itself (no client report is accepted), in its analysis worker. ' +
          'The owning student or their teacher; the first track sent is kept: 201 when stored, 200 with the stored analysis when one existed (nothing of the track is read). ' +
          `Each user may have ${ANALYSIS_LIMITS.bucketMs / 3_600_000} hours of take analysed at once, refilled at ${ANALYSIS_LIMITS.refillMsPerMinute / 60_000} minutes of take a minute ` +
          `(a track costs its length, at least ${ANALYSIS_LIMITS.minCostMs / 1000} s): beyond, 429 with Retry-After. ` +
          '503 with code analysis_busy (the analysis queue is full) or analysis_limits (out of the worker\'s time or memory) and Retry-After: try again later.',
        params: idParams,
        querystring: languageOnlyQuery,
        body: analysisPutBody,
        response: {
          200: recordingAnalysisSchema,
          201: recordingAnalysisSchema,
          ...errorResponsesOf(401, 403, 404, 429),
          ...bodyErrors,
          503: analysisErrorSchema,
        },
      },
    },
    async (req, reply) => {
      const { created, analysis } = await analyses.put(currentUser(req), req.params.id, req.body);
      return reply.code(created ? 201 : 200).send(analysis);
    },
  );
}
