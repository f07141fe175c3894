import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from './client';
import { courses, enrolments, exerciseCourses, exercises, guardianLinks, messageReads, messages, practiceSessions, schools, submissions, users } from './schema/index';
import { hashPassword } from '../lib/passwords';
import { todayInZone } from '../lib/time';

export const DEMO_PASSWORD = 'demo1234';
export const DEMO_SCHOOL = 'Musikschule Klangwelt';
export const DEMO_TEACHER = { name: 'Mehmet Yılmaz', email: 'lehrer@example.com' };
/** The demo school's administration (docs/decisions/schools-and-roles.md). */
export const DEMO_ADMIN = { name: 'Sabine Krüger', email: 'verwaltung@example.com' };
/** A parent of the first demo student (docs/decisions/schools-and-roles.md). */
export const DEMO_GUARDIAN = { name: 'Fatma Demir', email: 'eltern@example.com' };
export const DEMO_STUDENTS = [
  { name: 'Ayşe Demir', email: 'ayse@example.com', phone: '+49 151 2345678' },
  { name: 'Lukas Becker', email: 'lukas@example.com', phone: '+49 160 9876543' },
  { name: 'Elif Kaya', email: 'elif@example.com', phone: null },
  { name: 'Jonas Schmidt', email: 'jonas@example.com', phone: '+49 171 5550123' },
  { name: 'Zeynep Arslan', email: 'zeynep@example.com', phone: null },
  { name: 'Mia Wagner', email: 'mia@example.com', phone: '+49 176 4440111' },
] as const;

