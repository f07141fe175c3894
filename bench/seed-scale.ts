/**
 * Scale data for the benchmarks: a whole music school generated in SQL (INSERT … SELECT over
 * generate_series), so half a million tasks and a million practice sessions take minutes, not
 * hours. The argon2 hash is computed once and shared by every account.
 *
 *   npx tsx bench/seed-scale.ts --pg [postgres://…/uk_bench] [--preset school] [--reset]
 *   npx tsx bench/seed-scale.ts --pglite <DATA_DIR> [--preset small]
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MIGRATIONS_DIR, migrateDb, openPglite, openPostgres, rows, type Db, type DbHandle, type DbOrTx } from '../server/db/client';
import { hashPassword } from '../server/lib/passwords';
import { todayInZone } from '../server/lib/time';

export const BENCH_PASSWORD = 'bench-passwort-1234';
export const teacherEmail = (n: number) => `bench-t${n}@bench.example`;
export const studentEmail = (n: number) => `bench-s${n}@bench.example`;

export type ScalePreset = {
  teachers: number;
  students: number;
  /** Students of teacher 1 (the big one: calendar and assignment budgets name 200). */
  bigTeacherStudents: number;
  pastDays: number;
  futureDays: number;
  /** Share of (student, day) pairs that carry a task. */
  taskRate: number;
  exercisesPerTeacher: number;
  coursesPerTeacher: number;
  /** Recordings of teacher 1's students (the inbox budget names 5,000): rows only, no files. None when left out. */
  recordings?: number;
};

export const PRESETS = {
  /** 20 teachers, 1,000 students, three years: ~500k tasks, ~1M practice sessions, 5,000 recordings of teacher 1's students. */
  school: { teachers: 20, students: 1000, bigTeacherStudents: 200, pastDays: 1095, futureDays: 14, taskRate: 0.45, exercisesPerTeacher: 40, coursesPerTeacher: 3, recordings: 5000 },
  /** For the embedded database: one teacher, 100 students, a year, 1,000 recordings. */
  small: { teachers: 1, students: 100, bigTeacherStudents: 100, pastDays: 365, futureDays: 14, taskRate: 0.6, exercisesPerTeacher: 40, coursesPerTeacher: 3, recordings: 1000 },
  /** For the smoke test. */
  tiny: { teachers: 1, students: 6, bigTeacherStudents: 6, pastDays: 30, futureDays: 7, taskRate: 0.8, exercisesPerTeacher: 8, coursesPerTeacher: 2, recordings: 30 },
} satisfies Record<string, ScalePreset>;
export type PresetName = keyof typeof PRESETS;

export type DataSummary = {
  teachers: number;
  students: number;
  courses: number;
  exercises: number;
  media_files: number;
  submissions: number;
  practice_sessions: number;
  recordings: number;
  /** Recordings of teacher 1 not answered yet (the inbox's count). */
  inbox: number;
  by_status: Record<string, number>;
  reviewed: number;
};

const n = (v: number) => sql.raw(String(Math.trunc(v)));
const f = (v: number) => sql.raw(String(v));

/**
 * Fills an EMPTY migrated database with the school of `preset`. One transaction (temp tables
 * live on one connection); the time-spent trigger is off while the sessions go in, and the
 * totals are then computed in one UPDATE.
 */
