import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { rows, type Db } from '../../db/client';
import type { AppConfig } from '../../config';
import { invalid, notFound, type Lang, type Msg } from '../../errors';
import type { Mailer } from '../../lib/mail';
import type { PushMessage, Pusher, PushTarget } from '../../lib/push';
import { todayInZone } from '../../lib/time';
import { NEW_FEEDBACK_SQL } from '../recordings/recordings.repo';
import { DIGEST_TIME, PUSH_LIMITS, inQuietHours, type PushInfo, type PushSubscriptionBody, WEEKLY_NOTE_TIME, WEEKLY_NOTE_WEEKDAY, type FeedbackDigestSettings, type NotificationSettings, type UnsubscribeInfo, type WeeklyNoteSettings } from '@contract/notifications';

/**
 * The daily practice reminder by e-mail (docs/decisions/reminders.md).
 *
 * A student chooses a time of day (school time zone, outside QUIET_HOURS). A run of the job, every
 * few minutes and once across all processes, finds in one statement every student whose time has
 * come today, who has an open task due (today or in the last REMINDER_OVERDUE_DAYS days, not
 * expired) and who has not practised today, and claims the day's reminder for each by inserting
 * into reminders_sent (primary key: user, kind, school day). Only the claimed ones are mailed, so
 * a second run, a second process or a restart sends nothing twice; a mail that fails gives its
 * claim back for the next run. Nothing is sent in the quiet hours, even when a run comes late.
 */

export const REMINDER_KIND = 'practice';
export const WEEKLY_KIND = 'weekly';
export const DIGEST_KIND = 'digest';
type MailKind = typeof REMINDER_KIND | typeof WEEKLY_KIND | typeof DIGEST_KIND;
/** Takes named in a digest; the rest are counted. */
export const DIGEST_ITEMS_LISTED = 10;
/** Overdue open tasks count as still due for this many days (then the reminder stops nagging about them). */
export const REMINDER_OVERDUE_DAYS = 6;
/** Tasks named in a mail; the rest are counted. */
export const REMINDER_TASKS_LISTED = 3;
/** Mails handed to the mail server at once. */
const SEND_CONCURRENCY = 8;

export const reminderMessages = {
  quietHours: {
    de: 'Diese Uhrzeit liegt in der Nachtruhe der Schule. Erinnerungen gibt es nur außerhalb davon.',
    tr: 'Bu saat okulun gece sessizlik saatlerine denk geliyor. Hatırlatmalar yalnızca bu aralığın dışında gönderilir.',
  },
  linkInvalid: {
    de: 'Dieser Abmeldelink ist ungültig.',
    tr: 'Bu abonelikten çıkma bağlantısı geçersiz.',
  },
  pushServiceRefused: {
    de: 'Dieser Push-Dienst wird nicht unterstützt. Die Benachrichtigungen kommen weiter per E-Mail.',
    tr: 'Bu anlık bildirim hizmeti desteklenmiyor. Bildirimler e-postayla gelmeye devam eder.',
  },
} satisfies Record<string, Msg>;

export function quietHoursOf(config: Pick<AppConfig, 'QUIET_HOURS'>): { from: string; to: string } {
  const [from, to] = config.QUIET_HOURS.split('-') as [string, string];
  return { from, to };
}

/** 'HH:MM' of an instant in a time zone. */
export function timeInZone(instant: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(instant);
}

/** The school's date `days` before a calendar date. */
function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

// ---- unsubscribe links -------------------------------------------------------------------------------

function signature(secret: string, userId: number, kind: string): string {
  return createHmac('sha256', secret).update(`unsubscribe:${userId}:${kind}`).digest('base64url');
}

/** `{user id}.{kind}.{HMAC}`: works without a stored secret, forever, and only for this user and kind. */
export function unsubscribeToken(secret: string, userId: number, kind: MailKind = REMINDER_KIND): string {
  return `${userId}.${kind}.${signature(secret, userId, kind)}`;
}

