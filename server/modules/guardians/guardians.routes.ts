import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idParams, languageOnlyQuery } from '@contract/common';
import {
  GUARDIAN_RECORDINGS_MAX,
  GUARDIAN_TASK_DAYS,
  guardianAddBody,
  guardianAddResponse,
  guardianChildDetailSchema,
  guardianChildrenResponse,
  guardianLinkParams,
  studentGuardiansResponse,
} from '@contract/guardians';
import { currentUser } from '../../lib/auth';
import { publicOrigin } from '../../lib/public-url';
import { mailerOf } from '../../lib/mail';
import { GuardiansService } from './guardians.service';

const tags = ['guardians'];

/** Parents' read-only access (docs/decisions/schools-and-roles.md): the staff manage a student's guardians; a guardian reads their children. */
export default async function guardiansRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new GuardiansService(app.deps.db, app.deps.config.APP_TIMEZONE);

  app.get(
    '/api/students/:id/guardians',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        description:
          "The student's guardians (by name; created_at: since when they follow the student) and the open guardian invitations naming the student. " +
          "For the student's teacher or the school's administrator; any other student answers 404.",
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: studentGuardiansResponse, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.list(currentUser(req), req.params.id),
  );

  app.post(
    '/api/students/:id/guardians',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        description:
          'Gives a parent read-only access to the student. A guardian account of the school with this e-mail follows the student at once ' +
          '(`guardian`); otherwise an invitation link is made (`invite`, shown to copy and e-mailed when SMTP is configured). ' +
          'An e-mail of any other account, or of an open invitation, answers 409.',
        params: idParams,
        querystring: languageOnlyQuery,
        body: guardianAddBody,
        response: { 201: guardianAddResponse, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => reply.code(201).send(await service.add(currentUser(req), req.params.id, req.body, publicOrigin(req, app.deps.config), mailerOf(app))),
  );

  app.delete(
    '/api/students/:id/guardians/:guardianId',
    {
      config: { access: 'staff' },
      schema: {
        tags,
        description: 'The guardian no longer follows the student, at once. A guardian left without a child loses the account (and is signed out).',
        params: guardianLinkParams,
        querystring: languageOnlyQuery,
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404), ...bodyErrors },
      },
    },
    async (req, reply) => {
      await service.remove(currentUser(req), req.params.id, req.params.guardianId);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/guardian/children',
    {
      config: { access: 'guardian' },
      schema: {
        tags,
        description: "The guardian's children by name: teacher, streak, minutes of the last 7 days, open and overdue tasks, recordings with new feedback.",
        querystring: languageOnlyQuery,
        response: { 200: guardianChildrenResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => ({ data: await service.children(currentUser(req)) }),
  );

  app.get(
    '/api/guardian/children/:id',
    {
      config: { access: 'guardian' },
      schema: {
        tags,
        description:
          `One child of the guardian: the figures, the metrics, the tasks due from ${GUARDIAN_TASK_DAYS.back} days ago to ` +
          `${GUARDIAN_TASK_DAYS.ahead} days ahead (newest first, with the teacher's feedback) and the latest ${GUARDIAN_RECORDINGS_MAX} ` +
          'recordings with comments. Anyone not the guardian\'s child answers 404.',
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: guardianChildDetailSchema, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.child(currentUser(req), req.params.id),
  );
}