export async function seedScale(
  db: Db,
  preset: ScalePreset,
  opts: { timeZone?: string; log?: (msg: string) => void } = {},
): Promise<{ ms: number; today: string }> {
  const log = opts.log ?? (() => {});
  const t0 = Date.now();
  const today = todayInZone(opts.timeZone ?? 'Europe/Berlin');
  const [{ count } = { count: 0 }] = await rows<{ count: number }>(db, sql`select count(*)::int as count from users`);
  if (count > 0) throw new Error('seedScale needs an empty database (it has users already)');
  const hash = await hashPassword(BENCH_PASSWORD);
  const p = preset;
  const T = p.teachers;
  const S = p.students;
  const B = Math.min(p.bigTeacherStudents, S);
  const C = p.coursesPerTeacher;
  const E = p.exercisesPerTeacher;
  const step = async (label: string, q: ReturnType<typeof sql>) => {
    const t = Date.now();
    await db.execute(q);
    log(`  ${label}: ${Date.now() - t} ms`);
  };

  await db.transaction(async (tx) => {
    const run = (label: string, q: ReturnType<typeof sql>) => {
      const t = Date.now();
      return tx.execute(q).then(() => log(`  ${label}: ${Date.now() - t} ms`));
    };
    // one school holds the bench's teachers (docs/decisions/schools-and-roles.md: every account belongs to a school)
    await run('school', sql`insert into schools (name) values ('Bench-Musikschule')`);
    await run(
      'teachers',
      sql`insert into users (school_id, name, email, role, password_hash, created_at)
        select (select max(id) from schools where name = 'Bench-Musikschule'), (array['Mehmet','Anna','Kemal','Sabine','Deniz','Thomas','Leyla','Jan','Selin','Katrin'])[1 + g % 10]
               || ' ' || (array['Yılmaz','Müller','Öztürk','Schneider','Şahin','Fischer','Aydın','Weber'])[1 + g % 8] || ' ' || g,
               'bench-t' || g || '@bench.example', 'teacher', ${hash}, now() - interval '4 years'
        from generate_series(1, ${n(T)}) g`,
    );
    await tx.execute(sql`create temp table bt on commit drop as
        select substring(email from 'bench-t(\\d+)@')::int as n, id from users where role = 'teacher'`);
    await run(
      'students',
      sql`insert into users (name, email, role, password_hash, teacher_id, phone, notes, created_at)
        select (array['Ayşe','Lukas','Elif','Jonas','Zeynep','Mia','Emre','Lea','Can','Paul','Defne','Emma','Arda','Ben','Ecrin','Lina','Burak','Noah','Melis','Sophie'])[1 + s % 20]
               || ' ' || (array['Demir','Becker','Kaya','Schmidt','Arslan','Wagner','Koç','Hoffmann','Çelik','Schulz','Doğan','Koch','Yıldız','Richter','Polat','Klein'])[1 + (s / 20) % 16]
               || ' ' || s,
               'bench-s' || s || '@bench.example', 'student', ${hash}, t.id,
               case when s % 3 = 0 then '+49 151 ' || lpad(s::text, 7, '0') end,
               case when s % 10 = 0 then 'Übt gern am Wochenende.' end,
               now() - ((${n(p.pastDays)} + 60 - s % 60) * interval '1 day')
        from generate_series(1, ${n(S)}) s
        join bt t on t.n = case when s <= ${n(B)} or ${n(T)} = 1 then 1 else 2 + ((s - ${n(B)} - 1) % (${n(T)} - 1)) end`,
    );
    await tx.execute(sql`create temp table bs on commit drop as
        select substring(email from 'bench-s(\\d+)@')::int as n, id, teacher_id from users where role = 'student'`);
    await run(
      'courses',
      sql`insert into courses (teacher_id, name, description, created_at)
        select t.id, (array['Ney – Grundkurs','Oud – Mittelstufe','Bağlama für Anfänger','Kanun – Fortgeschrittene','Gehörbildung'])[1 + (c - 1) % 5],
               case when c % 2 = 1 then 'Wöchentlicher Unterricht mit täglichen Übungen.' end, now() - interval '4 years'
        from bt t, generate_series(1, ${n(C)}) c`,
    );
    await tx.execute(sql`create temp table bc on commit drop as
        select teacher_id, row_number() over (partition by teacher_id order by id)::int as k, id from courses`);
    await run(
      'enrolments',
      sql`insert into enrolments (course_id, student_id)
        select c.id, s.id from bs s join bc c on c.teacher_id = s.teacher_id
        where c.k = 1 + s.n % ${n(C)} or (s.n % 4 = 0 and c.k = 1 + (s.n + 1) % ${n(C)})`,
    );
    await tx.execute(sql`create temp table bsc on commit drop as
        select s.id as student_id, min(e.course_id) as course_id from bs s join enrolments e on e.student_id = s.id group by s.id`);
    await run(
      'exercises',
      sql`insert into exercises (teacher_id, title, description, category, difficulty, target, estimated_minutes, tags, priority, language, created_at, deleted_at)
        select t.id,
               (array['Lange Töne','Tonleiter','Etüde','Haltung','Rhythmus','Makam Rast','Nachspielen','Theorie','Wochenplan'])[1 + (e - 1) % 9] || ' ' || e,
               'Langsam beginnen, auf gleichmäßigen Atem achten und jede Phrase dreimal sauber wiederholen. '
                 || 'Danach das Tempo schrittweise steigern und die schwierigen Stellen einzeln üben.',
               (array['atem_kontrolle','tonbildung','noten_finger','haltung_technik','rhythmus_tempo','makam','hoer_nachspiel','theorie_reflexion','kombinationen'])[1 + (e - 1) % 9],
               (array['leicht','mittel','fortgeschritten'])[1 + e % 3],
               case when e % 2 = 0 then 'Sauberer Ton über acht Schläge' end,
               5 + (e * 7) % 41,
               case when e % 3 = 0 then '["atem","ton"]'::jsonb else '["technik"]'::jsonb end,
               1 + e % 5, case when e % 5 = 0 then 'tr' else 'de' end,
               now() - interval '4 years' + e * interval '3 days',
               case when e % 20 = 0 then now() - interval '30 days' end
        from bt t, generate_series(1, ${n(E)}) e`,
    );
    await tx.execute(sql`create temp table be on commit drop as
        select teacher_id, row_number() over (partition by teacher_id order by id)::int as k, id, title from exercises`);
    await run(
      'exercise courses + media',
      sql`insert into exercise_courses (exercise_id, course_id)
        select e.id, c.id from be e join bc c on c.teacher_id = e.teacher_id and c.k = 1 + e.k % ${n(C)}`,
    );
    await tx.execute(sql`insert into media_files (exercise_id, type, path, filename, size, mime_type)
        select e.id, m.type, 'exercises/' || e.id || '/media/' || md5(e.id || m.type) || m.ext, m.name || m.ext, 20000 + (e.id * 7919) % 5000000, m.mime
        from be e
        join (values ('image', '.jpg', 'Griffbild', 'image/jpeg', 2), ('pdf', '.pdf', 'Noten', 'application/pdf', 3), ('video', '.mp4', 'Vorspiel', 'video/mp4', 5))
          as m(type, ext, name, mime, every) on e.k % m.every = 0`);
    // Tasks: on ~taskRate of a student's days; a student keeps one exercise for a week (a weekly
    // series shared by the teacher's students). Past: ~78 % completed, the rest overdue or expired.
    await run(
      'submissions',
      sql`insert into submissions (student_id, teacher_id, exercise_id, exercise_title, course_id, series_id, due_date, expiration_date,
                                   completed_at, teacher_note, teacher_feedback, accuracy_score, competency_level, created_at, updated_at)
        select b.sid, b.tid, e.id, e.title, b.cid,
               md5(b.tid || ':' || e.k || ':' || ((b.d + ${n(p.pastDays)}) / 7))::uuid,
               b.due, case when b.r2 < 0.8 then b.due + 2 end,
               case when b.d < 0 and b.r1 < 0.78 then (b.due + time '15:00') at time zone 'Europe/Berlin' + b.r3 * interval '8 hours'
                    when b.d = 0 and b.r1 < 0.3 then now() - b.r3 * interval '2 hours'
                    when b.d > 0 and b.r1 < 0.03 then now() - b.r3 * interval '20 hours' end,
               case when b.r2 > 0.9 then 'Bitte langsam und mit Metronom üben.' end,
               case when b.d < 0 and b.r1 < 0.78 and b.r4 < 0.4 and b.r4 > 0.2 then 'Schon viel sauberer, weiter so!' end,
               case when b.d < 0 and b.r1 < 0.78 and b.r4 < 0.4 then round((45 + b.r3 * 55)::numeric)::float8 end,
               case when b.d < 0 and b.r1 < 0.78 and b.r4 < 0.4 then (array['beginner','intermediate','advanced','expert'])[1 + floor(b.r4 * 10)::int % 4] end,
               (b.due - 7)::timestamptz, (b.due - 7)::timestamptz
        from (
          select s.id as sid, s.teacher_id as tid, s.n as sn, sc.course_id as cid, d, ${today}::date + d as due,
                 random() as r1, random() as r2, random() as r3, random() as r4
          from bs s join bsc sc on sc.student_id = s.id, generate_series(-${n(p.pastDays)}, ${n(p.futureDays)}) d
          where random() < ${f(p.taskRate)}
        ) b
        join be e on e.teacher_id = b.tid and e.k = 1 + ((b.sn * 7 + (b.d + ${n(p.pastDays)}) / 7) % ${n(E)})`,
    );
    // Sessions: 1–4 per completed task (~2.5), one on a third of the unfinished past ones.
    await tx.execute(sql`alter table practice_sessions disable trigger practice_sessions_time_spent`);
    await run(
      'practice sessions',
      sql`insert into practice_sessions (submission_id, student_id, started_at, ended_at, duration_minutes)
        select x.id, x.student_id, x.st, x.st + x.dur * interval '1 minute', x.dur
        from (
          select s.id, s.student_id,
                 (s.due_date + time '15:00') at time zone 'Europe/Berlin' + (k - 1) * interval '2 hours' + (s.id % 60) * interval '1 minute' as st,
                 round((5 + (s.id * 7 + k * 13) % 50 + ((s.id + k) % 100) / 100.0)::numeric, 2)::float8 as dur
          from submissions s, generate_series(1, 1 + s.id % 4) k
          where s.completed_at is not null and s.due_date <= ${today}::date
          union all
          select s.id, s.student_id, (s.due_date + time '17:30') at time zone 'Europe/Berlin', 12.5
          from submissions s where s.completed_at is null and s.due_date < ${today}::date and s.id % 3 = 0
        ) x
        -- only what has ended by now: a seeded session later today would overlap a live start
        -- (a student practises one thing at a time) and make the load test's start a 409
        where x.st + x.dur * interval '1 minute' <= now()`,
    );
    await run(
      'time spent totals',
      sql`update submissions s set time_spent_minutes = t.m
        from (select submission_id, round(sum(duration_minutes)::numeric, 2)::float8 as m from practice_sessions group by submission_id) t
        where t.submission_id = s.id`,
    );
    await tx.execute(sql`alter table practice_sessions enable trigger practice_sessions_time_spent`);
    await seedRecordingRows(tx, p, today, log);
  });
  // Planner statistics as a real school would have them (a tiny preset goes without: it is only
  // the smoke test's).
  if (p.students >= 50) await step('vacuum analyze', sql`vacuum analyze`);
  return { ms: Date.now() - t0, today };
}