function verifyToken(secret: string, token: string): { userId: number; kind: MailKind } | null {
  const m = /^(\d{1,10})\.(practice|weekly|digest)\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return null;
  const userId = Number(m[1]);
  const kind = m[2] as MailKind;
  const expected = Buffer.from(signature(secret, userId, kind));
  const given = Buffer.from(m[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { userId, kind };
}

/** ISO weekday (1 Monday … 7 Sunday) of a calendar date. */
function isoWeekday(date: string): number {
  return new Date(`${date}T12:00:00Z`).getUTCDay() || 7;
}

// ---- the run -----------------------------------------------------------------------------------------

type DueRow = {
  user_id: number;
  name: string;
  email: string;
  role: 'student' | 'guardian';
  language: Lang;
  reminder_time: string;
  tasks: Array<{ id: number; title: string; due_date: string; student_id: number; child: string }>;
  due_count: number | string;
};

/** What a run did: claimed, delivered (`sent`, of which `pushed` by Web Push instead of e-mail), failed (claim given back). */
export type ReminderRun = { today: string; time: string; quiet: boolean; claimed: number; sent: number; pushed: number; failed: number };

/** How long a push service keeps a reminder for a device that is off: a practice reminder is stale by night. */
const PUSH_TTL_SECONDS = 4 * 3600;

export class RemindersService {
  constructor(
    private readonly db: Db,
    private readonly config: Pick<AppConfig, 'APP_TIMEZONE' | 'QUIET_HOURS' | 'PUBLIC_URL' | 'PORT'>,
    private readonly secret: string,
    private readonly log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>,
    /** Web Push (docs/decisions/web-push.md): a user with a subscribed device gets the notification there instead of a mail. */
    private readonly push: Pusher | null = null,
  ) {}

  /** The server's VAPID key and how many of the user's devices are subscribed. */
  async pushInfo(userId: number): Promise<PushInfo> {
    const [n] = await rows<{ n: number }>(this.db, sql`select count(*)::int as n from push_subscriptions where user_id = ${userId}`);
    return { public_key: this.push?.keys.publicKey ?? '', devices: Number(n?.n ?? 0) };
  }

  /**
   * Keeps a browser's subscription for the user (a device that changes hands changes owner), at
   * most PUSH_LIMITS.perUser per user (the oldest goes). Only endpoints of the allowed push services.
   */
  async subscribePush(userId: number, body: PushSubscriptionBody, lang: Lang): Promise<PushInfo> {
    if (!this.push?.allowed(body.endpoint)) throw invalid({ endpoint: reminderMessages.pushServiceRefused });
    await this.db.transaction(async (tx) => {
      await tx.execute(sql`select id from users where id = ${userId} for no key update`);
      await tx.execute(
        sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth, language)
            values (${userId}, ${body.endpoint}, ${body.keys.p256dh}, ${body.keys.auth}, ${lang})
            on conflict (endpoint) do update set user_id = excluded.user_id, p256dh = excluded.p256dh, auth = excluded.auth, language = excluded.language`,
      );
      await tx.execute(
        sql`delete from push_subscriptions where user_id = ${userId} and id not in
              (select id from push_subscriptions where user_id = ${userId} order by id desc limit ${PUSH_LIMITS.perUser})`,
      );
    });
    return this.pushInfo(userId);
  }

  /** Forgets one of the user's subscriptions (another user's endpoint: nothing happens). */
  async unsubscribePush(userId: number, endpoint: string): Promise<PushInfo> {
    await this.db.execute(sql`delete from push_subscriptions where user_id = ${userId} and endpoint = ${endpoint}`);
    return this.pushInfo(userId);
  }

  /** The push subscriptions of these users, in one query. */
  private async subscriptionsOf(userIds: number[]): Promise<Map<number, PushTarget[]>> {
    const out = new Map<number, PushTarget[]>();
    if (!this.push || userIds.length === 0) return out;
    const found = await rows<PushTarget & { user_id: number }>(
      this.db,
      sql`select id, user_id, endpoint, p256dh, auth, language from push_subscriptions where user_id in (${sql.join(userIds.map((id) => sql`${id}`), sql`, `)}) order by id`,
    );
    for (const f of found) {
      const list = out.get(Number(f.user_id)) ?? [];
      list.push({ id: Number(f.id), endpoint: f.endpoint, p256dh: f.p256dh, auth: f.auth, language: f.language === 'tr' ? 'tr' : 'de' });
      out.set(Number(f.user_id), list);
    }
    return out;
  }

  /** Pushes to every device of a user; true when at least one took it. A subscription the push service forgot is deleted. */
  private async pushTo(targets: PushTarget[] | undefined, message: (lang: Lang) => PushMessage): Promise<boolean> {
    if (!this.push || !targets?.length) return false;
    let delivered = false;
    for (const target of targets) {
      // in the language of the page that subscribed the device
      const outcome = await this.push.send(target, message(target.language), PUSH_TTL_SECONDS);
      if (outcome === 'sent') delivered = true;
      else if (outcome === 'gone') await this.db.execute(sql`delete from push_subscriptions where id = ${target.id}`);
    }
    return delivered;
  }

  /**
   * Counts one claimed delivery. A failed one gives its claim back: the next run (still that day,
   * outside the quiet hours) tries again.
   */
  private async settle(result: ReminderRun, outcome: 'pushed' | 'mailed' | 'failed', userId: number, kind: string, today: string): Promise<void> {
    if (outcome === 'failed') {
      result.failed++;
      await this.db.execute(sql`delete from reminders_sent where user_id = ${userId} and kind = ${kind} and local_date = ${today}`);
      return;
    }
    result.sent++;
    if (outcome === 'pushed') result.pushed++;
  }

  /** Whether a run can reach anyone: by mail, or by push to subscribed devices. */
  private reachable(mailer: Mailer | null, user: SQL): SQL {
    return mailer ? sql`true` : this.push ? sql`exists (select 1 from push_subscriptions ps where ps.user_id = ${user})` : sql`false`;
  }

  private origin(): string {
    return this.config.PUBLIC_URL ?? `http://localhost:${this.config.PORT}`;
  }

  async settings(userId: number, email: string, mailAvailable: boolean): Promise<NotificationSettings> {
    const [row] = await rows<{ reminder_time: string | null }>(this.db, sql`select reminder_time from notification_settings where user_id = ${userId}`);
    return {
      reminder_time: row?.reminder_time ?? null,
      email,
      mail_available: mailAvailable,
      quiet_hours: quietHoursOf(this.config),
      time_zone: this.config.APP_TIMEZONE,
    };
  }

  /** Sets (or, with null, ends) the reminder; the language of the request becomes the mails' language. */
  async save(userId: number, reminderTime: string | null, lang: Lang): Promise<void> {
    await this.db.execute(sql`
      insert into notification_settings (user_id, reminder_time, language) values (${userId}, ${reminderTime}, ${lang})
      on conflict (user_id) do update set reminder_time = excluded.reminder_time, language = excluded.language, updated_at = now()`);
  }

  async weeklySettings(userId: number, email: string, mailAvailable: boolean): Promise<WeeklyNoteSettings> {
    const [row] = await rows<{ weekly_note: boolean }>(this.db, sql`select weekly_note from notification_settings where user_id = ${userId}`);
    return {
      weekly_note: row?.weekly_note === true,
      email,
      mail_available: mailAvailable,
      sent_at: { weekday: WEEKLY_NOTE_WEEKDAY, time: WEEKLY_NOTE_TIME },
      time_zone: this.config.APP_TIMEZONE,
    };
  }

  /** A parent turns the weekly note on or off; the language of the request becomes the note's. */
  async saveWeekly(userId: number, enabled: boolean, lang: Lang): Promise<void> {
    await this.db.execute(sql`
      insert into notification_settings (user_id, weekly_note, language) values (${userId}, ${enabled}, ${lang})
      on conflict (user_id) do update set weekly_note = excluded.weekly_note, language = excluded.language, updated_at = now()`);
  }

  async digestSettings(userId: number, email: string, mailAvailable: boolean): Promise<FeedbackDigestSettings> {
    const [row] = await rows<{ feedback_digest: boolean }>(this.db, sql`select feedback_digest from notification_settings where user_id = ${userId}`);
    return { feedback_digest: row?.feedback_digest === true, email, mail_available: mailAvailable, time: DIGEST_TIME, time_zone: this.config.APP_TIMEZONE };
  }

  async saveDigest(userId: number, enabled: boolean, lang: Lang): Promise<void> {
    await this.db.execute(sql`
      insert into notification_settings (user_id, feedback_digest, language) values (${userId}, ${enabled}, ${lang})
      on conflict (user_id) do update set feedback_digest = excluded.feedback_digest, language = excluded.language, updated_at = now()`);
  }

  isQuiet(time: string): boolean {
    const q = quietHoursOf(this.config);
    return inQuietHours(time, q.from, q.to);
  }

  async describeUnsubscribe(token: string): Promise<UnsubscribeInfo> {
    const v = verifyToken(this.secret, token);
    if (!v) throw notFound(reminderMessages.linkInvalid);
    const [u] = await rows<{ name: string; reminder_time: string | null; weekly_note: boolean | null; feedback_digest: boolean | null }>(
      this.db,
      sql`select u.name, ns.reminder_time, ns.weekly_note, ns.feedback_digest from users u left join notification_settings ns on ns.user_id = u.id where u.id = ${v.userId}`,
    );
    if (!u) throw notFound(reminderMessages.linkInvalid);
    const subscribed = v.kind === WEEKLY_KIND ? u.weekly_note === true : v.kind === DIGEST_KIND ? u.feedback_digest === true : u.reminder_time !== null;
    return { kind: v.kind, name: u.name, subscribed };
  }

  /** One click (RFC 8058) or the page's button: the reminder ends. Repeating it changes nothing. */
  async unsubscribe(token: string): Promise<UnsubscribeInfo> {
    const info = await this.describeUnsubscribe(token);
    const v = verifyToken(this.secret, token)!;
    if (v.kind === WEEKLY_KIND) await this.db.execute(sql`update notification_settings set weekly_note = false, updated_at = now() where user_id = ${v.userId}`);
    else if (v.kind === DIGEST_KIND) await this.db.execute(sql`update notification_settings set feedback_digest = false, updated_at = now() where user_id = ${v.userId}`);
    else await this.db.execute(sql`update notification_settings set reminder_time = null, updated_at = now() where user_id = ${v.userId}`);
    if (info.subscribed) this.log.info({ kind: v.kind }, 'reminder unsubscribed');
    return { ...info, subscribed: false };
  }

  /**
   * One run at `now`: claims and mails the reminders due. Returns what it did (the tests and the
   * bench read it). Without a mailer nothing is claimed.
   */
  async run(mailer: Mailer | null, now: Date = new Date()): Promise<ReminderRun> {
    const tz = this.config.APP_TIMEZONE;
    const today = todayInZone(tz, now);
    const time = timeInZone(now, tz);
    const quiet = this.isQuiet(time);
    const result: ReminderRun = { today, time, quiet, claimed: 0, sent: 0, pushed: 0, failed: 0 };
    if (quiet || (!mailer && !this.push)) return result;
    const from = daysBefore(today, REMINDER_OVERDUE_DAYS);
    // The students a reminder is about: the student themself, or a parent's children (a student
    // follows no one, so one condition serves both) who have an open task due and have not started
    // a session today.
    // (a union, not `c.id = user or c.id in (…)`: each branch finds its rows by index)
    const children = (user: SQL) =>
      sql`(select ${user} as sid union all select l.student_id from guardian_links l where l.guardian_id = ${user}) k
          join users c on c.id = k.sid and c.role = 'student' and c.deactivated_at is null`;
    const openDue = (student: SQL) =>
      sql`s.student_id = ${student} and s.completed_at is null and s.due_date between ${from} and ${today}
          and (s.expiration_date is null or s.expiration_date >= ${today})`;
    const notPractised = (student: SQL) =>
      sql`not exists (select 1 from practice_sessions p where p.student_id = ${student} and p.started_at >= (${today}::timestamp at time zone ${tz}))`;
    // One statement: who is due, the claim of today's reminder, and what to name in the mail.
    const due = await rows<DueRow>(
      this.db,
      sql`with due as (
            select ns.user_id, ns.language, ns.reminder_time, u.name, u.email, u.role
              from notification_settings ns
              join users u on u.id = ns.user_id and u.role in ('student', 'guardian') and u.deactivated_at is null
             where ns.reminder_time is not null and ns.reminder_time <= ${time}
               and ${this.reachable(mailer, sql`ns.user_id`)}
               and exists (select 1 from ${children(sql`ns.user_id`)} join submissions s on ${openDue(sql`c.id`)} where ${notPractised(sql`c.id`)})
               and not exists (select 1 from reminders_sent r
                                where r.user_id = ns.user_id and r.kind = ${REMINDER_KIND} and r.local_date = ${today})
          ), claimed as (
            insert into reminders_sent (user_id, kind, local_date)
            select user_id, ${REMINDER_KIND}, ${today}::date from due
            on conflict do nothing
            returning user_id
          )
          select d.user_id, d.name, d.email, d.role, d.language, d.reminder_time,
                 coalesce((select json_agg(json_build_object('id', t.id, 'title', t.exercise_title, 'due_date', t.due_date, 'student_id', t.student_id, 'child', t.child)
                                           order by t.due_date, t.id)
                             from (select s.id, s.exercise_title, s.due_date, s.student_id, c.name as child
                                     from ${children(sql`d.user_id`)} join submissions s on ${openDue(sql`c.id`)}
                                    where ${notPractised(sql`c.id`)}
                                    order by s.due_date, s.id limit ${REMINDER_TASKS_LISTED}) t), '[]'::json) as tasks,
                 (select count(*) from ${children(sql`d.user_id`)} join submissions s on ${openDue(sql`c.id`)}
                   where ${notPractised(sql`c.id`)}) as due_count
            from due d join claimed c on c.user_id = d.user_id`,
    );
    result.claimed = due.length;
    const origin = this.origin();
    const devices = await this.subscriptionsOf(due.map((r) => Number(r.user_id)));
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const r = due[next++]!;
        const lang = r.language === 'tr' ? 'tr' : 'de';
        const parent = r.role === 'guardian';
        const first = r.tasks[0];
        const others = Number(r.due_count) - 1;
        const children = [...new Set(r.tasks.map((t) => t.child))];
        // a student's task, or a parent's child's page (a parent opens no task of their own)
        const taskPath = (t: DueRow['tasks'][number]) => (parent ? `/children/${t.student_id}` : `/submissions/${t.id}`);
        const pushed = await this.pushTo(devices.get(Number(r.user_id)), (lang) => ({
          title: parent
            ? lang === 'tr'
              ? `${children.join(', ')} bugün henüz çalışmadı`
              : `${children.join(', ')} ${children.length > 1 ? 'haben' : 'hat'} heute noch nicht geübt`
            : lang === 'tr'
              ? 'Çalışma zamanı'
              : 'Zeit zum Üben',
          body: !first
            ? lang === 'tr'
              ? 'Bugün bir ödev var.'
              : 'Heute ist eine Aufgabe fällig.'
            : parent
              ? lang === 'tr'
                ? `Bugün: ${first.title}${others > 0 ? ` ve ${others} ödev daha` : ''}`
                : `Fällig: ${first.title}${others > 0 ? ` und ${others} weitere` : ''}`
              : lang === 'tr'
                ? `${first.title}${others > 0 ? ` ve ${others} ödev daha` : ''} seni bekliyor.`
                : `${first.title}${others > 0 ? ` und ${others} weitere Aufgabe${others === 1 ? '' : 'n'}` : ''} ${others > 0 ? 'warten' : 'wartet'} auf dich.`,
          url: first && (parent ? children.length === 1 : Number(r.due_count) === 1) ? taskPath(first) : parent ? '/' : '/submissions',
          tag: `practice-${today}`,
        }));
        const token = unsubscribeToken(this.secret, r.user_id);
        const mailed =
          !pushed && mailer
            ? await mailer.sendReminder({
                to: r.email,
                name: r.name,
                lang,
                audience: parent ? 'guardian' : 'student',
                tasks: r.tasks.map((t) => ({ title: t.title, dueDate: String(t.due_date).slice(0, 10), url: `${origin}${taskPath(t)}`, child: parent ? t.child : null })),
                listUrl: parent ? `${origin}/` : `${origin}/submissions`,
                more: Math.max(0, Number(r.due_count) - r.tasks.length),
                reminderTime: r.reminder_time,
                today,
                unsubscribePage: `${origin}/abmelden/${token}`,
                unsubscribeUrl: `${origin}/api/unsubscribe/${token}`,
              })
            : false;
        await this.settle(result, pushed ? 'pushed' : mailed ? 'mailed' : 'failed', r.user_id, REMINDER_KIND, today);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, due.length) }, worker));
    if (due.length) this.log.info({ today, claimed: result.claimed, sent: result.sent, failed: result.failed }, 'practice reminders');
    return result;
  }

  /**
   * The weekly note (docs/decisions/reminders.md): on Sundays from WEEKLY_NOTE_TIME, every parent who
   * opted in and follows a child gets one mail, claimed like the reminders (kind 'weekly', that
   * Sunday), with each child's last seven school days: minutes of finished sessions by start (as
   * the parent's overview counts them), the minutes the week's tasks planned, the week's tasks done
   * and open, and recordings with feedback the child has not seen yet.
   */
  async runWeekly(mailer: Mailer | null, now: Date = new Date()): Promise<ReminderRun> {
    const tz = this.config.APP_TIMEZONE;
    const today = todayInZone(tz, now);
    const time = timeInZone(now, tz);
    const quiet = this.isQuiet(time);
    const result: ReminderRun = { today, time, quiet, claimed: 0, sent: 0, pushed: 0, failed: 0 };
    if (quiet || !mailer || isoWeekday(today) !== WEEKLY_NOTE_WEEKDAY || time < WEEKLY_NOTE_TIME) return result;
    const from = daysBefore(today, 6);
    const weekStart = sql`(${from}::date::timestamp at time zone ${tz})`;
    const tomorrow = sql`((${today}::date + 1)::timestamp at time zone ${tz})`;
    const due = await rows<{
      user_id: number;
      name: string;
      email: string;
      language: Lang;
      children: Array<{
        id: number;
        name: string;
        teacher: string;
        minutes: number | string;
        planned: number | string;
        done: number;
        open: number;
        feedback: number;
        note: { text: string; at: string } | null;
      }>;
    }>(
      this.db,
      sql`with due as (
            select ns.user_id, ns.language, g.name, g.email
              from notification_settings ns
              join users g on g.id = ns.user_id and g.role = 'guardian' and g.deactivated_at is null
             where ns.weekly_note
               and exists (select 1 from guardian_links l where l.guardian_id = ns.user_id and l.school_id = g.school_id)
               and not exists (select 1 from reminders_sent r where r.user_id = ns.user_id and r.kind = ${WEEKLY_KIND} and r.local_date = ${today})
          ), claimed as (
            insert into reminders_sent (user_id, kind, local_date)
            select user_id, ${WEEKLY_KIND}, ${today}::date from due
            on conflict do nothing
            returning user_id
          )
          select d.user_id, d.name, d.email, d.language,
                 coalesce((
                   select json_agg(json_build_object(
                            'id', c.id, 'name', c.name, 'teacher', t.name,
                            'minutes', coalesce((select sum(p.duration_minutes) from practice_sessions p
                                                  where p.student_id = c.id and p.school_id = c.school_id and p.ended_at is not null
                                                    and p.started_at >= ${weekStart} and p.started_at < ${tomorrow}), 0),
                            'planned', coalesce((select sum(e.estimated_minutes) from submissions s join exercises e on e.id = s.exercise_id and e.school_id = s.school_id
                                                  where s.student_id = c.id and s.school_id = c.school_id and s.due_date between ${from} and ${today}), 0),
                            'done', (select count(*) from submissions s where s.student_id = c.id and s.school_id = c.school_id
                                       and s.due_date between ${from} and ${today} and s.completed_at is not null),
                            'open', (select count(*) from submissions s where s.student_id = c.id and s.school_id = c.school_id
                                       and s.due_date between ${from} and ${today} and s.completed_at is null),
                            'feedback', (select count(*) from recordings r where r.student_id = c.id and r.school_id = c.school_id and ${NEW_FEEDBACK_SQL}),
                            'note', (select json_build_object('text', m.body, 'at', m.created_at) from messages m
                                      where m.student_id = c.id and m.school_id = c.school_id and m.kind = 'lesson_note'
                                        and m.created_at >= ${weekStart} and m.created_at < ${tomorrow}
                                      order by m.id desc limit 1)
                          ) order by lower(c.name), c.id)
                     from guardian_links l
                     join users c on c.id = l.student_id and c.role = 'student' and c.school_id = l.school_id
                     join users t on t.id = c.teacher_id and t.school_id = c.school_id
                    where l.guardian_id = d.user_id), '[]'::json) as children
            from due d join claimed c on c.user_id = d.user_id`,
    );
    result.claimed = due.length;
    const origin = this.origin();
    for (const r of due) {
      const token = unsubscribeToken(this.secret, r.user_id, WEEKLY_KIND);
      const mailed = await mailer.sendWeeklyNote({
        to: r.email,
        name: r.name,
        lang: r.language === 'tr' ? 'tr' : 'de',
        from,
        until: today,
        time: WEEKLY_NOTE_TIME,
        children: r.children.map((c) => ({
          name: c.name,
          teacher: c.teacher,
          minutes: Number(c.minutes),
          plannedMinutes: Number(c.planned),
          done: Number(c.done),
          open: Number(c.open),
          newFeedback: Number(c.feedback),
          url: `${origin}/children/${c.id}`,
          lessonNote: c.note ? { text: c.note.text, date: todayInZone(tz, new Date(c.note.at)) } : null,
        })),
        unsubscribePage: `${origin}/abmelden/${token}`,
        unsubscribeUrl: `${origin}/api/unsubscribe/${token}`,
      });
      await this.settle(result, mailed ? 'mailed' : 'failed', r.user_id, WEEKLY_KIND, today);
    }
    if (due.length) this.log.info({ today, claimed: result.claimed, sent: result.sent, failed: result.failed }, 'weekly notes');
    return result;
  }

  /**
   * The daily feedback digest: from DIGEST_TIME, every student or parent who opted in and has
   * feedback from the last 24 hours that the child has not seen yet gets one mail (claimed like the
   * reminders, kind 'digest', that day) listing those takes, each linked to its newest comment.
   * Feedback the child already looked at in the app is not mailed.
   */
  async runDigest(mailer: Mailer | null, now: Date = new Date()): Promise<ReminderRun> {
    const tz = this.config.APP_TIMEZONE;
    const today = todayInZone(tz, now);
    const time = timeInZone(now, tz);
    const quiet = this.isQuiet(time);
    const result: ReminderRun = { today, time, quiet, claimed: 0, sent: 0, pushed: 0, failed: 0 };
    if (quiet || (!mailer && !this.push) || time < DIGEST_TIME) return result;
    const since = new Date(now.getTime() - 24 * 60 * 60 * 1000);
    const mine = (user: SQL) =>
      sql`(r.student_id = ${user} or r.student_id in (select l.student_id from guardian_links l where l.guardian_id = ${user}))
          and r.feedback_at > ${since} and ${NEW_FEEDBACK_SQL}`;
    // messages from others in the user's conversations (docs/decisions/messages.md) written in the
    // last 24 hours and not read in the app
    const unreadMessages = (user: SQL) =>
      sql`(m.student_id = ${user} or m.student_id in (select l.student_id from guardian_links l where l.guardian_id = ${user}))
          and m.created_at > ${since} and m.author_id is distinct from ${user}
          and m.id > coalesce((select mr.last_read_id from message_reads mr where mr.user_id = ${user} and mr.student_id = m.student_id), 0)`;
    const due = await rows<{
      user_id: number;
      name: string;
      email: string;
      role: 'student' | 'guardian';
      language: Lang;
      items: Array<{ recording_id: number; submission_id: number; student_id: number; child: string; task: string; teacher: string; comment_id: number | null; at_ms: number | null }>;
      total: number | string;
      messages: Array<{ student_id: number; child: string; count: number | string }>;
    }>(
      this.db,
      sql`with due as (
            select ns.user_id, ns.language, u.name, u.email, u.role
              from notification_settings ns
              join users u on u.id = ns.user_id and u.deactivated_at is null and u.role in ('student', 'guardian')
             where ns.feedback_digest and ${this.reachable(mailer, sql`ns.user_id`)}
               and not exists (select 1 from reminders_sent rs where rs.user_id = ns.user_id and rs.kind = ${DIGEST_KIND} and rs.local_date = ${today})
               and (exists (select 1 from recordings r where ${mine(sql`ns.user_id`)})
                    or exists (select 1 from messages m where ${unreadMessages(sql`ns.user_id`)}))
          ), claimed as (
            insert into reminders_sent (user_id, kind, local_date)
            select user_id, ${DIGEST_KIND}, ${today}::date from due
            on conflict do nothing
            returning user_id
          )
          select d.user_id, d.name, d.email, d.role, d.language,
                 coalesce((select json_agg(x order by x.feedback_at desc, x.recording_id desc) from (
                   select r.id as recording_id, r.submission_id, r.student_id, r.feedback_at, c.name as child, s.exercise_title as task, t.name as teacher,
                          lc.id as comment_id, lc.at_ms
                     from recordings r
                     join users c on c.id = r.student_id and c.school_id = r.school_id
                     join submissions s on s.id = r.submission_id and s.school_id = r.school_id
                     join users t on t.id = r.teacher_id and t.school_id = r.school_id
                     left join lateral (
                       select rc.id, rc.at_ms from recording_comments rc where rc.recording_id = r.id and rc.school_id = r.school_id
                       order by rc.updated_at desc, rc.id desc limit 1
                     ) lc on true
                    where ${mine(sql`d.user_id`)}
                    order by r.feedback_at desc, r.id desc limit ${DIGEST_ITEMS_LISTED}) x), '[]'::json) as items,
                 (select count(*) from recordings r where ${mine(sql`d.user_id`)}) as total,
                 coalesce((select json_agg(json_build_object('student_id', x.student_id, 'child', x.child, 'count', x.n) order by lower(x.child), x.student_id) from (
                   select m.student_id, c.name as child, count(*) as n
                     from messages m join users c on c.id = m.student_id and c.school_id = m.school_id
                    where ${unreadMessages(sql`d.user_id`)}
                    group by m.student_id, c.name) x), '[]'::json) as messages
            from due d join claimed c on c.user_id = d.user_id`,
    );
    result.claimed = due.length;
    const origin = this.origin();
    const devices = await this.subscriptionsOf(due.map((r) => Number(r.user_id)));
    for (const r of due) {
      const student = r.role === 'student';
      const lang = r.language === 'tr' ? 'tr' : 'de';
      // the address the app's own feedback badge uses (web/lib/feedback-landing.ts)
      const takePath = (i: (typeof r.items)[number]) => {
        const q = new URLSearchParams({ take: String(i.recording_id) });
        if (i.at_ms !== null) q.set('t', String(i.at_ms));
        const path = student ? `/submissions/${i.submission_id}` : `/children/${i.student_id}`;
        return `${path}?${q.toString()}${i.comment_id !== null ? `#comment-${i.comment_id}` : ''}`;
      };
      const firstTake = r.items[0];
      const firstChat = r.messages[0];
      const unreadCount = r.messages.reduce((n, m) => n + Number(m.count), 0);
      const feedbackCount = Number(r.total);
      const pushed = await this.pushTo(devices.get(Number(r.user_id)), (lang) => ({
        title: firstTake ? (lang === 'tr' ? 'Yeni geri bildirim' : 'Neues Feedback') : lang === 'tr' ? 'Yeni mesajlar' : 'Neue Nachrichten',
        body: [
          firstTake ? `${student ? '' : `${firstTake.child}: `}${firstTake.task} (${firstTake.teacher})${feedbackCount > 1 ? (lang === 'tr' ? ` ve ${feedbackCount - 1} tane daha` : ` und ${feedbackCount - 1} weitere`) : ''}` : null,
          unreadCount > 0 ? (lang === 'tr' ? `${unreadCount} yeni mesaj` : unreadCount === 1 ? '1 neue Nachricht' : `${unreadCount} neue Nachrichten`) : null,
        ]
          .filter((x) => x !== null)
          .join(' · '),
        url: firstTake ? takePath(firstTake) : firstChat ? `/nachrichten/${firstChat.student_id}` : '/',
        tag: `digest-${today}`,
      }));
      const token = unsubscribeToken(this.secret, r.user_id, DIGEST_KIND);
      const mailed =
        !pushed && mailer
          ? await mailer.sendFeedbackDigest({
              to: r.email,
              name: r.name,
              lang,
              audience: student ? 'student' : 'guardian',
              items: r.items.map((i) => ({ child: student ? null : i.child, task: i.task, teacher: i.teacher, url: `${origin}${takePath(i)}` })),
              more: Math.max(0, feedbackCount - r.items.length),
              messages: r.messages.map((m) => ({ child: student ? null : m.child, count: Number(m.count), url: `${origin}/nachrichten/${m.student_id}` })),
              time: DIGEST_TIME,
              unsubscribePage: `${origin}/abmelden/${token}`,
              unsubscribeUrl: `${origin}/api/unsubscribe/${token}`,
            })
          : false;
      await this.settle(result, pushed ? 'pushed' : mailed ? 'mailed' : 'failed', r.user_id, DIGEST_KIND, today);
    }
    if (due.length) this.log.info({ today, claimed: result.claimed, sent: result.sent, failed: result.failed }, 'feedback digests');
    return result;
  }
}
