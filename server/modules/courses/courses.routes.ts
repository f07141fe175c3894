import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bodyErrors, errorResponsesOf, idParams, languageOnlyQuery } from '@contract/common';
import { courseBody, courseListResponse, courseSchema } from '@contract/courses';
import { currentUser } from '../../lib/auth';
import { CoursesService } from './courses.service';

const langQuery = languageOnlyQuery;

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
        response: { 200: courseListResponse, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => service.list(currentUser(req)),
  );

  app.get(
    '/api/courses/:id',
    {
      config: { access: 'teacher' },
      schema: { tags: ['courses'], params: idParams, querystring: langQuery, response: { 200: courseSchema, ...errorResponsesOf(401, 403, 404) } },
    },
    async (req) => service.get(currentUser(req), req.params.id),
  );

  app.post(
    '/api/courses',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['courses'],
        querystring: langQuery,
        body: courseBody,
        response: { 201: courseSchema, ...errorResponsesOf(401, 403, 409), ...bodyErrors },
      },
    },
    async (req, reply) => reply.code(201).send(await service.create(currentUser(req), req.body)),
  );

  app.put(
    '/api/courses/:id',
    {
      config: { access: 'teacher' },
      schema: {
        tags: ['courses'],
        params: idParams,
        querystring: langQuery,
        body: courseBody,
        response: { 200: courseSchema, ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
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
        response: { 204: z.null(), ...errorResponsesOf(401, 403, 404, 409), ...bodyErrors },
      },
    },
    async (req, reply) => {
      await service.remove(currentUser(req), req.params.id);
      return reply.code(204).send(null);
    },
  );
}
