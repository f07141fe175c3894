import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idParams } from '@contract/common';
import { createAssignmentBody, createAssignmentQuery, createAssignmentResponse, deleteSubmissionQuery } from '@contract/assignments';
import { currentUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import { AssignmentsService } from './assignments.service';
import { removeRecordingFolders } from '../recordings/recordings.service';

export default async function assignmentsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new AssignmentsService(app.deps.db);

  app.post(
    '/api/submissions',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['submissions'],
        summary: 'Assign an exercise to students, once or repeating (one task per student per date)',
        querystring: createAssignmentQuery,
        body: createAssignmentBody,
        response: { 201: createAssignmentResponse, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => {
      const user = currentUser(req);
      const submissions = await service.create(user, req.body, todayInZone(app.deps.config.APP_TIMEZONE));
      return reply.code(201).send({ submissions });
    },
  );

  app.delete(
    '/api/submissions/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['submissions'],
        summary: 'Delete a task; scope=series also deletes the not yet completed tasks of its series from its date on',
        params: idParams,
        querystring: deleteSubmissionQuery,
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => {
      const deleted = await service.remove(currentUser(req), req.params.id, req.query.scope ?? 'one');
      // Their recordings' rows went with the commit (foreign keys); now their files.
      await removeRecordingFolders(app.deps.storage, deleted, req.log);
      return reply.code(204).send(null);
    },
  );
}
