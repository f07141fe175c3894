import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays } from '@contract/recurrence';
import { CALENDAR_FEED_DAYS } from '@contract/reports';
import { todayInZone } from '../../lib/time';
import { allDayDate, parseIcs, type IcsEvent } from '../../test/ics-check';
import { setupTestApp, type TestApp, type TestUser } from '../../test/test-app';

const TZ = 'Europe/Berlin'; // APP_TIMEZONE of the test app
let t: TestApp;
beforeAll(async () => {
  t = await setupTestApp({ PUBLIC_URL: 'https://musikschule.example/' });
});
afterAll(async () => {
  await t.close();
});

type Sub = { url: string; webcal_url: string; created_at: string };

async function subscription(user: TestUser, query = ''): Promise<Sub> {
  const res = await t.app.inject({ method: 'GET', url: `/api/calendar-subscription${query}`, headers: { ...user.headers, host: 'anderswo.example' } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  return res.json<Sub>();
}

/** Fetches a calendar address as a calendar app would: no token. */
const fetchCalendar = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: url.replace(/^[a-z]+:\/\/[^/]+/, ''), headers });

async function calendarOf(url: string) {
  const res = await fetchCalendar(url);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/calendar; charset=utf-8');
  return parseIcs(res.body);
}

const bySummary = (events: IcsEvent[], summary: string) => events.filter((e) => e.props.get('SUMMARY')?.value === summary);

