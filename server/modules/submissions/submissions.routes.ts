import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idempotencyHeaders, idParams, languageOnlyQuery } from '@contract/common';
import { submissionCountsQuery, submissionCountsSchema, submissionListQuery, submissionSchema } from '@contract/submissions';
import { currentUser } from '../../lib/auth';
import { SubmissionsService } from './submissions.service';

const langOnly = languageOnlyQuery;

export default async function submissionsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new SubmissionsService(app.deps.db, app.deps.config.APP_TIMEZONE);

  app.get(
    '/api/submissions',
    {
      config: { access: 'user', cache: true },
      schema: {
        tags: ['submissions'],
        description:
          'Tasks by due date (or `order`: due_desc, work). A student gets only their own; a teacher those of their students. `status` takes one status or a comma-separated list; `limit` and `offset` give one page (without `limit`, every matching task).',
        querystring: submissionListQuery,
        response: { 200: z.array(submissionSchema), ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => service.list(currentUser(req), req.query),
  );

  app.get(
    '/api/submissions/counts',
    {
      config: { access: 'user', cache: true },
      schema: {
        tags: ['submissions'],
        description:
          'How many tasks there are in all and in each status, with the filters of the list (a student their own; a teacher those of their students, optionally one student). Counted in SQL.',
        querystring: submissionCountsQuery,
        response: { 200: submissionCountsSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => service.counts(currentUser(req), req.query),
  );

  app.get(
    '/api/submissions/:id',
    {
      config: { access: 'user' },
      schema: {
        tags: ['submissions'],
        description: 'One task with its exercise and media (a student their own, a teacher their students\'); otherwise 404.',
        params: idParams,
        querystring: langOnly,
        response: { 200: submissionSchema, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.get(currentUser(req), req.params.id),
  );

  app.patch(
    '/api/submissions/:id/complete',
    {
      config: { access: 'student', idempotent: true },
      schema: {
        tags: ['submissions'],
        description: 'The student marks the task done. Expired → 409; already completed → 200 unchanged; a running practice session is stopped first.',
        params: idParams,
        querystring: langOnly,
        headers: idempotencyHeaders,
        response: { 200: submissionSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req) => service.complete(currentUser(req), req.params.id),
  );
}