/**
 * Recordings of teacher 1's students (rows only: the inbox reads no file): spread over the tasks of
 * the last year that are past (one take per task, a second on every fourth; exactly `recordings`
 * rows), chosen by a hash so every seed picks the same ones. A fifth is answered (1–2 comments each, the student has seen
 * half of them), a tenth of the rest carries a comment the teacher started; 90 % audio/webm, 10 %
 * video/webm, a message on every fourth. Runs inside the caller's transaction.
 */
export async function seedRecordingRows(db: DbOrTx, p: ScalePreset, today: string, log: (m: string) => void = () => {}): Promise<void> {
  if (!p.recordings || p.recordings <= 0) return;
  const t = Date.now();
  const [t1] = await rows<{ id: number }>(db, sql`select id from users where email = 'bench-t1@bench.example'`);
  if (!t1) throw new Error('no bench teacher 1');
  const N = p.recordings;
  await db.execute(sql`insert into recordings (submission_id, student_id, teacher_id, kind, mime_type, path, filename, size, duration_ms, message,
                                               created_at, answered_at, feedback_at, seen_at)
      select x.id, x.student_id, x.teacher_id,
             case when x.k % 10 = 0 then 'video' else 'audio' end,
             case when x.k % 10 = 0 then 'video/webm' else 'audio/webm' end,
             'recordings/' || x.id || '/' || md5('bench-rec:' || x.id || ':' || x.j) || '.webm',
             'aufnahme-' || x.j || '.webm',
             x.dur * (case when x.k % 10 = 0 then 250 else 16 end),
             x.dur,
             case when x.k % 4 = 0 then 'Ich habe die schwierige Stelle langsam geübt – klingt der Anfang so richtig?' end,
             x.created,
             case when x.k % 5 = 0 then least(x.created + interval '20 hours', now()) end,
             case when x.k % 5 = 0 then least(x.created + interval '20 hours', now()) end,
             case when x.k % 10 = 0 then least(x.created + interval '30 hours', now()) end
      from (
        select s.id, s.student_id, s.teacher_id, j,
               row_number() over (order by md5(s.id || ':' || j))::int as k,
               (20000 + (s.id * 7919 + j * 104729) % 280000)::int as dur,
               (s.due_date + time '18:00') at time zone 'Europe/Berlin' + ((j - 1) * 40 + s.id % 60) * interval '1 minute' as created
        from (
          select id, student_id, teacher_id, due_date from submissions
          where teacher_id = ${t1.id} and due_date < ${today}::date and due_date >= ${today}::date - 365
          order by md5('bench-rec:' || id) limit ${n(N)}
        ) s, generate_series(1, case when s.id % 4 = 0 then 2 else 1 end) j
      ) x
      where x.k <= ${n(N)}`);
  // Comments: 1–2 on each answered one (the second at a moment of the take), one on a tenth of the rest.
  await db.execute(sql`insert into recording_comments (recording_id, teacher_id, at_ms, text, created_at, updated_at)
      select r.id, r.teacher_id, case when c = 1 then null else least(r.duration_ms, 15000 + (r.id * 31) % 60000) end,
             case when c = 1 then 'Schöner, ruhiger Ton. Achte im zweiten Teil auf den Atem.' else 'Hier wird es zu schnell – bitte mit Metronom auf 60.' end,
             coalesce(r.answered_at, r.created_at + interval '2 hours') - interval '5 minutes',
             coalesce(r.answered_at, r.created_at + interval '2 hours') - interval '5 minutes'
      from recordings r, generate_series(1, case when r.answered_at is not null then 1 + r.id % 2 else 1 end) c
      where r.teacher_id = ${t1.id} and (r.answered_at is not null or r.id % 10 = 0)`);
  log(`  recordings: ${Date.now() - t} ms`);
}

