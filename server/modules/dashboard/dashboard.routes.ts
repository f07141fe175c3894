import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponsesOf } from '@contract/common';
import { dashboardQuery, teacherDashboardSchema } from '@contract/dashboard';
import { currentUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import { DashboardService } from './dashboard.service';

export default async function dashboardRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new DashboardService(app.deps.db);

  app.get(
    '/api/dashboard',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['dashboard'],
        summary: "The teacher's counts and most recently registered students, filtered by course",
        querystring: dashboardQuery,
        response: { 200: teacherDashboardSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) =>
      service.forTeacher(currentUser(req), req.query.course_id, todayInZone(app.deps.config.APP_TIMEZONE)),
  );
}
