import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idParams, languageOnlyQuery } from '@contract/common';
import {
  MESSAGE_LIMITS,
  conversationListResponse,
  conversationParams,
  messageBody,
  messagePageQuery,
  messagePageResponse,
  messagePinBody,
  messageReadBody,
  messageRetentionBody,
  messageRetentionSchema,
  messageSchema,
  unreadResponse,
} from '@contract/messages';
import { currentUser } from '../../lib/auth';
import { JOBS, scheduleOnce } from '../../lib/jobs';
import { MessagesService } from './messages.service';

const tags = ['messages'];

/** The retention job: once a day across all processes (server/lib/jobs.ts). */
export const MESSAGE_PRUNE_INTERVAL_MS = 24 * 3600 * 1000;

/** A message's body is at most 2000 characters: 16 KB is room for it in any encoding, and the link. */
const MESSAGE_BODY_LIMIT = 16 * 1024;

/** Messages between a student, their teacher and their parents (docs/decisions/messages.md). */
export default async function messagesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new MessagesService(app.deps.db, app.log);

  let job: ReturnType<typeof scheduleOnce> | null = null;
  app.addHook('onReady', async () => {
    job = scheduleOnce({
      db: app.deps.db,
      target: { kind: app.deps.dbKind, ...(app.deps.pool ? { pool: app.deps.pool } : {}) },
      name: JOBS.messageRetention,
      intervalMs: MESSAGE_PRUNE_INTERVAL_MS,
      firstCheckMs: 60 * 1000,
      checkMs: 60 * 60 * 1000,
      run: async () => {
        await service.prune();
      },
      onError: (err) => app.log.error({ err }, 'message retention failed'),
    });
  });
  app.addHook('onClose', async () => {
    await job?.stop();
  });

  app.get(
    '/api/conversations',
    {
      config: { access: 'any' },
      schema: {
        tags,
        description:
          "The caller's conversations: a teacher's one per own student, a student's own, a parent's one per child; what waits longest first " +
          '(the oldest unread message from someone else), then the latest, then by name. The administrator takes part in none (403).',
        querystring: languageOnlyQuery,
        response: { 200: conversationListResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => ({ data: await service.list(currentUser(req)) }),
  );

  app.get(
    '/api/conversations/unread',
    {
      config: { access: 'any' },
      schema: {
        tags,
        description: "How many messages from others the caller has not read, over all their conversations (the navigation's badge; 0 for the administrator).",
        querystring: languageOnlyQuery,
        response: { 200: unreadResponse, ...errorResponsesOf(401) },
      },
    },
    async (req) => ({ unread: await service.unread(currentUser(req)) }),
  );

  app.get(
    '/api/conversations/:studentId/messages',
    {
      config: { access: 'any' },
      schema: {
        tags,
        description: `A page of ${MESSAGE_LIMITS.pageSize} messages of the student's conversation, newest first (\`before\`: older than that id), the pinned lesson notes on the first page. 404 for anyone not taking part.`,
        params: conversationParams,
        querystring: messagePageQuery,
        response: { 200: messagePageResponse, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.page(currentUser(req), req.params.studentId, req.query.before),
  );

  app.post(
    '/api/conversations/:studentId/messages',
    {
      config: { access: 'any' },
      bodyLimit: MESSAGE_BODY_LIMIT,
      schema: {
        tags,
        description:
          `Writes a message (plain text, 1–${MESSAGE_LIMITS.maxChars} characters after trimming; never read as HTML). kind 'lesson_note': the student's teacher only (403). ` +
          "link: one of the student's tasks, or a take of it at a moment (otherwise 422 errors.link). " +
          `At most ${MESSAGE_LIMITS.perHour} messages of one author in one conversation within an hour, then 429.`,
        params: conversationParams,
        querystring: languageOnlyQuery,
        body: messageBody,
        response: { 201: messageSchema, ...errorResponsesOf(401, 403, 404, 429), ...bodyErrors },
      },
    },
    async (req, reply) => {
      const b = req.body;
      const link = b.link ? { task_id: b.link.task_id, recording_id: b.link.recording_id ?? null, at_ms: b.link.at_ms ?? null } : null;
      const created = await service.send(currentUser(req), req.params.studentId, { body: b.body, kind: b.kind ?? 'message', link });
      return reply.code(201).send(created);
    },
  );

  app.post(
    '/api/conversations/:studentId/read',
    {
      config: { access: 'any' },
      bodyLimit: 1024,
      schema: {
        tags,
        description: 'Marks the conversation read up to a message id (never back, never past the newest message).',
        params: conversationParams,
        querystring: languageOnlyQuery,
        body: messageReadBody,
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404), ...bodyErrors },
      },
    },
    async (req, reply) => {
      await service.markRead(currentUser(req), req.params.studentId, req.body.up_to);
      return reply.code(204).send(null);
    },
  );

  app.patch(
    '/api/messages/:id',
    {
      config: { access: 'any' },
      bodyLimit: 1024,
      schema: {
        tags,
        description: `The student's teacher pins or releases a lesson note (409 for other messages, and for a sixth pin: at most ${MESSAGE_LIMITS.maxPinned} pinned per conversation).`,
        params: idParams,
        querystring: languageOnlyQuery,
        body: messagePinBody,
        response: { 200: messageSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req) => service.pin(currentUser(req), req.params.id, req.body.pinned),
  );

  app.delete(
    '/api/messages/:id',
    {
      config: { access: 'any' },
      schema: {
        tags,
        description: "Deletes a message: its author, or the student's teacher (403 for other participants, 404 for anyone else). Audit log: message.delete (without the text).",
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404), ...bodyErrors },
      },
    },
    async (req, reply) => {
      await service.remove(currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/school/message-retention',
    {
      config: { access: 'admin' },
      schema: {
        tags,
        description: 'How many days the school keeps messages (older ones are deleted once a day).',
        querystring: languageOnlyQuery,
        response: { 200: messageRetentionSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => ({ retention_days: await service.retention(currentUser(req)) }),
  );

  app.put(
    '/api/school/message-retention',
    {
      config: { access: 'admin' },
      bodyLimit: 1024,
      schema: {
        tags,
        description: `Sets how many days the school keeps messages (${MESSAGE_LIMITS.retentionDays.min}–${MESSAGE_LIMITS.retentionDays.max}). Audit log: school.message_retention.`,
        querystring: languageOnlyQuery,
        body: messageRetentionBody,
        response: { 200: messageRetentionSchema, ...errorResponsesOf(401, 403), ...bodyErrors },
      },
    },
    async (req) => ({ retention_days: await service.setRetention(currentUser(req), req.body.retention_days) }),
  );
}
