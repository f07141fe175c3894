import { describe, expect, it } from 'vitest';
import { addDays } from '@contract/recurrence';
import { practiceSessions } from '../../db/schema/index';
import { dateInZone, todayInZone } from '../../lib/time';
import { withTestApp, type TestApp, type TestUser } from '../../test/test-app';

const TZ = 'Europe/Berlin'; // APP_TIMEZONE of the test app
let t: TestApp;
withTestApp((app) => {
  t = app;
});

/** The instant of local midnight at the start of `date` in Berlin, from the zone's offset (not by the database). */
function berlinMidnight(date: string): Date {
  const noonBefore = new Date(`${addDays(date, -1)}T12:00:00Z`);
  const name = new Intl.DateTimeFormat('en-US', { timeZone: TZ, timeZoneName: 'shortOffset' }).formatToParts(noonBefore).find((p) => p.type === 'timeZoneName')!.value;
  const hours = Number(/GMT([+-]\d+)/.exec(name)?.[1] ?? 0);
  return new Date(Date.parse(`${date}T00:00:00Z`) - hours * 3600_000);
}

/** 'YYYY-MM-DD HH:MM' in Berlin. */
function berlinMinute(d: Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: TZ, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
}

/** A strict reader of the file: BOM, CRLF rows, ';' separators, RFC 4180 quoting. */
function parseCsv(body: string): string[][] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  const text = body.slice(1);
  expect(text.endsWith('\r\n')).toBe(true);
  const out: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else cell += text[i++];
      }
    } else while (i < text.length && text[i] !== ';' && text[i] !== '\r') cell += text[i++];
    row.push(cell);
    if (text[i] === ';') i++;
    else if (text.startsWith('\r\n', i)) {
      out.push(row);
      row = [];
      i += 2;
    } else throw new Error(`unexpected character at ${i}: ${JSON.stringify(text.slice(i, i + 10))}`);
  }
  return out;
}

const getCsv = (user: TestUser | null, courseId: number, query = '') =>
  t.app.inject({ method: 'GET', url: `/api/courses/${courseId}/progress.csv${query}`, headers: user ? user.headers : {} });

