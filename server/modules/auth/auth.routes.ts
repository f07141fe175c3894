import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginBody, loginResponse, userSchema } from '@contract/auth';
import { bodyErrors, errorResponsesOf, languageOnlyQuery } from '@contract/common';
import { currentUser } from '../../lib/auth';
import { LOGIN_BODY_LIMIT } from '../../lib/limits';
import { AuthService, toUser } from './auth.service';

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new AuthService(app.deps.db);

  app.post(
    '/api/login',
    {
      config: { access: 'public' },
      bodyLimit: LOGIN_BODY_LIMIT, // an e-mail and a password: a few hundred bytes
      schema: {
        tags: ['auth'],
        security: [],
        querystring: languageOnlyQuery,
        body: loginBody,
        response: { 200: loginResponse, ...errorResponsesOf(401, 429), ...bodyErrors },
      },
    },
    async (req) => service.login(req.body.email, req.body.password, req.ip),
  );

  app.get(
    '/api/user',
    { config: { access: 'any' }, schema: { tags: ['auth'], querystring: languageOnlyQuery, response: { 200: userSchema, ...errorResponsesOf(401) } } },
    async (req) => toUser(currentUser(req)),
  );

  app.post(
    '/api/logout',
    {
      config: { access: 'any' },
      schema: { tags: ['auth'], querystring: languageOnlyQuery, response: { 204: z.null(), ...errorResponsesOf(401), ...bodyErrors } },
    },
    async (req, reply) => {
      await service.logout(currentUser(req));
      return reply.code(204).send(null);
    },
  );
}
