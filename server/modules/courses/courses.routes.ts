import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, idParams, languageQuery } from '../../../contract/common';
import { courseBody, courseListResponse, courseSchema } from '../../../contract/courses';
import { currentUser } from '../../lib/auth';
import { CoursesService } from './courses.service';

const langQuery = z.object({ language: languageQuery });

export default async function coursesRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new CoursesService(app.deps.db);

  app.get(
    '/api/courses',
    {
      config: { access: 'user', cache: true },
      schema: {
        tags: ['courses'],
        description: "A teacher gets their own courses, a student the courses they are enrolled in; by name.",
        querystring: langQuery,
        response: { 200: courseListResponse, ...errorResponses },
      },
    },
    async (req) => service.list(currentUser(req)),
  );

  app.get(
    '/api/courses/:id',
    {
      config: { access: 'teacher' },
      schema: { tags: ['courses'], params: idParams, querystring: langQuery, response: { 200: courseSchema, ...errorResponses } },
    },
    async (req) => service.get(currentUser(req), req.params.id),
  );

  app.post(
    '/api/courses',
    {
      config: { access: 'teacher' },
      schema: { tags: ['courses'], querystring: langQuery, body: courseBody, response: { 201: courseSchema, ...errorResponses } },
    },
    async (req, reply) => reply.code(201).send(await service.create(currentUser(req), req.body)),
  );

  app.put(
    '/api/courses/:id',
    {
      config: { access: 'teacher' },
      schema: { tags: ['courses'], params: idParams, querystring: langQuery, body: courseBody, response: { 200: courseSchema, ...errorResponses } },
    },
    async (req) => service.update(currentUser(req), req.params.id, req.body),
  );

  app.delete(
    '/api/courses/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['courses'],
        description: "Deletes the course and its enrolments; the course's submissions stay (course_id becomes null).",
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
