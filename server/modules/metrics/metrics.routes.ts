import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bodyErrors, errorResponsesOf, idParams, languageOnlyQuery } from '@contract/common';
import { reviewBody, studentMetricsSchema, studentOverviewSchema } from '@contract/metrics';
import { submissionSchema } from '@contract/submissions';
import { currentUser } from '../../lib/auth';
import { MetricsService } from './metrics.service';

export default async function metricsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new MetricsService(app.deps.db, app.deps.config.APP_TIMEZONE);

  app.get(
    '/api/my-metrics',
    {
      config: { access: 'student' },
      schema: { tags: ['metrics'], querystring: languageOnlyQuery, response: { 200: studentMetricsSchema, ...errorResponsesOf(401, 403) } },
    },
    async (req) => service.metrics(currentUser(req)),
  );

  app.get(
    '/api/students/:id/metrics',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['metrics'],
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: studentMetricsSchema, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.metricsForTeacher(currentUser(req), req.params.id),
  );

  app.get(
    '/api/students/:id/overview',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['metrics'],
        params: idParams,
        querystring: languageOnlyQuery,
        response: { 200: studentOverviewSchema, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => service.overview(currentUser(req), req.params.id),
  );

  app.patch(
    '/api/submissions/:id/review',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['metrics'],
        params: idParams,
        querystring: languageOnlyQuery,
        body: reviewBody,
        response: { 200: submissionSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req) => service.review(currentUser(req), req.params.id, req.body),
  );
}
