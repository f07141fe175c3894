import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponsesOf } from '@contract/common';
import { CALENDAR_MAX_DAYS, calendarQuery, calendarResponse } from '@contract/calendar';
import { currentUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import { CalendarService } from './calendar.service';

export default async function calendarRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new CalendarService(app.deps.db);

  app.get(
    '/api/calendar-events',
    {
      config: { access: 'user', cache: true },
      schema: {
        tags: ['calendar'],
        summary: "Tasks as calendar events: a teacher's students' tasks, or a student's own; start inclusive, end exclusive",
        description: `\`end\` must lie after \`start\` and at most ${CALENDAR_MAX_DAYS} days after it (422 on \`end\` otherwise); a missing bound is taken ${CALENDAR_MAX_DAYS} days from the other, without both the range is centred on today.`,
        querystring: calendarQuery,
        response: { 200: calendarResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => {
      const user = currentUser(req);
      const { course_id, start, end } = req.query;
      return service.events(
        { viewer: { role: user.role === 'teacher' ? 'teacher' : 'student', id: user.id, schoolId: user.schoolId }, courseId: course_id, start, end },
        todayInZone(app.deps.config.APP_TIMEZONE),
      );
    },
  );
}
