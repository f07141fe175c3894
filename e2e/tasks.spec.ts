import type { APIRequestContext, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO, DEMO_PASSWORD, DESKTOP, eachLanguageAndSize, expect, expectNoSeriousAxe, loginAs, shot, test } from './fixtures';
import { makePdf, staffPng } from '../server/modules/media/sample-files';

/** The practice timer's one Start/Stopp control (the tools beside it have Start/Stopp buttons of their own). */
const timerButton = (p: Page, name: 'Start' | 'Stopp') => p.getByTestId('practice-toggle').and(p.getByRole('button', { name, exact: true }));

const here = dirname(fileURLToPath(import.meta.url));
const VIDEO = readFileSync(join(here, 'fixtures', 'video.webm'));
const STUDENT = DEMO.students[0];
const berlinToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
// The machine may be shared with other test runs: give slow answers room.
test.describe.configure({ timeout: 240_000 });
test.use({ actionTimeout: 30_000 });

const uniq = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

async function token(request: APIRequestContext, email: string): Promise<string> {
  const res = await request.post('/api/login', { data: { email, password: DEMO_PASSWORD } });
  expect(res.status()).toBe(200);
  return (await res.json()).token;
}

/**
 * The teacher creates an exercise with a picture, a PDF and a 1 s video through the real upload
 * call, and assigns it to the student for today: the task id.
 */
