import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idempotencyHeaders, idParams, languageOnlyQuery } from '@contract/common';
import { practiceConflictSchema, practiceOfflineBody, practiceSessionListQuery, practiceSessionListSchema, practiceSessionSchema, practiceStopBody } from '@contract/practice';
import { currentUser } from '../../lib/auth';
import { PracticeService } from './practice.service';

const langOnly = languageOnlyQuery;

export default async function practiceRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new PracticeService(app.deps.db, app.deps.config.APP_TIMEZONE);

  app.post(
    '/api/submissions/:id/practice-sessions/start',
    {
      config: { access: 'student', idempotent: true },
      schema: {
        tags: ['practice'],
        description:
          'Starts the practice timer on the student\'s own task. A session already running on this task → 409 {message, session}; ' +
          'one running on another task of the student is stopped first, counted until now (one thing at a time). ' +
          'A completed or expired task, or a session of the student (sent from a device) reaching past now → 409; ' +
          'the day\'s 100 sessions already started → 422.',
        params: idParams,
        querystring: langOnly,
        headers: idempotencyHeaders,
        response: { 201: practiceSessionSchema, ...errorResponsesOf(401, 403, 404), ...bodyErrors, 409: practiceConflictSchema },
      },
    },
    async (req, reply) => reply.code(201).send(await service.start(currentUser(req), req.params.id)),
  );

  app.post(
    '/api/submissions/:id/practice-sessions/offline',
    {
      config: { access: 'student', idempotent: true },
      schema: {
        tags: ['practice'],
        description:
          'A session the student timed on their device without a connection, with the device\'s times → 201, marked `recorded_offline`. ' +
          'Refused with 422 naming the field: ended_at in the future (beyond 2 minutes of clock skew), ended more than 7 days ago, ' +
          'not after started_at, longer than 180 minutes, overlapping another session of the student (started_at), ' +
          'on a day (school time zone, by its start) that already has 100 sessions (started_at) or would count more than 24 hours (ended_at). ' +
          'An expired task → 409; a completed task takes only a session that ended before it was completed (409 otherwise).',
        params: idParams,
        querystring: langOnly,
        headers: idempotencyHeaders,
        body: practiceOfflineBody,
        response: { 201: practiceSessionSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => reply.code(201).send(await service.recordOffline(currentUser(req), req.params.id, req.body)),
  );

  app.post(
    '/api/practice-sessions/:id/stop',
    {
      config: { access: 'student', idempotent: true },
      schema: {
        tags: ['practice'],
        description:
          'Stops a running session by the server\'s clock; duration in minutes (two decimals), at most 180. Not running → 409. ' +
          'The body is optional: `{tempo_bpm}` keeps the tempo reached (BPM, 20–300) on the session.',
        params: idParams,
        querystring: langOnly,
        headers: idempotencyHeaders,
        // Fastify hands a bodiless request over as null: the same as no body.
        body: z.preprocess((v) => (v === null ? undefined : v), practiceStopBody.optional()),
        response: { 200: practiceSessionSchema, ...errorResponsesOf(401, 403, 404), ...bodyErrors, 409: practiceConflictSchema },
      },
    },
    async (req) => service.stop(currentUser(req), req.params.id, req.body?.tempo_bpm),
  );

  app.get(
    '/api/submissions/:id/practice-sessions/active',
    {
      config: { access: 'user' },
      schema: {
        tags: ['practice'],
        description: 'The running session of the task, or 404 when none runs.',
        params: idParams,
        querystring: langOnly,
        response: { 200: practiceSessionSchema, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.active(currentUser(req), req.params.id),
  );

  app.get(
    '/api/submissions/:id/practice-sessions',
    {
      config: { access: 'user' },
      schema: {
        tags: ['practice'],
        description:
          'Practice sessions of the task, newest first (a student their own, a teacher their students\'), one page: ' +
          '`limit` 1–200 (200 when left out), `offset` from 0.',
        params: idParams,
        querystring: practiceSessionListQuery,
        response: { 200: practiceSessionListSchema, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.list(currentUser(req), req.params.id, req.query),
  );
}
