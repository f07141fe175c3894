import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginBody, loginResponse, userSchema } from '../../../contract/auth';
import { errorResponses } from '../../../contract/common';
import { currentUser } from '../../lib/auth';
import { AuthService, toUser } from './auth.service';

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new AuthService(app.deps.db);

  app.post(
    '/api/login',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], security: [], body: loginBody, response: { 200: loginResponse, ...errorResponses } },
    },
    async (req) => service.login(req.body.email, req.body.password, req.ip),
  );

  app.get(
    '/api/user',
    { config: { access: 'user' }, schema: { tags: ['auth'], response: { 200: userSchema, ...errorResponses } } },
    async (req) => toUser(currentUser(req)),
  );

  app.post(
    '/api/logout',
    { config: { access: 'user' }, schema: { tags: ['auth'], response: { 204: z.null(), ...errorResponses } } },
    async (req, reply) => {
      await service.logout(currentUser(req));
      return reply.code(204).send(null);
    },
  );
}
