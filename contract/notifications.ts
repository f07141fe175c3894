import { z } from 'zod';
import { emailText } from './common';
import { TIME_OF_DAY_PATTERN } from './notifications-limits';

// The limits without zod (the web app imports them from there).
export * from './notifications-limits';

/**
 * The daily practice reminder by e-mail (docs/decisions/reminders.md): a time of day in the school's
 * time zone, outside the quiet hours; sent at most once a day, only when a task is due and nothing
 * was practised that day.
 */

export const notificationSettingsSchema = z
  .object({
    /** 'HH:MM' in the school's time zone, or null: no reminder. */
    reminder_time: z.string().nullable(),
    /** The address the reminders go to (the account's). */
    email: emailText,
    /** The school sends e-mails at all (a mail server is configured). */
    mail_available: z.boolean(),
    /** No reminder in this stretch ('HH:MM' from, to). */
    quiet_hours: z.object({ from: z.string(), to: z.string() }),
    time_zone: z.string(),
  })
  .meta({ id: 'NotificationSettings' });
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const notificationSettingsBody = z.object({
  reminder_time: z.string().regex(new RegExp(TIME_OF_DAY_PATTERN)).nullable(),
});
export type NotificationSettingsBody = z.infer<typeof notificationSettingsBody>;

/** An unsubscribe link's token: `{user id}.{kind}.{43-character signature}`. */
export const UNSUBSCRIBE_KINDS = ['practice', 'weekly', 'digest'] as const;
export const unsubscribeParams = z.object({ token: z.string().max(200) });
export const unsubscribeInfo = z.object({ kind: z.enum(UNSUBSCRIBE_KINDS), name: z.string(), subscribed: z.boolean() }).meta({ id: 'UnsubscribeInfo' });
export type UnsubscribeInfo = z.infer<typeof unsubscribeInfo>;

/** A parent's weekly note (docs/decisions/reminders.md): sent on WEEKLY_NOTE_DAY at WEEKLY_NOTE_TIME, school time zone. */
export const WEEKLY_NOTE_TIME = '17:00';
/** Sunday (ISO weekday 7): the note closes the week. */
export const WEEKLY_NOTE_WEEKDAY = 7;

export const weeklyNoteSettingsSchema = z
  .object({
    weekly_note: z.boolean(),
    email: emailText,
    mail_available: z.boolean(),
    /** When it comes: ISO weekday and 'HH:MM' in the school's time zone. */
    sent_at: z.object({ weekday: z.number().int(), time: z.string() }),
    time_zone: z.string(),
  })
  .meta({ id: 'WeeklyNoteSettings' });
export type WeeklyNoteSettings = z.infer<typeof weeklyNoteSettingsSchema>;

export const weeklyNoteBody = z.object({ weekly_note: z.boolean() });
export type WeeklyNoteBody = z.infer<typeof weeklyNoteBody>;

/** The daily digest of new feedback (docs/decisions/reminders.md), at this time of the school's day. */
export const DIGEST_TIME = '18:00';

export const feedbackDigestSettingsSchema = z
  .object({
    feedback_digest: z.boolean(),
    email: emailText,
    mail_available: z.boolean(),
    time: z.string(),
    time_zone: z.string(),
  })
  .meta({ id: 'FeedbackDigestSettings' });
export type FeedbackDigestSettings = z.infer<typeof feedbackDigestSettingsSchema>;

export const feedbackDigestBody = z.object({ feedback_digest: z.boolean() });

/**
 * Web Push (docs/decisions/web-push.md): a browser's subscription as PushSubscription.toJSON()
 * gives it. The endpoint must be one of the server's known push services (PUSH_SERVICE_HOSTS).
 */
export const PUSH_LIMITS = { endpointMaxChars: 1024, perUser: 10 } as const;
export const pushSubscriptionBody = z
  .strictObject({
    endpoint: z
      .url({ protocol: /^https?$/ })
      .max(PUSH_LIMITS.endpointMaxChars)
      .meta({ examples: ['https://fcm.googleapis.com/fcm/send/dXNlci1kZXZpY2U'] }),
    expirationTime: z.number().nullable().optional(),
    // an uncompressed P-256 point (65 bytes, 0x04 first: 'B') and a 16-byte secret, base64url
    keys: z.strictObject({
      p256dh: z
        .string()
        .regex(/^B[A-Za-z0-9_-]{86}=?$/)
        .meta({ examples: ['BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM'] }),
      auth: z
        .string()
        .regex(/^[A-Za-z0-9_-]{22}(==)?$/)
        .meta({ examples: ['tBHItJI5svbpez7KI4CCXg'] }),
    }),
  })
  .meta({ id: 'PushSubscriptionBody' });
export type PushSubscriptionBody = z.infer<typeof pushSubscriptionBody>;
export const pushEndpointBody = z.strictObject({ endpoint: z.string().max(PUSH_LIMITS.endpointMaxChars) }).meta({ id: 'PushEndpointBody' });
export const pushInfoSchema = z
  .object({
    /** The server's VAPID public key (applicationServerKey), base64url. */
    public_key: z.string(),
    /** How many of the caller's devices receive notifications. */
    devices: z.number().int(),
  })
  .meta({ id: 'PushInfo' });
export type PushInfo = z.infer<typeof pushInfoSchema>;