export async function summarize(db: Db, today: string): Promise<DataSummary> {
  const [c] = await rows<Omit<DataSummary, 'by_status'>>(
    db,
    sql`select (select count(*) from users where role = 'teacher')::int as teachers,
               (select count(*) from users where role = 'student')::int as students,
               (select count(*) from courses)::int as courses,
               (select count(*) from exercises)::int as exercises,
               (select count(*) from media_files)::int as media_files,
               (select count(*) from submissions)::int as submissions,
               (select count(*) from practice_sessions)::int as practice_sessions,
               (select count(*) from recordings)::int as recordings,
               (select count(*) from recordings r join users t on t.id = r.teacher_id
                 where t.email = 'bench-t1@bench.example' and r.answered_at is null)::int as inbox,
               (select count(*) from submissions where accuracy_score is not null)::int as reviewed`,
  );
  const statuses = await rows<{ status: string; n: number }>(
    db,
    sql`select case when completed_at is not null then 'completed'
                    when expiration_date < ${today}::date then 'expired'
                    when due_date < ${today}::date then 'overdue' else 'open' end as status, count(*)::int as n
        from submissions group by 1 order by 1`,
  );
  if (!c) throw new Error('summary');
  return { ...c, by_status: Object.fromEntries(statuses.map((s) => [s.status, s.n])) };
}