/** Adds n days to a YYYY-MM-DD date (calendar arithmetic, no time zone involved). */
function addDays(date: string, n: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** A deterministic pseudo-random sequence, so the demo looks the same every time. */
function rng(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
}

export async function isEmpty(db: Db): Promise<boolean> {
  const r = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return (r[0]?.n ?? 0) === 0;
}

/**
 * The demo school of CONTRACT.md: one teacher, six students, two courses, twelve exercises and
 * tasks in every state with practice sessions over the last 30 days. Its attachments (pictures and
 * PDFs made in code) are the media module's `seedDemoMedia`, which the caller runs after this
 * (server/main.ts): the data layer knows no module.
 */
export async function seedDemo(db: Db, timeZone: string, now = new Date()): Promise<void> {
  const today = todayInZone(timeZone, now);
  const hash = await hashPassword(DEMO_PASSWORD);
  const random = rng(42);

  await db.transaction(async (tx) => {
    const [school] = await tx.insert(schools).values({ name: DEMO_SCHOOL }).returning();
    if (!school) throw new Error('seed: school');
    await tx.insert(users).values({ ...DEMO_ADMIN, schoolId: school.id, role: 'admin', passwordHash: hash, createdAt: new Date(now.getTime() - 120 * 86400000) });
    const [teacher] = await tx
      .insert(users)
      .values({ ...DEMO_TEACHER, schoolId: school.id, role: 'teacher', passwordHash: hash, createdAt: new Date(now.getTime() - 90 * 86400000) })
      .returning();
    if (!teacher) throw new Error('seed: teacher');

    const studentRows = await tx
      .insert(users)
      .values(
        DEMO_STUDENTS.map((s, i) => ({
          name: s.name,
          email: s.email,
          phone: s.phone,
          notes: i === 0 ? 'Spielt seit zwei Jahren Ney, sehr motiviert.' : null,
          role: 'student' as const,
          schoolId: school.id,
          teacherId: teacher.id,
          passwordHash: hash,
          createdAt: new Date(now.getTime() - (60 - i * 9) * 86400000),
        })),
      )
      .returning();

    const [ney, oud] = await tx
      .insert(courses)
      .values([
        {
          teacherId: teacher.id,
          name: 'Ney – Grundkurs',
          description: 'Atem, Ansatz und die ersten Makamlar auf der Ney.',
          createdAt: new Date(now.getTime() - 80 * 86400000),
        },
        {
          teacherId: teacher.id,
          name: 'Oud – Mittelstufe',
          description: 'Technik, Rhythmus (Usul) und Taksim auf der Oud.',
          createdAt: new Date(now.getTime() - 75 * 86400000),
        },
      ])
      .returning();
    if (!ney || !oud) throw new Error('seed: courses');

    const [s0, s1, s2, s3, s4, s5] = studentRows;
    const [guardian] = await tx
      .insert(users)
      .values({ ...DEMO_GUARDIAN, schoolId: school.id, role: 'guardian', passwordHash: hash, createdAt: new Date(now.getTime() - 30 * 86400000) })
      .returning();
    await tx.insert(guardianLinks).values({ schoolId: school.id, guardianId: guardian!.id, studentId: s0!.id });
    if (!s0 || !s1 || !s2 || !s3 || !s4 || !s5) throw new Error('seed: students');
    await tx.insert(enrolments).values([
      { courseId: ney.id, studentId: s0.id },
      { courseId: ney.id, studentId: s2.id },
      { courseId: ney.id, studentId: s4.id },
      { courseId: oud.id, studentId: s1.id },
      { courseId: oud.id, studentId: s3.id },
      { courseId: oud.id, studentId: s5.id },
      { courseId: oud.id, studentId: s0.id },
    ]);

    const ex = [
      { title: 'Lange Töne auf der Ney', category: 'atem_kontrolle', difficulty: 'leicht', target: 'Gleichmäßiger Atemstrom über 8 Schläge', minutes: 15, course: ney, tags: ['atem', 'ney'] },
      { title: 'Zwerchfellatmung mit Metronom', category: 'atem_kontrolle', difficulty: 'mittel', target: 'Ruhige Atmung bei 60 bpm', minutes: 10, course: ney, tags: ['atem'] },
      { title: 'Klangfarbe im tiefen Register', category: 'tonbildung', difficulty: 'mittel', target: 'Voller, runder Ton auf Rast', minutes: 20, course: ney, tags: ['ton'] },
      { title: 'Griffwechsel Rast–Neva', category: 'noten_finger', difficulty: 'leicht', target: 'Saubere Übergänge ohne Nebengeräusche', minutes: 15, course: ney, tags: ['finger'] },
      { title: 'Haltung und Mızrap-Technik', category: 'haltung_technik', difficulty: 'leicht', target: 'Lockere rechte Hand, gerader Anschlag', minutes: 15, course: oud, tags: ['mızrap', 'oud'] },
      { title: 'Usul Sofyan und Düyek', category: 'rhythmus_tempo', difficulty: 'mittel', target: 'Sicher im Tempo 80', minutes: 20, course: oud, tags: ['usul', 'rhythmus'] },
      { title: 'Makam Hicaz – Seyir', category: 'makam', difficulty: 'fortgeschritten', target: 'Typischen Verlauf des Hicaz spielen können', minutes: 30, course: oud, tags: ['hicaz', 'makam'] },
      { title: 'Makam Rast – Tetrachorde', category: 'makam', difficulty: 'mittel', target: 'Rast-Dörtlü und Rast-Beşli sicher greifen', minutes: 25, course: ney, tags: ['rast', 'makam'] },
      { title: 'Hören und Nachspielen: Peşrev-Motive', category: 'hoer_nachspiel', difficulty: 'mittel', target: 'Vier Takte nach Gehör wiedergeben', minutes: 20, course: oud, tags: ['gehör'] },
      { title: 'Theorie: Kommas und Perdeler', category: 'theorie_reflexion', difficulty: 'fortgeschritten', target: 'Die 9-Komma-Teilung erklären können', minutes: 15, course: null, tags: ['theorie'] },
      { title: 'Wochenplan: Rast-Taksim', category: 'kombinationen', difficulty: 'fortgeschritten', target: 'Ein kurzes Taksim im Makam Rast', minutes: 40, course: oud, tags: ['taksim', 'wochenplan'] },
      { title: 'Tonleiter-Etüde in Uşşak', category: 'noten_finger', difficulty: 'mittel', target: 'Uşşak auf- und abwärts im Tempo 70', minutes: 20, course: null, tags: ['uşşak'] },
    ] as const;
    // Practice-tool settings (docs/decisions/exercise-settings.md): every exercise whose title or
    // target names an usul, a makam or a tempo opens the tools with it, the tempo in its unit.
    const settings: Partial<Record<(typeof ex)[number]['title'], Partial<typeof exercises.$inferInsert>>> = {
      'Zwerchfellatmung mit Metronom': { meter: '4/4', tempoBpm: 60, tempoUnit: 'quarter' },
      'Klangfarbe im tiefen Register': { makam: 'rast', durak: 'Rast' },
      'Griffwechsel Rast–Neva': { makam: 'rast', durak: 'Rast', meter: '7/8', meterGrouping: '2+2+3', tempoBpm: 120, tempoUnit: 'eighth' },
      'Usul Sofyan und Düyek': { usul: 'sofyan', tempoBpm: 80, tempoUnit: 'quarter' },
      'Makam Hicaz – Seyir': { makam: 'hicaz', durak: 'Dügâh', usul: 'duyek', tempoBpm: 80, tempoUnit: 'eighth' },
      'Makam Rast – Tetrachorde': { makam: 'rast', durak: 'Rast' },
      'Wochenplan: Rast-Taksim': { makam: 'rast', durak: 'Rast' },
      'Tonleiter-Etüde in Uşşak': { makam: 'ussak', durak: 'Dügâh', tempoBpm: 70, tempoUnit: 'quarter' },
    };
    const exerciseRows = await tx
      .insert(exercises)
      .values(
        ex.map((e, i) => ({
          ...settings[e.title],
          teacherId: teacher.id,
          title: e.title,
          description: `${e.target}. Übe konzentriert und notiere, was dir schwerfällt.`,
          category: e.category,
          difficulty: e.difficulty,
          target: e.target,
          estimatedMinutes: e.minutes,
          tags: [...e.tags],
          priority: (i % 5) + 1,
          language: 'de',
          createdAt: new Date(now.getTime() - (70 - i) * 86400000),
        })),
      )
      .returning();
    await tx.insert(exerciseCourses).values(
      exerciseRows.flatMap((row, i) => {
        const c = ex[i]?.course;
        return c ? [{ exerciseId: row.id, courseId: c.id }] : [];
      }),
    );

    const courseOf = (studentId: number) => ([s1.id, s3.id, s5.id].includes(studentId) ? oud.id : ney.id);
    const levels = ['beginner', 'intermediate', 'advanced', 'expert'] as const;

    type Row = typeof submissions.$inferInsert;
    const planned: Array<Row & { practiced: boolean }> = [];
    studentRows.forEach((student, si) => {
      const seriesId = randomUUID();
      // A daily series over the last 30 days and the next 6: past ones mostly completed.
      for (let d = -29; d <= 6; d++) {
        const exercise = exerciseRows[(si * 3 + Math.floor((d + 30) / 3)) % exerciseRows.length];
        if (!exercise) continue;
        if ((d + si) % 2 !== 0 && d < 0) continue; // every second day in the past
        const due = addDays(today, d);
        const expiration = addDays(due, 2);
        let completedAt: Date | null = null;
        if (d < 0 && random() < 0.72 - si * 0.05) {
          completedAt = new Date(`${due}T16:30:00Z`);
          if (completedAt > now) completedAt = new Date(now.getTime() - 3600000);
        }
        const reviewed = completedAt && random() < 0.6;
        planned.push({
          studentId: student.id,
          teacherId: teacher.id,
          exerciseId: exercise.id,
          exerciseTitle: exercise.title,
          courseId: courseOf(student.id),
          seriesId,
          dueDate: due,
          expirationDate: expiration,
          completedAt,
          teacherNote: d % 5 === 0 ? 'Bitte langsam beginnen und auf saubere Intonation achten.' : null,
          teacherFeedback: reviewed ? 'Gute Fortschritte – achte weiter auf den Atem.' : null,
          accuracyScore: reviewed ? Math.round(60 + random() * 38) : null,
          competencyLevel: reviewed ? levels[Math.min(3, Math.floor(random() * 3) + (si % 2))] : null,
          createdAt: new Date(now.getTime() - 31 * 86400000),
          practiced: d <= 0,
        });
      }
      // One overdue but not yet expired task (yesterday, expires tomorrow) and one due today.
      const e1 = exerciseRows[(si + 2) % exerciseRows.length];
      const e2 = exerciseRows[(si + 5) % exerciseRows.length];
      if (e1 && e2) {
        planned.push({
          studentId: student.id, teacherId: teacher.id, exerciseId: e1.id, exerciseTitle: e1.title,
          courseId: courseOf(student.id), seriesId: randomUUID(), dueDate: addDays(today, -1),
          expirationDate: addDays(today, 1), completedAt: null, teacherNote: 'Diese Woche besonders wichtig!',
          createdAt: new Date(now.getTime() - 5 * 86400000), practiced: false,
        });
        planned.push({
          studentId: student.id, teacherId: teacher.id, exerciseId: e2.id, exerciseTitle: e2.title,
          courseId: courseOf(student.id), seriesId: randomUUID(), dueDate: today,
          expirationDate: addDays(today, 2), completedAt: null, teacherNote: null,
          createdAt: new Date(now.getTime() - 2 * 86400000), practiced: false,
        });
      }
    });

    const inserted = await tx
      .insert(submissions)
      .values(planned.map(({ practiced: _p, ...row }) => row))
      .returning({ id: submissions.id, studentId: submissions.studentId, dueDate: submissions.dueDate, completedAt: submissions.completedAt });

    // Practice sessions: on completed tasks, and some on open ones, spread over the last 30 days.
    const sessions: Array<typeof practiceSessions.$inferInsert> = [];
    inserted.forEach((sub, i) => {
      const plan = planned[i];
      if (!plan?.practiced) return;
      if (!sub.completedAt && random() < 0.6) return;
      const count = 1 + Math.floor(random() * 2);
      for (let k = 0; k < count; k++) {
        const start = new Date(`${sub.dueDate}T${String(14 + k * 3).padStart(2, '0')}:${String(Math.floor(random() * 50)).padStart(2, '0')}:00Z`);
        const minutes = Math.round((8 + random() * 30) * 100) / 100;
        const end = new Date(start.getTime() + minutes * 60000);
        if (end > now) continue;
        sessions.push({ submissionId: sub.id, studentId: sub.studentId, startedAt: start, endedAt: end, durationMinutes: minutes });
      }
    });
    // The first three students practised every day this week on today's task, so the demo shows a streak.
    inserted.forEach((sub) => {
      const studentIndex = studentRows.findIndex((st) => st.id === sub.studentId);
      if (studentIndex > 2 || sub.dueDate !== today || sub.completedAt) return;
      for (let d = 1; d <= 5 - studentIndex; d++) {
        const day = addDays(today, -d);
        if (sessions.some((x) => x.studentId === sub.studentId && x.startedAt instanceof Date && x.startedAt.toISOString().startsWith(day))) continue;
        const start = new Date(`${day}T17:${String(10 + d).padStart(2, '0')}:00Z`);
        const minutes = Math.round((12 + random() * 20) * 100) / 100;
        sessions.push({ submissionId: sub.id, studentId: sub.studentId, startedAt: start, endedAt: new Date(start.getTime() + minutes * 60000), durationMinutes: minutes });
      }
    });
    if (sessions.length) await tx.insert(practiceSessions).values(sessions);

    // A conversation to open (docs/decisions/messages.md): the teacher's pinned lesson note, the
    // parent's question, and the student's message that waits for the teacher.
    const ago = (hours: number) => new Date(now.getTime() - hours * 3600000);
    const firstTask = inserted.find((sub) => sub.studentId === s0.id && sub.dueDate === today);
    const written = await tx.insert(messages).values([
      {
        schoolId: school.id, studentId: s0.id, authorId: teacher.id, authorRole: 'teacher', kind: 'lesson_note', createdAt: ago(72), pinnedAt: ago(72),
        body: 'Heute am Rast-Taksim gearbeitet. Segâh ruhiger anspielen, die Töne lang halten. Bis zur nächsten Stunde täglich 10 Minuten lange Töne, dann die Etüde.',
      },
      { schoolId: school.id, studentId: s0.id, authorId: guardian!.id, authorRole: 'guardian', createdAt: ago(30), body: 'Guten Abend, soll sie die Etüde mit oder ohne Metronom üben?' },
      { schoolId: school.id, studentId: s0.id, authorId: teacher.id, authorRole: 'teacher', createdAt: ago(28), body: 'Zuerst ohne, ab Mittwoch mit dem Metronom auf 60.' },
      {
        schoolId: school.id, studentId: s0.id, authorId: s0.id, authorRole: 'student', createdAt: ago(3),
        body: 'Ich habe die Aufgabe von heute geübt, aber Takt 7 klingt noch schief. Können Sie reinhören?',
        ...(firstTask ? { linkTaskId: firstTask.id } : {}),
      },
      { schoolId: school.id, studentId: s1.id, authorId: teacher.id, authorRole: 'teacher', createdAt: ago(50), body: 'Denk bitte an das Usul-Blatt für Donnerstag.' },
    ]).returning({ id: messages.id });
    // the teacher read what came before their answer; the student's message waits
    await tx.insert(messageReads).values({ userId: teacher.id, studentId: s0.id, lastReadId: written[2]!.id });
  });
}
