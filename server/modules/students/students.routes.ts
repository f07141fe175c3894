import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, idParams, languageQuery } from '../../../contract/common';
import {
  studentCoursesBody,
  studentCreateBody,
  studentListQuery,
  studentListResponse,
  studentSchema,
  studentUpdateBody,
} from '../../../contract/students';
import { currentUser } from '../../lib/auth';
import { StudentsService } from './students.service';

const langQuery = z.object({ language: languageQuery });

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
        response: { 200: studentListResponse, ...errorResponses },
      },
    },
    async (req) => ({ data: await service.list(currentUser(req), req.query.course_id) }),
  );

  app.get(
    '/api/students/:id',
    {
      config: { access: 'teacher' },
      schema: { tags: ['students'], params: idParams, querystring: langQuery, response: { 200: studentSchema, ...errorResponses } },
    },
    async (req) => service.get(currentUser(req), req.params.id),
  );

  app.post(
    '/api/students',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['students'],
        description: 'Creates a student of the calling teacher. The e-mail must be unique among all users (any case).',
        querystring: langQuery,
        body: studentCreateBody,
        response: { 201: studentSchema, ...errorResponses },
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
        description: 'A blank or missing password keeps the current one; a new password signs the student out everywhere.',
        params: idParams,
        querystring: langQuery,
        body: studentUpdateBody,
        response: { 200: studentSchema, ...errorResponses },
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
        response: { 200: studentSchema, ...errorResponses },
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
        description: 'Deletes the account with its tokens, enrolments, submissions and practice sessions.',
        params: idParams,
        querystring: langQuery,
        response: { 204: z.null(), ...errorResponses },
      },
    },
    async (req, reply) => {
      await service.remove(currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
}