export const DEFAULT_PG_ADMIN_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
export const DEFAULT_PG_BENCH_URL = 'postgres://postgres@127.0.0.1:5432/uk_bench';

/** Creates (or with `reset`, drops and re-creates) the database of `url` through the admin database. */
export async function ensureDatabase(url: string, opts: { reset?: boolean; adminUrl?: string } = {}): Promise<'created' | 'exists'> {
  const name = new URL(url).pathname.replace(/^\//, '');
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unexpected database name ${name}`);
  const admin = new pg.Client({ connectionString: opts.adminUrl ?? DEFAULT_PG_ADMIN_URL });
  await admin.connect();
  try {
    const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    if (exists && !opts.reset) return 'exists';
    if (exists) await admin.query(`drop database ${name} with (force)`);
    await admin.query(`create database ${name}`);
    return 'created';
  } finally {
    await admin.end();
  }
}

/** Opens, migrates and (when empty) seeds a PostgreSQL database. */
export async function preparePostgres(
  url: string,
  preset: ScalePreset,
  opts: { reset?: boolean; log?: (m: string) => void } = {},
): Promise<{ seeded: boolean; seedMs?: number; summary: DataSummary }> {
  const log = opts.log ?? (() => {});
  await ensureDatabase(url, { reset: opts.reset });
  const handle = await openPostgres(url, 2);
  try {
    await migrateDb(handle);
    let seeded = false;
    let seedMs: number | undefined;
    const [{ count } = { count: 0 }] = await rows<{ count: number }>(handle.db, sql`select count(*)::int as count from users`);
    if (count === 0) {
      log(`seeding ${url} …`);
      seedMs = (await seedScale(handle.db, preset, { log })).ms;
      seeded = true;
    } else if (preset.recordings) {
      // A school seeded before recordings existed (or before the bench seeded them) gets them
      // added, without a full re-seed: the tasks are there, only the recordings rows are new.
      const [{ m } = { m: 0 }] = await rows<{ m: number }>(handle.db, sql`select count(*)::int as m from recordings`);
      if (m === 0) {
        log(`adding ${preset.recordings} recordings to ${url} …`);
        const t0 = Date.now();
        await handle.db.transaction((tx) => seedRecordingRows(tx, preset, todayInZone('Europe/Berlin'), log));
        await handle.db.execute(sql`vacuum analyze recordings`);
        await handle.db.execute(sql`vacuum analyze recording_comments`);
        seedMs = Date.now() - t0;
        seeded = true;
      }
    }
    return { seeded, seedMs, summary: await summarize(handle.db, todayInZone('Europe/Berlin')) };
  } finally {
    await handle.close();
  }
}

function migrationsHash(): string {
  const h = createHash('sha256');
  for (const f of readdirSync(MIGRATIONS_DIR).sort()) if (f.endsWith('.sql')) h.update(f).update(readFileSync(join(MIGRATIONS_DIR, f)));
  return h.digest('hex').slice(0, 16);
}

/** Seeds a fresh PGlite database in DATA_DIR/pgdata (the layout server/boot.ts opens). */
export async function preparePglite<T = undefined>(
  dataDir: string,
  preset: ScalePreset,
  opts: { log?: (m: string) => void; then?: (db: Db) => Promise<T> } = {},
): Promise<{ seedMs: number; summary: DataSummary; then: T }> {
  // A fresh PGlite cluster costs an initdb (15–20 s on a busy 2-core machine): the first run keeps
  // a dump of the migrated, empty cluster (keyed by the migrations) and later runs load it.
  const snap = join(tmpdir(), `uk-bench-pglite-${migrationsHash()}.tar.gz`);
  let handle: DbHandle;
  if (existsSync(snap)) {
    handle = await openPglite(join(dataDir, 'pgdata'), new Blob([readFileSync(snap)]));
  } else {
    handle = await openPglite(join(dataDir, 'pgdata'));
    await migrateDb(handle);
    const dump = await handle.pglite!.dumpDataDir('gzip');
    writeFileSync(`${snap}.${process.pid}`, Buffer.from(await dump.arrayBuffer()));
    renameSync(`${snap}.${process.pid}`, snap);
  }
  try {
    await migrateDb(handle);
    const r = await seedScale(handle.db, preset, { log: opts.log });
    const summary = await summarize(handle.db, r.today);
    return { seedMs: r.ms, summary, then: (opts.then ? await opts.then(handle.db) : undefined) as T };
  } finally {
    await handle.close();
  }
}

async function cli() {
  const args = process.argv.slice(2);
  const val = (flag: string) => {
    const i = args.indexOf(flag);
    const v = i >= 0 ? args[i + 1] : undefined;
    return v && !v.startsWith('--') ? v : undefined;
  };
  const presetName = (val('--preset') ?? (args.includes('--pglite') ? 'small' : 'school')) as PresetName;
  const preset = PRESETS[presetName];
  if (!preset) throw new Error(`unknown preset ${presetName} (school, small, tiny)`);
  const log = (m: string) => console.log(m);
  if (args.includes('--pglite')) {
    const dir = val('--pglite');
    if (!dir) throw new Error('--pglite <DATA_DIR>');
    const r = await preparePglite(dir, preset, { log });
    console.log(`seeded ${dir} in ${r.seedMs} ms`, r.summary);
  } else {
    const url = val('--pg') ?? DEFAULT_PG_BENCH_URL;
    const r = await preparePostgres(url, preset, { reset: args.includes('--reset'), log });
    console.log(r.seeded ? `seeded ${url} in ${r.seedMs} ms` : `${url} already holds data (use --reset to re-create)`, r.summary);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  cli().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
