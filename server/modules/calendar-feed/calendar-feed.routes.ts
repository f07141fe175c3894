import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bodyErrors, errorResponsesOf, languageOnlyQuery } from '@contract/common';
import { CALENDAR_FEED_DAYS, calendarFeedParams, calendarFeedQuery, calendarFeedResponses, calendarSubscriptionSchema, type CalendarSubscription } from '@contract/reports';
import { currentUser } from '../../lib/auth';
import { requestLang } from '../../lib/lang';
import { publicOrigin } from '../../lib/public-url';
import { todayInZone } from '../../lib/time';
import { CalendarFeedService, type Subscription } from './calendar-feed.service';

/** The address of a subscription, at the app's public origin (server/lib/public-url.ts), never the request's Host. */
function addressOf(req: FastifyRequest, s: Subscription): CalendarSubscription {
  const origin = publicOrigin(req, req.server.deps.config);
  const path = `/calendar/${s.secret}.ics`;
  const lang = requestLang(req) === 'tr' ? '?language=tr' : '';
  return { url: `${origin}${path}${lang}`, webcal_url: `${origin.replace(/^https?:/, 'webcal:')}${path}${lang}`, created_at: s.createdAt.toISOString() };
}

export default async function calendarFeedRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const service = new CalendarFeedService(app.deps.db, app.deps.secret);

  app.get(
    '/api/calendar-subscription',
    {
      config: { access: 'user' },
      schema: {
        tags: ['calendar'],
        description:
          "The caller's private calendar address (made on first ask): their tasks (a teacher: their students' tasks) as all-day events " +
          'for phones and Outlook to subscribe to. Whoever holds the address can read the calendar; renewing ends it. ' +
          'In Turkish (language=tr) the address asks for a Turkish calendar.',
        querystring: languageOnlyQuery,
        response: { 200: calendarSubscriptionSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return addressOf(req, await service.get(currentUser(req)));
    },
  );

  app.post(
    '/api/calendar-subscription/renew',
    {
      config: { access: 'user' },
      schema: {
        tags: ['calendar'],
        description: 'A new private calendar address; the old one answers 404 from now on (subscriptions to it stop updating).',
        querystring: languageOnlyQuery,
        response: { 200: calendarSubscriptionSchema, ...errorResponsesOf(401, 403), ...bodyErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return addressOf(req, await service.renew(currentUser(req)));
    },
  );

  app.get(
    '/calendar/:file',
    {
      // No sign-in: the secret in the address is the permission (calendar apps send no token).
      config: { access: 'public' },
      schema: {
        tags: ['calendar'],
        security: [],
        description:
          'The calendar file (RFC 5545) of a private address `{secret}.ics` from GET /api/calendar-subscription: all-day events on the due dates, ' +
          `from ${CALENDAR_FEED_DAYS.back} days back to ${CALENDAR_FEED_DAYS.ahead} days ahead. Unknown or renewed address → 404.`,
        params: calendarFeedParams,
        querystring: calendarFeedQuery,
        response: calendarFeedResponses,
      },
    },
    async (req, reply) => {
      const body = await service.file(req.params.file, {
        today: todayInZone(app.deps.config.APP_TIMEZONE),
        lang: requestLang(req),
        origin: publicOrigin(req, app.deps.config),
      });
      return reply
        .header('content-type', 'text/calendar; charset=utf-8')
        .header('content-disposition', 'inline; filename="uebungskontrolle.ics"')
        .header('cache-control', 'private, no-cache')
        .header('x-robots-tag', 'noindex')
        .send(body);
    },
  );
}