describe('GET /api/courses/{id}/progress.csv', () => {
  it('counts per enrolled student, by hand: minutes this week (from Monday) and this month in the school zone, tasks, rate, accuracy, last practice', async () => {
    const teacher = await t.teacher();
    const course = await t.course(teacher, { name: 'Bağlama Gruppe' });
    const ayse = await t.student(teacher, { name: 'Ayşe Export', courseIds: [course.id] });
    const bora = await t.student(teacher, { name: '=Bora; "Test"', email: `bora-${Date.now()}@example.test`, courseIds: [course.id] });
    const notEnrolled = await t.student(teacher, { name: 'Carl Nicht im Kurs' });
    const ex = await t.exercise(teacher);
    const today = todayInZone(TZ);
    const task = (o: Parameters<TestApp['submission']>[3]) => t.submission(ayse, teacher, ex, o);

    // Tasks: 2 completed (accuracy 80 and 95), 1 overdue, 1 expired, 1 open → rate 2 / 4 = 50 %.
    const done1 = await task({ dueDate: addDays(today, -3), completedAt: new Date(), accuracyScore: 80 });
    await task({ dueDate: addDays(today, -2), completedAt: new Date(), accuracyScore: 95 });
    await task({ dueDate: addDays(today, -1) });
    await task({ dueDate: addDays(today, -6), expirationDate: addDays(today, -4) });
    await task({ dueDate: addDays(today, 2) });
    await t.submission(notEnrolled, teacher, ex, { dueDate: today, completedAt: new Date() });

    // The week starts on Monday, the month on the 1st, both at local midnight.
    const dow = (new Date(`${today}T12:00:00Z`).getUTCDay() + 6) % 7; // 0 = Monday
    const monday = addDays(today, -dow);
    const firstOfMonth = `${today.slice(0, 8)}01`;
    const sessions: Array<{ start: Date; minutes: number }> = [
      { start: new Date(berlinMidnight(monday).getTime() + 30 * 60_000), minutes: 10 }, // Monday 00:30
      { start: new Date(berlinMidnight(monday).getTime() - 60_000), minutes: 20 }, // Sunday before, 23:59
      { start: new Date(berlinMidnight(firstOfMonth).getTime() + 10 * 60_000), minutes: 5.5 }, // the 1st, 00:10
      { start: new Date(berlinMidnight(firstOfMonth).getTime() - 10 * 60_000), minutes: 7.25 }, // the last of the month before, 23:50
    ];
    for (const s of sessions)
      await t.db.insert(practiceSessions).values({ submissionId: done1.id, studentId: ayse.id, startedAt: s.start, endedAt: new Date(s.start.getTime() + s.minutes * 60_000), durationMinutes: s.minutes });
    // a running session counts nowhere
    await t.db.insert(practiceSessions).values({ submissionId: done1.id, studentId: ayse.id, startedAt: new Date(Date.now() - 60_000) });
    t.forgetReads();

    let week = 0;
    let month = 0;
    for (const s of sessions) {
      const day = dateInZone(s.start, TZ);
      if (day >= monday && day <= today) week += s.minutes;
      if (day >= firstOfMonth && day <= today) month += s.minutes;
    }
    const latest = sessions.reduce((a, b) => (a.start > b.start ? a : b)).start;
    const num = (n: number) => String(n).replace('.', ',');

    const res = await getCsv(teacher, course.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="kursfortschritt-${course.id}-${today}.csv"`);
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(parseCsv(res.body)).toEqual([
      [
        'Name',
        'E-Mail',
        'Übungszeit diese Woche (min)',
        'Übungszeit diesen Monat (min)',
        'Erledigte Aufgaben',
        'Abschlussquote (%)',
        'Durchschnittliche Genauigkeit (%)',
        'Zuletzt geübt',
      ],
      // by name ('=' sorts before letters); a name a spreadsheet would run as a formula stays text, its quotes and ';' quoted
      [`'=Bora; "Test"`, bora.email, '0', '0', '0', '0', '', ''],
      ['Ayşe Export', ayse.email, num(week), num(month), '2', '50', '87,5', berlinMinute(latest)],
    ]);
    expect(res.body).toContain(`"'=Bora; ""Test"""`);
  });

  it('writes the header in Turkish for language=tr', async () => {
    const teacher = await t.teacher();
    const course = await t.course(teacher);
    const res = await getCsv(teacher, course.id, '?language=tr');
    expect(res.statusCode).toBe(200);
    expect(parseCsv(res.body)[0]).toEqual([
      'Ad',
      'E-posta',
      'Bu haftaki çalışma süresi (dk)',
      'Bu ayki çalışma süresi (dk)',
      'Tamamlanan ödevler',
      'Tamamlanma oranı (%)',
      'Ortalama doğruluk (%)',
      'Son çalışma',
    ]);
    expect(res.headers['content-disposition']).toContain('kurs-ilerlemesi-');
  });

  it("refuses another teacher (404 like a course that does not exist), a student (403) and a guest (401)", async () => {
    const teacher = await t.teacher();
    const course = await t.course(teacher);
    const student = await t.student(teacher, { courseIds: [course.id] });
    const other = await t.teacher();
    const foreign = await getCsv(other, course.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain(student.email);
    const ghost = await getCsv(other, 2147483000);
    expect(ghost.statusCode).toBe(404);
    expect(foreign.body).toBe(ghost.body);
    expect((await getCsv(student, course.id)).statusCode).toBe(403);
    expect((await getCsv(null, course.id)).statusCode).toBe(401);
    expect((await getCsv(teacher, course.id, '?format=xlsx')).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/courses/abc/progress.csv', headers: teacher.headers })).statusCode).toBe(422);
  });
});
