import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bodyErrors, errorResponsesOf, languageOnlyQuery } from '@contract/common';
import { pushEndpointBody, pushInfoSchema, pushSubscriptionBody, feedbackDigestBody, feedbackDigestSettingsSchema, notificationSettingsBody, notificationSettingsSchema, unsubscribeInfo, unsubscribeParams, weeklyNoteBody, weeklyNoteSettingsSchema } from '@contract/notifications';
import { forbidden, invalid } from '../../errors';
import { currentUser } from '../../lib/auth';
import { JOBS, scheduleOnce } from '../../lib/jobs';
import { requestLang } from '../../lib/lang';
import { LOGIN_BODY_LIMIT } from '../../lib/limits';
import { mailerOf } from '../../lib/mail';
import { Pusher, pushContact } from '../../lib/push';
import { reminderMessages, RemindersService } from './reminders.service';

/** How often the reminder job runs (across all processes), and how often each process looks whether it is due. */
export const REMINDER_INTERVAL_MS = 5 * 60 * 1000;
const REMINDER_CHECK_MS = 60 * 1000;
const REMINDER_FIRST_CHECK_MS = 30 * 1000;

const tags = ['notifications'];

export default async function remindersRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const pusher = new Pusher(app.deps.secret, pushContact(app.deps.config), app.deps.config.PUSH_SERVICE_HOSTS, app.log);
  const service = new RemindersService(app.deps.db, app.deps.config, app.deps.secret, app.log, pusher);
  /** Reminders, the digest and push notifications are for students and parents. */
  const pushUser = (req: Parameters<typeof currentUser>[0]) => {
    const user = currentUser(req);
    if (user.role !== 'student' && user.role !== 'guardian') throw forbidden();
    return user;
  };

  // Every few minutes, once across all server processes (server/lib/jobs.ts, docs/decisions/reminders.md).
  let job: ReturnType<typeof scheduleOnce> | null = null;
  app.addHook('onReady', async () => {
    job = scheduleOnce({
      db: app.deps.db,
      target: { kind: app.deps.dbKind, ...(app.deps.pool ? { pool: app.deps.pool } : {}) },
      name: JOBS.reminders,
      intervalMs: REMINDER_INTERVAL_MS,
      firstCheckMs: REMINDER_FIRST_CHECK_MS,
      checkMs: REMINDER_CHECK_MS,
      run: async () => {
        const mailer = mailerOf(app);
        await service.run(mailer);
        await service.runWeekly(mailer);
        await service.runDigest(mailer);
      },
      onError: (err) => app.log.error({ err }, 'practice reminders failed'),
    });
  });
  app.addHook('onClose', async () => {
    await job?.stop();
  });

  // RFC 8058: a mail program's one-click unsubscribe posts `List-Unsubscribe=One-Click` as a form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_req, body, done) => done(null, { form: String(body) }));

  app.get(
    '/api/notification-settings',
    {
      config: { access: 'any' },
      schema: {
        tags,
        description:
          "The daily practice reminder: the time of day (school time zone) or null, where it goes, and the quiet hours. A student's is about their own tasks, " +
          "a parent's about their children's (a child who has practised that day is not named). 403 for other roles.",
        querystring: languageOnlyQuery,
        response: { 200: notificationSettingsSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => {
      const user = pushUser(req);
      return service.settings(user.id, user.email, mailerOf(app) !== null);
    },
  );

  app.put(
    '/api/notification-settings',
    {
      config: { access: 'any' },
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: {
        tags,
        description:
          'Sets the daily practice reminder (students and parents; 403 for other roles) (`reminder_time` "HH:MM" in the school\'s time zone; null ends it). A time in the quiet hours ' +
          '(QUIET_HOURS) is refused: 422 errors.reminder_time. The mails are written in the language of this request.',
        querystring: languageOnlyQuery,
        body: notificationSettingsBody,
        response: { 200: notificationSettingsSchema, ...errorResponsesOf(401, 403), ...bodyErrors },
      },
    },
    async (req) => {
      const user = pushUser(req);
      const time = req.body.reminder_time;
      if (time !== null && service.isQuiet(time)) throw invalid({ reminder_time: reminderMessages.quietHours });
      await service.save(user.id, time, requestLang(req));
      return service.settings(user.id, user.email, mailerOf(app) !== null);
    },
  );

  app.get(
    '/api/guardian/weekly-note',
    {
      config: { access: 'guardian' },
      schema: {
        tags,
        description: 'The parent\'s weekly note about their children by e-mail (Sunday evening, school time zone): on or off, where it goes.',
        querystring: languageOnlyQuery,
        response: { 200: weeklyNoteSettingsSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => {
      const user = currentUser(req);
      return service.weeklySettings(user.id, user.email, mailerOf(app) !== null);
    },
  );

  app.put(
    '/api/guardian/weekly-note',
    {
      config: { access: 'guardian' },
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: {
        tags,
        description: 'Turns the weekly note on or off. The note is written in the language of this request.',
        querystring: languageOnlyQuery,
        body: weeklyNoteBody,
        response: { 200: weeklyNoteSettingsSchema, ...errorResponsesOf(401, 403), ...bodyErrors },
      },
    },
    async (req) => {
      const user = currentUser(req);
      await service.saveWeekly(user.id, req.body.weekly_note, requestLang(req));
      return service.weeklySettings(user.id, user.email, mailerOf(app) !== null);
    },
  );

  app.get(
    '/api/notification-settings/digest',
    {
      // a student's own takes, a parent's children's; nobody else has feedback to be told of
      config: { access: 'any' },
      schema: {
        tags,
        description: 'The daily digest of new feedback by e-mail (students and parents; 403 for other roles): on or off, where and when it comes.',
        querystring: languageOnlyQuery,
        response: { 200: feedbackDigestSettingsSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => {
      const user = currentUser(req);
      if (user.role !== 'student' && user.role !== 'guardian') throw forbidden();
      return service.digestSettings(user.id, user.email, mailerOf(app) !== null);
    },
  );

  app.put(
    '/api/notification-settings/digest',
    {
      config: { access: 'any' },
      bodyLimit: LOGIN_BODY_LIMIT,
      schema: {
        tags,
        description: 'Turns the daily feedback digest on or off (students and parents; 403 for other roles). It is written in the language of this request.',
        querystring: languageOnlyQuery,
        body: feedbackDigestBody,
        response: { 200: feedbackDigestSettingsSchema, ...errorResponsesOf(401, 403), ...bodyErrors },
      },
    },
    async (req) => {
      const user = currentUser(req);
      if (user.role !== 'student' && user.role !== 'guardian') throw forbidden();
      await service.saveDigest(user.id, req.body.feedback_digest, requestLang(req));
      return service.digestSettings(user.id, user.email, mailerOf(app) !== null);
    },
  );

  app.get(
    '/api/push',
    {
      config: { access: 'any' },
      schema: {
        tags,
        description: "Web Push (docs/decisions/web-push.md): the server's VAPID public key (applicationServerKey) and how many of the caller's devices are subscribed. Students and parents; 403 for other roles.",
        querystring: languageOnlyQuery,
        response: { 200: pushInfoSchema, ...errorResponsesOf(401, 403) },
      },
    },
    async (req) => service.pushInfo(pushUser(req).id),
  );

  app.put(
    '/api/push/subscription',
    {
      config: { access: 'any' },
      bodyLimit: 4096,
      schema: {
        tags,
        description:
          "Keeps this browser's push subscription (PushSubscription.toJSON()); from then on the practice reminder and the digest come to the device instead of by e-mail. " +
          'The endpoint must be an https address of a push service the server allows (PUSH_SERVICE_HOSTS), on port 443 unless the setting names another, without user or password; otherwise 422 errors.endpoint. Notifications are written in the language of this request.',
        querystring: languageOnlyQuery,
        body: pushSubscriptionBody,
        response: { 200: pushInfoSchema, ...errorResponsesOf(401, 403), ...bodyErrors },
      },
    },
    async (req) => service.subscribePush(pushUser(req).id, req.body, requestLang(req)),
  );

  app.delete(
    '/api/push/subscription',
    {
      config: { access: 'any' },
      bodyLimit: 4096,
      schema: {
        tags,
        description: "Forgets one of the caller's push subscriptions (by endpoint); the notifications come by e-mail again when no device is left.",
        querystring: languageOnlyQuery,
        body: pushEndpointBody,
        response: { 200: pushInfoSchema, ...errorResponsesOf(401, 403), ...bodyErrors },
      },
    },
    async (req) => service.unsubscribePush(pushUser(req).id, req.body.endpoint),
  );

  app.get(
    '/api/unsubscribe/:token',
    {
      // No sign-in: the signed token of the mail is the permission (for this user and this kind of mail only).
      config: { access: 'public' },
      schema: {
        tags,
        security: [],
        description: 'What an unsubscribe link of a mail stops, and whether it is still on. 404 for a token that is not signed by this server.',
        params: unsubscribeParams,
        querystring: languageOnlyQuery,
        response: { 200: unsubscribeInfo, ...errorResponsesOf(404) },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return service.describeUnsubscribe(req.params.token);
    },
  );

  app.post(
    '/api/unsubscribe/:token',
    {
      config: { access: 'public' },
      bodyLimit: 1024,
      schema: {
        tags,
        security: [],
        description:
          'Stops the mails of the link (RFC 8058 one-click: the List-Unsubscribe-Post of the mail, or the button of the page /abmelden/{token}). ' +
          'Repeating it changes nothing. 404 for a token that is not signed by this server.',
        params: unsubscribeParams,
        querystring: languageOnlyQuery,
        response: { 200: unsubscribeInfo, ...errorResponsesOf(404), ...bodyErrors },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      return service.unsubscribe(req.params.token);
    },
  );
}
