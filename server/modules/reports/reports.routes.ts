import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { idParams } from '@contract/common';
import { courseProgressCsvQuery, courseProgressCsvResponses } from '@contract/reports';
import { currentUser } from '../../lib/auth';
import { requestLang } from '../../lib/lang';
import { todayInZone } from '../../lib/time';
import { ReportsService } from './reports.service';

export default async function reportsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tz = app.deps.config.APP_TIMEZONE;
  const service = new ReportsService(app.deps.db, tz);

  app.get(
    '/api/courses/:id/progress.csv',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['courses'],
        description:
          "The course's progress for a spreadsheet, one row per enrolled student (by name): practice minutes this week (Monday–Sunday) " +
          'and this month in APP_TIMEZONE, tasks completed, completion rate (%), average accuracy (%), last practice (local time). ' +
          'The figures are the student\'s whole practice with the teacher; the course decides who is listed. Header row in the request ' +
          "language. Only the course's teacher (another teacher's course → 404).",
        params: idParams,
        querystring: courseProgressCsvQuery,
        response: courseProgressCsvResponses,
      },
    },
    async (req, reply) => {
      const { csv, filename } = await service.courseProgressCsv(currentUser(req), req.params.id, todayInZone(tz), requestLang(req));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'no-store')
        .send(csv);
    },
  );
}