async function taskWithMedia(
  request: APIRequestContext,
  title: string,
  opts: { studentEmail?: string; courseId?: number | null; media?: boolean } = {},
): Promise<number> {
  const auth = { authorization: `Bearer ${await token(request, DEMO.teacher.email)}` };
  const students = await request.get('/api/students', { headers: auth });
  expect(students.status()).toBe(200);
  const email = opts.studentEmail ?? STUDENT.email;
  const student = ((await students.json()).data as { id: number; email: string }[]).find((s) => s.email === email);
  expect(student).toBeDefined();
  const created = await request.post('/api/exercises', {
    headers: auth,
    multipart: {
      title,
      description: 'Spielen Sie die Tonleiter langsam und gleichmäßig.\nAchten Sie auf ruhigen Atem.',
      category: 'tonbildung',
      difficulty: 'leicht',
      estimated_minutes: '10',
      priority: '2',
      language: 'de',
      ...(opts.media === false
        ? {}
        : {
            'media_files[0]': { name: 'Griffbild.png', mimeType: 'image/png', buffer: staffPng(480, 200) },
            'media_files[1]': { name: 'Übungsblatt.pdf', mimeType: 'application/pdf', buffer: makePdf('Übungsblatt', ['Rast-Tonleiter']) },
            'media_files[2]': { name: 'Vorspiel.webm', mimeType: 'video/webm', buffer: VIDEO },
          }),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const exercise = await created.json();
  if (opts.media !== false) expect(exercise.media_files.map((m: { type: string }) => m.type).sort()).toEqual(['image', 'pdf', 'video']);
  const assigned = await request.post('/api/submissions', {
    headers: auth,
    data: {
      exercise_id: exercise.id,
      due_date: berlinToday(),
      ...(opts.courseId ? { course_id: opts.courseId } : {}),
      assignees: { users: [student!.id] },
      teacher_note: 'Bitte mit Metronom auf 60 üben.',
      expiration_days: 2,
    },
  });
  expect(assigned.status(), await assigned.text()).toBe(201);
  return (await assigned.json()).submissions[0].id;
}

const timer = (page: Page) => page.getByTestId('timer-display');
const seconds = async (page: Page) => {
  const [m, s] = (await timer(page).innerText()).split(':').map(Number);
  return (m ?? 0) * 60 + (s ?? 0);
};

test('a student opens a task with picture, PDF and video, practises with the timer across a reload, and marks it done', async ({ page, request, context }) => {
  const title = `Tonleiter mit Video ${uniq()}`;
  const taskId = await taskWithMedia(request, title);

  await loginAs(page, STUDENT.email);
  await page.getByRole('link', { name: 'Aufgaben', exact: true }).first().click();
  await expect(page).toHaveURL(/\/submissions$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Meine Aufgaben' })).toBeVisible();
  await expect(page.getByTestId('task-counter')).toHaveText(/^\d+ von \d+ Aufgaben?$/);
  const card = page.getByTestId('task-card').filter({ hasText: title });
  await expect(card).toHaveAttribute('data-status', 'open');
  await expect(card.getByRole('button', { name: 'Als erledigt markieren' })).toBeEnabled();
  await shot(page, 'tasks', 'list-de-desktop');

  // The card opens the task.
  await card.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/submissions/${taskId}$`));
  await expect(page.getByRole('navigation', { name: 'Navigationspfad' })).toContainText('Meine Aufgaben');
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText('Notiz vom Lehrer')).toBeVisible();
  await expect(page.getByText('Bitte mit Metronom auf 60 üben.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Aufgabenbeschreibung' })).toBeVisible();
  await expect(page.getByText('Spielen Sie die Tonleiter langsam')).toBeVisible();

  // Media: the picture really loads, the PDF opens in a new tab, the video reads its metadata.
  await expect(page.getByRole('heading', { name: 'Medien & Materialien' })).toBeVisible();
  // (the first picture also leads the page as the score; this is the one under Medien & Materialien)
  const img = page.getByRole('img', { name: 'Griffbild.png', exact: true }).last();
  await expect(img).toBeVisible();
  await img.scrollIntoViewIfNeeded(); // loading="lazy": below the practice tools it loads when near
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(480);
  const pdfRow = page.getByRole('listitem').filter({ hasText: 'Übungsblatt.pdf' });
  await expect(pdfRow).toContainText(/\d+(,\d+)? (Bytes|KB)/);
  const pdfLink = pdfRow.getByRole('link', { name: /Öffnen/ });
  await expect(pdfLink).toHaveAttribute('target', '_blank');
  const pdfRes = await request.get((await pdfLink.getAttribute('href'))!);
  expect(pdfRes.status()).toBe(200);
  expect(pdfRes.headers()['content-type']).toContain('application/pdf');
  const video = page.locator('video');
  await expect(video).toHaveAttribute('preload', 'metadata');
  await expect(video.locator('source').first()).toHaveAttribute('type', 'video/webm');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
  expect(await video.evaluate((v: HTMLVideoElement) => v.duration)).toBeCloseTo(1, 0);
  await expect(page.getByRole('link', { name: 'In neuem Tab öffnen' })).toHaveAttribute('target', '_blank');
  await expect(page.getByRole('link', { name: 'Herunterladen' })).toHaveAttribute('href', /download=1/);

  // Timer: start, tick, reload mid-session, still running from the server's start.
  await expect(page.getByRole('heading', { name: 'Übungszeit erfassen' })).toBeVisible();
  await expect(timer(page)).toHaveText('00:00');
  // one control: Start, then Stopp
  await expect(timerButton(page, 'Stopp')).toHaveCount(0);
  await timerButton(page, 'Start').click();
  await expect(page.getByText('Übung gestartet!')).toBeVisible();
  await expect(timerButton(page, 'Start')).toHaveCount(0);
  await expect.poll(() => seconds(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
  await shot(page, 'tasks', 'detail-running-de-desktop');
  const beforeReload = await seconds(page);
  await page.reload();
  await expect(timerButton(page, 'Stopp')).toBeEnabled();
  expect(await seconds(page)).toBeGreaterThanOrEqual(beforeReload);
  await expect.poll(() => seconds(page)).toBeGreaterThan(beforeReload);

  // A second tab finds the same running session (it never starts a second one).
  const second = await context.newPage();
  await second.goto(`/submissions/${taskId}`);
  await expect(timerButton(second, 'Stopp')).toBeEnabled({ timeout: 30_000 });
  expect(await seconds(second)).toBeGreaterThanOrEqual(beforeReload);
  await second.close();

  await timerButton(page, 'Stopp').click();
  await expect(page.getByText(/^Übung beendet! \d+ s aufgezeichnet\.$/)).toBeVisible();
  // the clock keeps today's total on the task (not 00:00)
  await expect(timer(page)).not.toHaveText('00:00');
  expect(await seconds(page)).toBeGreaterThanOrEqual(beforeReload);
  const sessions = page.getByTestId('practice-sessions').getByRole('listitem');
  await expect(sessions).toHaveCount(1);
  await expect(sessions.first()).toContainText(/\d+ s$/);
  // the task was reloaded: practised time is in the details
  await expect(page.getByTestId('time-spent')).toHaveText(/^\d+ s$/);

  // Done: the button becomes a status, the timer disappears, the list has it under Erledigt.
  await page.getByRole('button', { name: 'Als erledigt markieren' }).click();
  await expect(page.getByText('Aufgabe erfolgreich als erledigt markiert!')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Als erledigt markieren' })).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Übungszeit erfassen' })).toHaveCount(0);
  await expect(page.locator('header dl')).toContainText('Erledigt:');
  await expectNoSeriousAxe(page, 'main');
  await shot(page, 'tasks', 'detail-done-de-desktop');

  await page.getByRole('link', { name: 'Meine Aufgaben' }).click();
  await page.getByRole('tab', { name: /Erledigt/ }).click();
  await expect(page).toHaveURL(/tab=completed/);
  const doneCard = page.getByTestId('task-card').filter({ hasText: title });
  await expect(doneCard).toHaveAttribute('data-status', 'completed');
  await expect(doneCard.getByRole('button', { name: 'Als erledigt markieren' })).toHaveCount(0);
  await expect(page.getByRole('tab', { name: /Offen/ })).toBeVisible();
  await expectNoSeriousAxe(page, 'main');
});

test('a running timer: a 409 on start in a stale tab resumes the running session', async ({ page, request, context }) => {
  const title = `Zweiter Tab ${uniq()}`;
  const taskId = await taskWithMedia(request, title);
  await loginAs(page, STUDENT.email);
  await page.goto(`/submissions/${taskId}`);
  await expect(timerButton(page, 'Start')).toBeEnabled();
  // another tab starts the timer meanwhile (this tab does not know)
  const other = await context.newPage();
  await other.goto(`/submissions/${taskId}`);
  await timerButton(other, 'Start').click();
  await expect(timerButton(other, 'Stopp')).toBeEnabled();
  await other.waitForTimeout(2100);
  await other.close();
  await timerButton(page, 'Start').click();
  await expect(page.getByText('Für diese Aufgabe läuft bereits eine Übung.')).toBeVisible();
  await expect(timerButton(page, 'Stopp')).toBeEnabled();
  expect(await seconds(page)).toBeGreaterThanOrEqual(2);
  await timerButton(page, 'Stopp').click();
  await expect(page.getByText(/^Übung beendet!/)).toBeVisible();
});

test('not found, a teacher read-only, and the screens in German and Turkish on desktop and phone', async ({ page, request, browser }) => {
  const title = `Ansicht ${uniq()}`;
  const taskId = await taskWithMedia(request, title);

  await loginAs(page, STUDENT.email);
  await page.goto('/submissions/2147483000');
  await expect(page.getByTestId('task-not-found')).toContainText('Aufgabe nicht gefunden');
  await expect(page.getByRole('alert').filter({ hasText: 'Aufgabe nicht gefunden.' })).toBeVisible();
  await page.getByRole('link', { name: 'Zurück zu meinen Aufgaben' }).click();
  await expect(page).toHaveURL(/\/submissions$/);

  // An expired task of the demo school: 'Verfallen seit', no button, no timer. It belongs to a
  // daily series, whose dates wait in one closed group (docs/decisions/done-means-practised.md).
  await expect(page.getByTestId('series-toggle').first()).toBeVisible();
  for (const toggle of await page.getByTestId('series-toggle').all()) {
    if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
  }
  const expired = page.locator('[data-testid="task-card"][data-status="expired"]').first();
  await expect(expired.getByTestId('expired-label')).toHaveText('Verfallen');
  await expect(expired.getByRole('button', { name: 'Als erledigt markieren' })).toHaveCount(0);
  await expired.getByRole('link').click();
  await expect(page.locator('header dl')).toContainText(/Verfallen seit:\s*\d\d\.\d\d\.\d{4}/);
  await expect(page.getByRole('button', { name: 'Als erledigt markieren' })).toHaveCount(0);
  await expect(page.getByTestId('practice-timer')).toHaveCount(0);

  await eachLanguageAndSize(page, async (lang, size, viewport) => {
    await page.goto('/submissions');
    await expect(page.getByTestId('task-card').first()).toBeVisible();
    await shot(page, 'tasks', `list-${lang}-${size}`);
    await page.goto(`/submissions/${taskId}`);
    await expect(page.getByTestId('practice-timer')).toBeVisible();
    await expect.poll(() => page.locator('video').evaluate((v: HTMLVideoElement) => v.readyState), { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    await shot(page, 'tasks', `detail-${lang}-${size}`);
    // nothing wider than the screen
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
  });
  await expect(page.getByRole('heading', { name: 'Çalışma süresini kaydet' })).toBeVisible();
  await expectNoSeriousAxe(page, 'main');

  // The teacher sees the same task read-only: no timer, no button, the practice history.
  const teacherContext = await browser.newContext({ viewport: DESKTOP, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  const teacher = await teacherContext.newPage();
  await loginAs(teacher, DEMO.teacher.email);
  await teacher.goto(`/submissions/${taskId}`);
  await expect(teacher.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(teacher.getByRole('navigation', { name: 'Navigationspfad' })).toContainText(STUDENT.name);
  await expect(teacher.getByRole('button', { name: 'Als erledigt markieren' })).toHaveCount(0);
  await expect(teacher.getByTestId('practice-timer')).toHaveCount(0);
  await expect(teacher.getByText('Der Schüler hat für diese Aufgabe noch keine Übungszeit aufgezeichnet.')).toBeVisible();
  await expect(teacher.getByRole('img', { name: 'Griffbild.png', exact: true })).toBeVisible();
  await shot(teacher, 'tasks', 'detail-teacher-de-desktop');
  await teacherContext.close();
});

test('a new student: the three empty states, the course filter with a singular counter, a failed load', async ({ page, request }) => {
  const auth = { authorization: `Bearer ${await token(request, DEMO.teacher.email)}` };
  const courses = (await (await request.get('/api/courses', { headers: auth })).json()) as { id: number; name: string }[];
  expect(courses.length).toBeGreaterThanOrEqual(2);
  const [courseA, courseB] = courses as [{ id: number; name: string }, { id: number; name: string }];
  const email = `neu.${uniq()}@example.test`;
  const created = await request.post('/api/students', {
    headers: auth,
    data: { name: 'Neu Anfänger', email, password: 'anfang-1234', course_ids: [courseA.id, courseB.id] },
  });
  expect(created.status(), await created.text()).toBe(201);

  await loginAs(page, email, 'anfang-1234');
  await page.goto('/submissions');
  await expect(page.getByText('Keine Aufgaben zugewiesen')).toBeVisible();
  await expect(page.getByTestId('task-counter')).toHaveText('0 von 0 Aufgaben');
  await shot(page, 'tasks', 'empty-none-de-desktop');

  await taskWithMedia(request, `Erste Aufgabe ${uniq()}`, { studentEmail: email, courseId: courseA.id, media: false });
  await taskWithMedia(request, `Zweite Aufgabe ${uniq()}`, { studentEmail: email, courseId: courseB.id, media: false });
  await page.reload();
  await expect(page.getByTestId('task-card')).toHaveCount(2);
  await expect(page.getByTestId('task-counter')).toHaveText('2 von 2 Aufgaben');
  await expect(page.getByRole('tab', { name: 'Offen 2' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Erledigt', exact: true })).toBeVisible(); // no badge at 0
  await page.getByRole('tab', { name: /Erledigt/ }).click();
  await expect(page.getByText('Noch keine erledigten Aufgaben')).toBeVisible();
  await expect(page.getByTestId('task-counter')).toHaveText('0 von 2 Aufgaben');

  // The course filter: one course, one task ('Aufgabe' without n).
  await page.getByRole('tab', { name: /Alle/ }).click();
  await page.getByLabel('Kurs', { exact: true }).selectOption({ label: courseA.name });
  await expect(page.getByTestId('task-counter')).toHaveText('1 von 1 Aufgabe');
  await page.getByLabel('Kurs', { exact: true }).selectOption({ label: 'Alle Kurse' });
  await expect(page.getByTestId('task-counter')).toHaveText('2 von 2 Aufgaben');

  // Mark both done from the list: each card turns green and, being done, moves below the work still to do.
  const cards = page.getByTestId('task-card');
  const doneCards = page.locator('[data-testid="task-card"][data-status="completed"]');
  // Nothing practised yet: each 'done' asks first (docs/decisions/done-means-practised.md).
  await cards.getByRole('button', { name: 'Als erledigt markieren' }).first().click();
  await page.getByRole('button', { name: 'Trotzdem erledigt' }).click();
  await expect(doneCards).toHaveCount(1);
  // The second as a quick double tap: confirmed while the dialog is still fading in. Once closed it
  // must be gone from over the page at once (docs/decisions/dialogs.md).
  await page.evaluate(() => {
    const observer = new MutationObserver(() => {
      const yes = [...document.querySelectorAll<HTMLButtonElement>('[role="dialog"] button')].find((b) => b.textContent?.includes('Trotzdem erledigt'));
      if (!yes) return;
      observer.disconnect();
      setTimeout(() => yes.click(), 30);
    });
    observer.observe(document.body, { childList: true, subtree: true });
  });
  await cards.getByRole('button', { name: 'Als erledigt markieren' }).first().click();
  await expect(doneCards).toHaveCount(2);
  await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 1000 });
  await expect(cards.getByRole('button', { name: 'Als erledigt markieren' })).toHaveCount(0);
  await expect(page.getByText('Aufgabe erfolgreich als erledigt markiert!').first()).toBeVisible();
  await page.getByRole('tab', { name: /Offen/ }).click();
  await expect(page.getByText('Alles erledigt!')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Erledigt 2' })).toBeVisible();
  await shot(page, 'tasks', 'empty-all-done-de-desktop');

  // Without a connection the list the student saw stays readable from the device (docs/decisions/offline-practice.md).
  const listOrCounts = /\/api\/submissions(\?|\/counts)/;
  await page.waitForTimeout(1500); // the device's copy is written at most once a second
  await page.route(listOrCounts, (route) => route.abort());
  await page.reload();
  await expect(page.getByText('Alles erledigt!')).toBeVisible();
  await page.unroute(listOrCounts);

  // Back online: fresh from the server (the error panel of a failed load with nothing kept is
  // covered in web/features/tasks/components/task-list.test.tsx).
  await page.reload();
  await expect(page.getByText('Alles erledigt!')).toBeVisible();
  await expect(page.getByTestId('offline-notice')).toHaveCount(0);
  await expect(page.getByTestId('task-counter')).toHaveText('0 von 2 Aufgaben');
});

/** A new student in `courseId` with one task a day for `days` days from today on: the student's e-mail. */
async function studentWithDailyTasks(request: APIRequestContext, courseId: number, days: number): Promise<string> {
  const auth = { authorization: `Bearer ${await token(request, DEMO.teacher.email)}` };
  const email = `viele.${uniq()}@example.test`;
  const student = await request.post('/api/students', {
    headers: auth,
    data: { name: 'Viele Aufgaben', email, password: 'viele-1234', course_ids: [courseId] },
  });
  expect(student.status(), await student.text()).toBe(201);
  const studentId = (await student.json()).id as number;
  const exercise = await request.post('/api/exercises', {
    headers: auth,
    multipart: { title: `Tägliche Tonleiter ${uniq()}`, description: 'Jeden Tag fünf Minuten.', category: 'tonbildung', difficulty: 'leicht', estimated_minutes: '5', priority: '3', language: 'de' },
  });
  expect(exercise.status(), await exercise.text()).toBe(201);
  // One assignment per day, not one daily series: a series' dates are one group in the list
  // (docs/decisions/done-means-practised.md), and this test is about the list's pages of cards.
  const today = berlinToday();
  const exerciseId = (await exercise.json()).id as number;
  for (let d = 0; d < days; d++) {
    const due = new Date(`${today}T12:00:00Z`);
    due.setUTCDate(due.getUTCDate() + d);
    const assigned = await request.post('/api/submissions', {
      headers: auth,
      data: { exercise_id: exerciseId, due_date: due.toISOString().slice(0, 10), course_id: courseId, assignees: { users: [studentId] }, expiration_days: 2 },
    });
    expect(assigned.status(), await assigned.text()).toBe(201);
  }
  return email;
}

test('a student with more than 50 tasks sees 50, loads the rest with the button, and the counter and badges stay right', async ({ page, request }) => {
  const auth = { authorization: `Bearer ${await token(request, DEMO.teacher.email)}` };
  const courses = (await (await request.get('/api/courses', { headers: auth })).json()) as { id: number }[];
  const email = await studentWithDailyTasks(request, courses[0]!.id, 62);

  await loginAs(page, email, 'viele-1234');
  // Every list call of the task screen (the ones with an order; the dashboard asks for its own) is one page of 50.
  const listCalls: URL[] = [];
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (url.pathname === '/api/submissions' && req.method() === 'GET' && url.searchParams.has('order')) listCalls.push(url);
  });
  await page.goto('/submissions');
  const cards = page.getByTestId('task-card');
  await expect(cards).toHaveCount(50);
  await expect(page.getByTestId('task-counter')).toHaveText('62 von 62 Aufgaben');
  await expect(page.getByRole('tab', { name: 'Offen 62' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Erledigt', exact: true })).toBeVisible();
  await expect(page.getByTestId('tasks-loaded')).toHaveText('50 von 62 angezeigt');
  await shot(page, 'tasks', 'more-top-de-desktop', { fullPage: false });
  const more = page.getByRole('button', { name: 'Weitere Aufgaben laden' });
  await more.scrollIntoViewIfNeeded();
  await expect(more).toBeVisible();
  await expectNoSeriousAxe(page, 'main');
  await shot(page, 'tasks', 'more-de-desktop', { fullPage: false });

  // The keyboard: Enter on the button loads the rest, focus lands on the first new task.
  const buttonBox = await more.boundingBox();
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(cards).toHaveCount(62);
  await expect(more).toHaveCount(0);
  await expect(cards.nth(50).getByRole('link')).toBeFocused();
  await shot(page, 'tasks', 'more-loaded-focus-de-desktop', { fullPage: false });
  // the first new task starts where the button was: nothing above it moved
  const firstNew = await cards.nth(50).boundingBox();
  expect(Math.abs(firstNew!.y - buttonBox!.y)).toBeLessThan(60);
  await expect(page.getByTestId('tasks-loaded')).toHaveText('62 von 62 angezeigt');
  await expect(page.getByTestId('task-counter')).toHaveText('62 von 62 Aufgaben');
  const dues = await cards.evaluateAll((els) => els.map((el) => el.querySelector('dd')?.textContent ?? ''));
  expect(new Set(dues).size).toBe(62); // one task per day, none twice
  expect(listCalls.map((u) => [u.searchParams.get('order'), u.searchParams.get('limit'), u.searchParams.get('offset')])).toEqual([
    ['work', '50', '0'],
    ['work', '50', '50'],
  ]);

  // Open: its own pages; marking one done moves the counts at once.
  await page.getByRole('tab', { name: /Offen/ }).click();
  await expect(cards).toHaveCount(50);
  expect(listCalls.at(-1)?.searchParams.get('status')).toBe('open,overdue');
  await cards.first().getByRole('button', { name: 'Als erledigt markieren' }).click();
  await page.getByRole('button', { name: 'Trotzdem erledigt' }).click(); // nothing practised: asked first
  await expect(page.getByRole('tab', { name: 'Offen 61' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Erledigt 1' })).toBeVisible();
  await expect(page.getByTestId('task-counter')).toHaveText('61 von 62 Aufgaben');
  await expect(page.getByTestId('tasks-loaded')).toHaveText('50 von 61 angezeigt');
  await page.getByRole('button', { name: 'Weitere Aufgaben laden' }).click();
  await expect(cards).toHaveCount(61);
  await page.getByRole('tab', { name: /Erledigt/ }).click();
  await expect(cards).toHaveCount(1);
  await expect(page.getByTestId('task-counter')).toHaveText('1 von 62 Aufgaben');
  await expect(page.getByRole('button', { name: 'Weitere Aufgaben laden' })).toHaveCount(0);

  await eachLanguageAndSize(page, async (lang, size, viewport) => {
    await page.goto('/submissions');
    await expect(cards).toHaveCount(50);
    const button = page.getByRole('button', { name: lang === 'de' ? 'Weitere Aufgaben laden' : 'Daha fazla ödev yükle' });
    await button.scrollIntoViewIfNeeded();
    await expect(button).toBeVisible();
    await expect(page.getByTestId('tasks-loaded')).toHaveText(lang === 'de' ? '50 von 62 angezeigt' : '62 ödevden 50 tanesi gösteriliyor');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await shot(page, 'tasks', `more-${lang}-${size}`, { fullPage: false });
    // loading: the button keeps its place and size, with a spinner
    // The second page is held until the loading state has been measured (not for a fixed time,
    // which a loaded machine can outlast).
    const secondPage = (url: URL) => url.pathname === '/api/submissions' && url.searchParams.get('offset') === '50';
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(secondPage, async (route) => {
      await held;
      await route.continue();
    });
    const before = await button.boundingBox();
    await button.click();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    const during = await button.boundingBox();
    expect(during).toEqual(before);
    await shot(page, 'tasks', `more-loading-${lang}-${size}`, { fullPage: false });
    release();
    await expect(cards).toHaveCount(62);
    await page.unroute(secondPage);
  });
  await expect(page.getByTestId('task-counter')).toHaveText('62 ödevden 62 tanesi');
});
