import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bodyErrors, errorResponsesOf, languageOnlyQuery } from '../../../contract/common';
import { CALENDAR_FEED_DAYS, calendarFeedParams, calendarFeedQuery, calendarFeedResponses, calendarSubscriptionSchema, type CalendarSubscription } from '../../../contract/reports';
import { currentUser } from '../../lib/auth';
import { requestLang } from '../../lib/lang';
import { todayInZone } from '../../lib/time';
import { CalendarFeedService, type Subscription } from './calendar-feed.service';

/** The origin the caller reached us at (behind a trusted proxy: the forwarded protocol and host). */
function origin(req: FastifyRequest): string {
  return `${req.protocol}://${req.host}`;
}

function addressOf(req: FastifyRequest, s: Subscription): CalendarSubscription {
  const path = `/calendar/${s.secret}.ics`;
  const lang = requestLang(req) === 'tr' ? '?language=tr' : '';
  return { url: `${origin(req)}${path}${lang}`, webcal_url: `webcal://${req.host}${path}${lang}`, created_at: s.createdAt.toISOString() };
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
        origin: origin(req),
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
