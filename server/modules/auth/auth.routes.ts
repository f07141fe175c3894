import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loginBody, loginResponse, userSchema } from '@contract/auth';
import { passwordResetBody, passwordResetPublic, passwordResetRequestBody, passwordResetRequested, passwordResetTokenParams, PASSWORD_RESET_VALID_MINUTES } from '@contract/password-reset';
import { bodyErrors, errorResponsesOf, languageOnlyQuery } from '@contract/common';
import { currentUser } from '../../lib/auth';
import { LOGIN_BODY_LIMIT } from '../../lib/limits';
import { requestLang } from '../../lib/lang';
import { mailerOf } from '../../lib/mail';
import { publicOrigin } from '../../lib/public-url';
import { AuthService, toUser } from './auth.service';
import { PasswordResetService, resetMailsSettled } from './password-reset';

export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new AuthService(app.deps.db);
  const resets = new PasswordResetService(app.deps.db, () => mailerOf(app), app.log);
  // reset mails still waiting for their moment (password-reset.ts) are sent before the app closes (at most 5 s)
  app.addHook('onClose', async () => {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([resetMailsSettled(), new Promise<void>((r) => (timer = setTimeout(r, 5000)))]);
    clearTimeout(timer);
  });

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

  app.post(
    '/api/password-reset',
    {
      config: { access: 'public' },
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: {
        tags: ['auth'],
        security: [],
        description:
          '"Passwort vergessen?": e-mails a one-time link `/passwort-neu/{token}` (valid ' +
          `${PASSWORD_RESET_VALID_MINUTES} minutes, once) to the account with this address, in the request's language. ` +
          'The answer is the same, and as fast, whether an account has the address or not; `mailed` is false only when the ' +
          'server sends no e-mails at all. 429 after 30 requests from one address within 15 minutes (a school behind one address); at most 3 links per e-mail ' +
          'address in that time (further requests are answered alike and send nothing).',
        querystring: languageOnlyQuery,
        body: passwordResetRequestBody,
        response: { 200: passwordResetRequested, ...errorResponsesOf(429), ...bodyErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return resets.request(req.body.email, req.ip, requestLang(req), publicOrigin(req, app.deps.config));
    },
  );

  app.get(
    '/api/password-reset/:token',
    {
      // No sign-in: the 43-character secret in the link is the permission.
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        security: [],
        description: 'Whose password a link sets (the page greets with it). 404 for an unknown, used, replaced or expired link.',
        params: passwordResetTokenParams,
        querystring: languageOnlyQuery,
        response: { 200: passwordResetPublic, ...errorResponsesOf(404) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return resets.describe(req.params.token);
    },
  );

  app.post(
    '/api/password-reset/:token',
    {
      config: { access: 'public' },
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: {
        tags: ['auth'],
        security: [],
        description:
          'Sets the new password (at least 8 characters, otherwise 422 errors.password), ends every session of the account and ' +
          'signs in: the answer of POST /api/login. The link works once: afterwards, and when unknown, replaced or expired, 404. ' +
          'Audit log: account.password_reset.',
        params: passwordResetTokenParams,
        querystring: languageOnlyQuery,
        body: passwordResetBody,
        response: { 200: loginResponse, ...errorResponsesOf(404), ...bodyErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return resets.reset(req.params.token, req.body.password);
    },
  );
}
