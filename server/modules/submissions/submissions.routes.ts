import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idempotencyHeaders, idParams, languageOnlyQuery } from '@contract/common';
import {
  REOPEN_WINDOW_MINUTES,
  submissionCountsQuery,
  submissionCountsSchema,
  submissionListQuery,
  submissionSchema,
  taskSeriesQuery,
  taskSeriesSchema,
} from '@contract/submissions';
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
    '/api/submissions/series',
    {
      config: { access: 'user', cache: true },
      schema: {
        tags: ['submissions'],
        description:
          'One student\'s tasks as series: a repeating assignment is one item with its occurrences, how many are done, the next due, ' +
          'today\'s occurrence (minutes, done) and the streak (consecutive occurrences done), counted in SQL; `current` is the occurrence to work on. ' +
          'A student gets their own; a teacher one of their students\' (`student_id`, required; another\'s → 404). ' +
          '`scope=current` (default) keeps series with an occurrence today or still to come; `scope=all` every series.',
        querystring: taskSeriesQuery,
        response: { 200: z.array(taskSeriesSchema), ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.series(currentUser(req), req.query),
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

  app.delete(
    '/api/submissions/:id/complete',
    {
      config: { access: 'student', idempotent: true },
      schema: {
        tags: ['submissions'],
        description:
          `The student takes back marking their own task done (undo): the task is open or overdue again. Only within ${REOPEN_WINDOW_MINUTES} minutes of ` +
          'completing and before the teacher reviewed it (otherwise 409); a task not completed answers 200 unchanged. Recorded in the school\'s audit log.',
        params: idParams,
        querystring: langOnly,
        headers: idempotencyHeaders,
        response: { 200: submissionSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req) => service.reopen(currentUser(req), req.params.id),
  );
}
