import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponsesOf } from '@contract/common';
import { attentionQuery, dashboardQuery, teacherAttentionSchema, teacherDashboardSchema } from '@contract/dashboard';
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

  app.get(
    '/api/dashboard/attention',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['dashboard'],
        summary: "What needs the teacher's attention, filtered by course",
        description:
          'The teacher\'s own students without a practice session for `quiet_days` days or more (in APP_TIMEZONE; never practised: since registering), ' +
          'students with `overdue_min` overdue tasks or more, and the unanswered takes that have waited longest; each list at most 3 entries with its total. ' +
          '`first_steps` tells a new teacher what is done (a course, a student, a live exercise, a task), over all courses.',
        querystring: attentionQuery,
        response: { 200: teacherAttentionSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => {
      const tz = app.deps.config.APP_TIMEZONE;
      return service.attention(currentUser(req), req.query.course_id, todayInZone(tz), tz);
    },
  );
}
