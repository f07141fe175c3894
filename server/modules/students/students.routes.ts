import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idParams, languageOnlyQuery } from '@contract/common';
import {
  studentCoursesBody,
  studentCreateBody,
  studentListQuery,
  studentListResponse,
  studentProgressQuery,
  studentProgressResponse,
  studentSchema,
  studentUpdateBody,
} from '@contract/students';
import { currentUser } from '../../lib/auth';
import { todayInZone } from '../../lib/time';
import { studentsProgress } from './students.repo';
import { StudentsService } from './students.service';
import { removeRecordingFolders } from '../recordings/recordings.service';

const langQuery = languageOnlyQuery;

export default async function studentsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new StudentsService(app.deps.db);

  app.get(
    '/api/students',
    {
      config: { access: 'teacher', cache: true },
      schema: {
        tags: ['students'],
        description: "The teacher's students ordered by name; course_id keeps those enrolled in that course.",
        querystring: studentListQuery,
        response: { 200: studentListResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => ({ data: await service.list(currentUser(req), req.query.course_id) }),
  );

  app.get(
    '/api/students/progress',
    {
      config: { access: 'teacher', cache: true },
      schema: {
        tags: ['students'],
        description:
          "Practice at a glance for each of the teacher's students (same filter and order as GET /api/students): start of the " +
          'latest finished practice session, minutes practised in the last 7 days including today (APP_TIMEZONE), and the ' +
          'numbers of open and overdue tasks. One statement for the whole list.',
        querystring: studentProgressQuery,
        response: { 200: studentProgressResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => {
      const tz = app.deps.config.APP_TIMEZONE;
      const courseId = req.query.course_id;
      const teacher = currentUser(req);
      return { data: await studentsProgress(app.deps.db, teacher.schoolId, teacher.id, todayInZone(tz), tz, courseId ? { courseId } : {}) };
    },
  );

  app.get(
    '/api/students/:id',
    {
      config: { access: 'teacher' },
      schema: { tags: ['students'], params: idParams, querystring: langQuery, response: { 200: studentSchema, ...errorResponsesOf(401, 403, 404) } },
    },
    async (req) => service.get(currentUser(req), req.params.id),
  );

  app.post(
    '/api/students',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['students'],
        description:
          'Creates a student of the calling teacher. The e-mail must be unique among all users (any case; otherwise 422 errors.email); course_ids must name courses of the calling teacher (otherwise 422 errors.course_ids).',
        querystring: langQuery,
        body: studentCreateBody,
        response: { 201: studentSchema, ...errorResponsesOf(401, 403, 409), ...bodyErrors },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(currentUser(req), req.body)),
  );

  app.put(
    '/api/students/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['students'],
        description:
          'A blank or missing password keeps the current one; a new password signs the student out everywhere. The e-mail must be unique among all users (otherwise 422 errors.email); course_ids must name courses of the calling teacher (otherwise 422 errors.course_ids).',
        params: idParams,
        querystring: langQuery,
        body: studentUpdateBody,
        response: { 200: studentSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req) => service.update(currentUser(req), req.params.id, req.body),
  );

  app.put(
    '/api/students/:id/courses',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['students'],
        description: "Replaces the student's enrolments; only the teacher's own courses (others: 422 errors.course_ids).",
        params: idParams,
        querystring: langQuery,
        body: studentCoursesBody,
        response: { 200: studentSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req) => service.setCourses(currentUser(req), req.params.id, req.body.course_ids),
  );

  app.delete(
    '/api/students/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['students'],
        description: 'Deletes the account with its tokens, enrolments, submissions, practice sessions and recordings (with their files).',
        params: idParams,
        querystring: langQuery,
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => {
      const taskIds = await service.remove(currentUser(req), req.params.id);
      // Their recordings' rows went with the commit (foreign keys); now their files.
      await removeRecordingFolders(app.deps.storage, taskIds, req.log);
      return reply.code(204).send(null);
    },
  );
}
