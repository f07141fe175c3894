/**
 * `npm run bench -- --reminders`: the daily practice reminder run for a school of 1,000 students
 * (docs/decisions/reminders.md) on PostgreSQL, with three "processes" (three pools, as three server
 * processes have) starting the same run at the same moment, and a real SMTP server on loopback
 * that counts what arrives. Reported: how long the run takes (the one statement that finds and
 * claims, and the mails), how many mails arrived, and how many addresses got more than one.
 *
 *   npm run bench -- --reminders [--reminder-students 1000] [--pg-url postgres://…/postgres]
 */
import { sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import pg from 'pg';
import { migrateDb, openPostgres, rows } from '../server/db/client';
import { configSchema } from '../server/config';
import { NodemailerMailer } from '../server/lib/mail';
import { todayInZone } from '../server/lib/time';
import { RemindersService, timeInZone } from '../server/modules/reminders/reminders.service';
import { startTestSmtp } from '../server/test/smtp';

export type RemindersBench = {
  students: number;
  due: number;
  practisedToday: number;
  processes: number;
  run_ms: number;
  claimed: number;
  mails_received: number;
  addresses_with_more_than_one: number;
  second_run_claimed: number;
};

const DB = 'uk_bench_reminders';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

export async function runRemindersBench(o: { students?: number; pgUrl?: string; log: (m: string) => void }): Promise<RemindersBench> {
  const students = o.students ?? 1000;
  const adminUrl = o.pgUrl ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${DB}`;

  const main = await openPostgres(url.toString(), 5);
  await migrateDb(main);
  const tz = 'Europe/Berlin';
  // noon at the school today: outside the quiet hours, after everyone's reminder time
  const today = todayInZone(tz);
  const now = ['+01:00', '+02:00'].map((off) => new Date(`${today}T12:00:00${off}`)).find((d) => timeInZone(d, tz) === '12:00')!;
  o.log(`reminders: seeding ${students} students with a task due ${today} and a reminder at 07:00–11:45`);
  await main.db.execute(sql`insert into schools (name) values ('Bench-Musikschule')`);
  await main.db.execute(sql`insert into users (school_id, name, email, role, password_hash) select s.id, 'Lehrkraft', 'lehrkraft@bench.example', 'teacher', 'x' from schools s`);
  await main.db.execute(sql`
    insert into users (school_id, name, email, role, password_hash, teacher_id)
    select t.school_id, 'Schüler ' || g, 'schueler-' || g || '@bench.example', 'student', 'x', t.id
      from users t, generate_series(1, ${students}) g where t.role = 'teacher'`);
  await main.db.execute(sql`
    insert into submissions (school_id, student_id, teacher_id, exercise_title, series_id, due_date)
    select u.school_id, u.id, u.teacher_id, 'Tonleiter in G', gen_random_uuid(), ${today}::date from users u where u.role = 'student'`);
  await main.db.execute(sql`
    insert into notification_settings (user_id, reminder_time, language)
    select u.id, lpad((7 + (u.id % 5))::text, 2, '0') || ':' || lpad(((u.id % 4) * 15)::text, 2, '0'), case when u.id % 3 = 0 then 'tr' else 'de' end
      from users u where u.role = 'student'`);
  // every tenth student has practised this morning: no reminder for them
  await main.db.execute(sql`
    insert into practice_sessions (school_id, submission_id, student_id, started_at, ended_at, duration_minutes)
    select s.school_id, s.id, s.student_id, ${now}::timestamptz - interval '3 hours', ${now}::timestamptz - interval '170 minutes', 10 from submissions s where s.student_id % 10 = 0`);
  const [counts] = await rows<{ practised: number }>(main.db, sql`select count(distinct student_id)::int as practised from practice_sessions`);
  await main.db.execute(sql`analyze`);

  const smtp = await startTestSmtp();
  const config = configSchema.parse({ DATA_DIR: '/tmp', APP_TIMEZONE: tz, PUBLIC_URL: 'https://schule.example.org' });
  const processes = 3;
  const handles = await Promise.all(Array.from({ length: processes }, () => openPostgres(url.toString(), 5)));
  const transports = handles.map(() => nodemailer.createTransport({ url: smtp.url, pool: true, maxConnections: 4 }));
  const mailers = transports.map((t) => new NodemailerMailer(t, 'Bench <post@bench.example>', tz, silent));
  const services = handles.map((h) => new RemindersService(h.db, config, 'bench-secret-0123456789abcdefghijklmnop', silent));

  o.log(`reminders: ${processes} runs at once at ${now.toISOString()}`);
  const t0 = performance.now();
  const runs = await Promise.all(services.map((s, i) => s.run(mailers[i]!, now)));
  const runMs = performance.now() - t0;
  const again = await services[0]!.run(mailers[0]!, new Date(now.getTime() + 5 * 60_000));

  const perAddress = new Map<string, number>();
  for (const m of smtp.mails) for (const to of m.envelopeTo) perAddress.set(to, (perAddress.get(to) ?? 0) + 1);
  const result: RemindersBench = {
    students,
    due: students - counts!.practised,
    practisedToday: counts!.practised,
    processes,
    run_ms: Math.round(runMs),
    claimed: runs.reduce((n, r) => n + r.claimed, 0),
    mails_received: smtp.mails.length,
    addresses_with_more_than_one: [...perAddress.values()].filter((n) => n > 1).length,
    second_run_claimed: again.claimed,
  };
  for (const t of transports) t.close();
  await Promise.all(handles.map((h) => h.pool!.end()));
  await main.pool!.end();
  await smtp.close();
  return result;
}

export function formatReminders(r: RemindersBench): string {
  return [
    '',
    `== practice reminders: ${r.students} students, ${r.processes} runs at once (PostgreSQL, SMTP on loopback)`,
    `   due ${r.due} (${r.practisedToday} had practised), claimed ${r.claimed}, mails received ${r.mails_received}, addresses with more than one ${r.addresses_with_more_than_one}`,
    `   run ${r.run_ms} ms (find + claim + ${r.mails_received} mails); a run five minutes later claimed ${r.second_run_claimed}`,
  ].join('\n');
}