describe('calendar subscription', () => {
  it("gives a student a private address at PUBLIC_URL (whatever Host the request names), the same on every ask, with their tasks as all-day events on the due dates", async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher, { name: 'Ayşe Kalender' });
    const sibling = await t.student(teacher);
    const today = todayInZone(TZ);
    const scales = await t.exercise(teacher, { title: 'Tonleitern; C-Dur, "langsam"' });
    const etude = await t.exercise(teacher, { title: 'Etüde Nr. 3' });
    const open = await t.submission(student, teacher, scales, { dueDate: addDays(today, 2), teacherNote: 'Bitte mit Metronom\nauf 60', expirationDate: addDays(today, 4) });
    await t.submission(student, teacher, etude, { dueDate: today, completedAt: new Date() });
    await t.submission(student, teacher, etude, { dueDate: addDays(today, -1) });
    // outside the window: not in the file
    await t.submission(student, teacher, etude, { dueDate: addDays(today, CALENDAR_FEED_DAYS.ahead + 1) });
    // a sibling's task never shows
    await t.submission(sibling, teacher, await t.exercise(teacher, { title: 'Nur für den Bruder' }), { dueDate: today });

    const sub = await subscription(student);
    expect(sub.url).toMatch(/^https:\/\/musikschule\.example\/calendar\/[A-Za-z0-9_-]{43}\.ics$/);
    expect(sub.webcal_url).toBe(sub.url.replace(/^https:/, 'webcal:'));
    expect((await subscription(student)).url).toBe(sub.url);
    expect((await subscription(sibling)).url).not.toBe(sub.url);

    const ics = await calendarOf(sub.url);
    expect(ics.calendar.get('METHOD')).toBe('PUBLISH');
    expect(ics.calendar.get('X-WR-CALNAME')).toContain('Ayşe Kalender');
    expect(ics.events).toHaveLength(3);
    const [scaleEvent] = bySummary(ics.events, 'Tonleitern; C-Dur, "langsam"');
    expect(allDayDate(scaleEvent!, 'DTSTART')).toBe(addDays(today, 2));
    expect(allDayDate(scaleEvent!, 'DTEND')).toBe(addDays(today, 3));
    expect(scaleEvent!.props.get('UID')!.value).toBe(`submission-${open.id}@uebungskontrolle`);
    const description = scaleEvent!.props.get('DESCRIPTION')!.value;
    expect(description).toContain('Status: Offen');
    expect(description).toContain('Bitte mit Metronom\nauf 60');
    expect(description).toContain(`Verfällt nach dem ${addDays(today, 4).split('-').reverse().join('.')}`);
    expect(scaleEvent!.props.get('URL')!.value).toBe(`https://musikschule.example/submissions/${open.id}`);
    const etudes = bySummary(ics.events, 'Etüde Nr. 3').map((e) => [allDayDate(e, 'DTSTART'), e.props.get('DESCRIPTION')!.value.split('\n')[0]]);
    expect(etudes).toEqual([
      [addDays(today, -1), 'Status: Überfällig'],
      [today, 'Status: Erledigt'],
    ]);
    expect(bySummary(ics.events, 'Nur für den Bruder')).toEqual([]);
  });

  it('writes the texts in Turkish for a Turkish address', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    await t.submission(student, teacher, await t.exercise(teacher, { title: 'Makam Hicaz' }), { dueDate: todayInZone(TZ), teacherNote: 'Yavaş çal' });
    const sub = await subscription(student, '?language=tr');
    expect(sub.url).toMatch(/\.ics\?language=tr$/);
    const [event] = (await calendarOf(sub.url)).events;
    expect(event!.props.get('DESCRIPTION')!.value).toBe('Durum: Bekliyor\n\nÖğretmenin notu:\nYavaş çal');
  });

  it("gives a teacher one event per exercise and due date with their students' status, never another teacher's", async () => {
    const teacher = await t.teacher();
    const other = await t.teacher();
    const [anna, bert] = [await t.student(teacher, { name: 'Anna K' }), await t.student(teacher, { name: 'Bert K' })];
    const foreign = await t.student(other, { name: 'Fremd K' });
    const today = todayInZone(TZ);
    const ex = await t.exercise(teacher, { title: 'Atemübung' });
    await t.submission(anna, teacher, ex, { dueDate: addDays(today, 1), completedAt: new Date(), teacherNote: 'Ruhig atmen' });
    await t.submission(bert, teacher, ex, { dueDate: addDays(today, 1), teacherNote: 'Ruhig atmen' });
    await t.submission(bert, teacher, ex, { dueDate: addDays(today, 8) });
    await t.submission(foreign, other, await t.exercise(other, { title: 'Fremde Übung' }), { dueDate: addDays(today, 1) });

    const ics = await calendarOf((await subscription(teacher)).url);
    expect(ics.events.map((e) => [e.props.get('SUMMARY')!.value, allDayDate(e, 'DTSTART')])).toEqual([
      ['Atemübung (1/2)', addDays(today, 1)],
      ['Atemübung (0/1)', addDays(today, 8)],
    ]);
    expect(ics.events[0]!.props.get('DESCRIPTION')!.value).toBe('2 Schüler, 1 erledigt\n\nAnna K: Erledigt\nBert K: Offen\n\nNotizen:\nRuhig atmen');
    expect(new Set(ics.events.map((e) => e.props.get('UID')!.value)).size).toBe(2);
    expect(JSON.stringify([...ics.events])).not.toContain('Fremd');
  });

  it('renews: the old address answers 404 at once, the new one works; nobody else is affected', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    await t.submission(student, teacher, await t.exercise(teacher), { dueDate: todayInZone(TZ) });
    const before = await subscription(student);
    const otherSub = await subscription(teacher);
    const renewed = await t.app.inject({ method: 'POST', url: '/api/calendar-subscription/renew', headers: student.headers });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const after = renewed.json<Sub>();
    expect(after.url).not.toBe(before.url);
    expect((await subscription(student)).url.split('/').at(-1)).toBe(after.url.split('/').at(-1));

    const old = await fetchCalendar(before.url);
    expect(old.statusCode).toBe(404);
    expect(old.json()).toEqual({ message: expect.any(String) });
    expect((await calendarOf(after.url)).events).toHaveLength(1);
    expect((await fetchCalendar(otherSub.url)).statusCode).toBe(200);
  });

  it('answers 404 for unknown or malformed addresses, and the same for all; a guest gets no address', async () => {
    const unknown = await fetchCalendar(`/calendar/${'A'.repeat(43)}.ics`);
    expect(unknown.statusCode).toBe(404);
    for (const bad of ['/calendar/abc.ics', `/calendar/${'A'.repeat(43)}.txt`, `/calendar/${'A'.repeat(43)}`, `/calendar/${'%2e'.repeat(20)}.ics`]) {
      const res = await fetchCalendar(bad);
      expect(res.statusCode, bad).toBe(404);
      expect(res.body).toBe(unknown.body);
    }
    expect((await fetchCalendar(`/calendar/${'A'.repeat(43)}.ics?foo=1`)).statusCode).toBe(422);
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar-subscription' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/calendar-subscription/renew' })).statusCode).toBe(401);
    const teacher = await t.teacher();
    expect((await t.app.inject({ method: 'GET', url: '/api/calendar-subscription?x=1', headers: teacher.headers })).statusCode).toBe(422);
  });

  it('stops with the account: a deleted student\'s address answers 404', async () => {
    const teacher = await t.teacher();
    const student = await t.student(teacher);
    const sub = await subscription(student);
    expect((await fetchCalendar(sub.url)).statusCode).toBe(200);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/students/${student.id}`, headers: teacher.headers });
    expect(del.statusCode).toBe(204);
    expect((await fetchCalendar(sub.url)).statusCode).toBe(404);
  });
});
