import type { APIRequestContext, BrowserContext, Page } from '@playwright/test';
import { staffPng } from '../server/modules/media/sample-files';
import { DEMO, DEMO_PASSWORD, DESKTOP, PHONE, expect, expectNoSeriousAxe, loginAs, persistentPhone, setLanguage, shot, test } from './fixtures';

/**
 * docs/decisions/offline-practice.md: practise in a room without signal. A student opens a task online (the service worker
 * installs and precaches the app), loses the connection, reloads (the app comes from the service
 * worker, the task from the persisted cache), times 5 s, marks the task done, and gets the
 * connection back: the session and the completion reach the server exactly once, and the teacher
 * sees the session as recorded offline.
 */

/**
 * A browser with a profile on disk: Chromium does not offer to install an app from an incognito
 * context (Playwright's usual one), so the installability check needs a real profile. The service
 * worker runs only here: every other spec blocks it (playwright.config.ts).
 */
async function phoneBrowser(): Promise<{ context: BrowserContext; page: Page; close: () => Promise<void> }> {
  const phone = await persistentPhone();
  // Counts the Screen Wake Lock requests and the locks held (the timer and the metronome ask for one).
  await phone.context.addInitScript(() => {
    const w = window as unknown as { __wake: { asked: number; held: number } };
    w.__wake = { asked: 0, held: 0 };
    const lock = navigator.wakeLock as WakeLock | undefined;
    if (!lock) return;
    const request = lock.request.bind(lock);
    lock.request = async (type?: 'screen') => {
      w.__wake.asked++;
      const sentinel = await request(type);
      w.__wake.held++;
      sentinel.addEventListener('release', () => w.__wake.held--);
      return sentinel;
    };
  });
  return phone;
}

// A student of their own (made below), so no other spec's counts move.
const STUDENT = { email: `offline-${Date.now()}@example.com`, name: 'Lea Offline', password: 'offline-1234' };

const berlinToday = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());

async function tokenOf(request: APIRequestContext, email: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await request.post('/api/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** The student and a task for them due today, made by the teacher through the API. */
async function freshTask(request: APIRequestContext): Promise<{ id: number; title: string }> {
  const auth = { Authorization: `Bearer ${await tokenOf(request, DEMO.teacher.email)}` };
  const made = await request.post('/api/students', { headers: auth, data: STUDENT });
  expect(made.status()).toBe(201);
  const student = (await made.json()) as { id: number };
  // an exercise with a score image: opened online, it must show without signal too
  const created = await request.post('/api/exercises', {
    headers: auth,
    multipart: {
      title: `Tonleiter offline ${Date.now()}`,
      description: 'Langsam, mit ruhigem Atem.',
      category: 'tonbildung',
      difficulty: 'leicht',
      estimated_minutes: '10',
      priority: '2',
      language: 'de',
      'media_files[0]': { name: 'Notenbild.png', mimeType: 'image/png', buffer: staffPng(480, 200) },
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const exercise = (await created.json()) as { id: number; title: string };
  if (!student || !exercise) throw new Error('demo data missing');
  const res = await request.post('/api/submissions', {
    headers: auth,
    data: { exercise_id: exercise.id, due_date: berlinToday(), assignees: { users: [student.id] }, teacher_note: 'Offline üben' },
  });
  expect(res.status()).toBe(201);
  const sub = ((await res.json()) as { submissions: Array<{ id: number }> }).submissions[0];
  if (!sub) throw new Error('no task made');
  return { id: sub.id, title: exercise.title };
}

async function serverState(request: APIRequestContext, id: number) {
  const auth = { Authorization: `Bearer ${await tokenOf(request, STUDENT.email, STUDENT.password)}` };
  const sessions = (await (await request.get(`/api/submissions/${id}/practice-sessions`, { headers: auth })).json()) as Array<{
    started_at: string;
    ended_at: string | null;
    recorded_offline: boolean;
  }>;
  const task = (await (await request.get(`/api/submissions/${id}`, { headers: auth })).json()) as { status: string; completed_at: string | null };
  return { sessions, task };
}

async function waitForServiceWorker(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined, null, { timeout: 30_000 });
}

test('without signal: reload, time 5 s, mark done; back online everything arrives once and the teacher sees it as offline', async ({ request }) => {
  const task = await freshTask(request);
  const { context, page, close } = await phoneBrowser();
  try {
    await journey(page, context, request, task);
  } finally {
    await close();
  }
});

async function journey(page: Page, context: BrowserContext, request: APIRequestContext, task: { id: number; title: string }): Promise<void> {
  await loginAs(page, STUDENT.email, STUDENT.password);

  // Online: the task list and the task, so both are in the device's cache.
  await page.goto('/submissions');
  await expect(page.getByTestId('task-card').first()).toBeVisible();
  await page.goto(`/submissions/${task.id}`);
  await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'false');
  await waitForServiceWorker(page);
  // the score, seen online once the service worker controls the page (its copy is kept then)
  await page.reload();
  // Inter comes from the worker's precache from now on (a first visit used the system font).
  await expect(page.locator('html')).toHaveAttribute('data-font', 'inter');
  await expect.poll(() => page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('Inter Variable');
  await expect.poll(() => page.evaluate(async () => (await document.fonts.load('600 16px "Inter Variable"', 'Ayşe')).length)).toBeGreaterThan(0);
  const onlineScore = page.getByRole('img', { name: 'Notenbild.png' }).first();
  await onlineScore.scrollIntoViewIfNeeded();
  await expect.poll(() => onlineScore.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBe(480);
  await expect.poll(() => page.evaluate(async () => (await (await caches.open('uebungskontrolle-media-v1')).keys()).length)).toBe(1);

  // Chromium's own installability check: manifest, icons, service worker with a fetch handler.
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
  expect(installabilityErrors.map((e) => e.errorId)).toEqual([]);
  const manifest = (await cdp.send('Page.getAppManifest')) as { errors: unknown[]; url: string };
  expect(manifest.errors).toEqual([]);
  // the persisted cache is written at most once a second
  await page.waitForTimeout(1500);

  let offlinePosts = 0;
  let completes = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/practice-sessions\/offline$/.test(r.url())) offlinePosts++;
    if (r.method() === 'PATCH' && /\/complete$/.test(r.url())) completes++;
  });

  // No signal. The reload is answered by the service worker; the task comes from the cache.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(task.title);
  await expect(page.getByTestId('offline-notice')).toContainText('Offline – zuletzt aktualisiert');
  // the score opened online comes from the device (cached by its path; the signed link's signature plays no part)
  const score = page.getByRole('img', { name: 'Notenbild.png' }).first();
  await score.scrollIntoViewIfNeeded();
  await expect.poll(() => score.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBe(480);
  await expect(page.getByTestId('outbox-button')).toBeVisible();

  // Practise 5 s on the device's clock.
  await page.getByTestId('practice-toggle').click();
  await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'true');
  await expect(page.getByTestId('timer-offline')).toBeVisible();
  await expect(page.getByTestId('timer-display')).toHaveText('00:05', { timeout: 8000 });
  await page.getByTestId('practice-toggle').click();
  await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'false');

  // The metronome works without signal too (its chunk and its sounds come from the device); the
  // screen is asked to stay on while it runs and let go after.
  await page.getByTestId('tools-dock-toggle').click();
  await expect(page.getByTestId('practice-tools')).toBeVisible();
  const metronome = page.getByTestId('tool-metronome');
  await metronome.getByTestId('metronome-toggle').click();
  await expect(metronome.getByTestId('metronome')).toHaveAttribute('data-running', 'true');
  await expect(metronome.locator('[data-testid="beat-cell"][data-lit]')).toHaveCount(1);
  await shot(page, 'offline', 'metronome-offline-de-phone', { fullPage: false });
  const wake = await page.evaluate(() => (window as unknown as { __wake: { asked: number; held: number } }).__wake);
  expect(wake.asked, 'the screen is asked to stay on (timer, then metronome)').toBeGreaterThanOrEqual(2);
  await metronome.getByTestId('metronome-toggle').click();
  await expect(metronome.getByTestId('metronome')).not.toHaveAttribute('data-running', 'true');
  await expect.poll(() => page.evaluate(() => (window as unknown as { __wake: { held: number } }).__wake.held), { message: 'no wake lock is left held' }).toBe(0);
  await expect(page.getByTestId('outbox-count')).toHaveText('1');
  await expect(page.getByTestId('practice-sessions').getByText('Wartet auf Senden')).toBeVisible();

  // The tools' sheet lies over the page on a phone: closed, the finishing part is there again.
  await page.getByRole('button', { name: 'Werkzeuge schließen' }).click();
  await expect(page.getByTestId('practice-tools')).toBeHidden();

  // Done, also queued.
  await page.getByTestId('complete-task').click();
  await expect(page.getByTestId('task-done')).toBeVisible();
  await expect(page.getByTestId('outbox-count')).toHaveText('2');
  // the toasts are closed, so the screenshot shows the list ('Rückgängig' holds the focus, and a
  // toast with the focus stays until it is closed)
  // one at a time: closing the first re-numbers the rest, so a list taken up front goes stale
  const closeToast = page.getByRole('button', { name: 'Benachrichtigung schließen' });
  await expect(async () => {
    if ((await closeToast.count()) > 0) await closeToast.first().click({ timeout: 2000 });
    await expect(closeToast).toHaveCount(0, { timeout: 500 });
  }).toPass({ timeout: 15_000 });
  await page.getByTestId('outbox-button').click();
  await expect(page.getByTestId('outbox-item')).toHaveCount(2);
  await expect(page.getByTestId('outbox-item').first()).toContainText('Übungszeit');
  await expect(page.getByTestId('outbox-item').nth(1)).toContainText('Als erledigt markiert');
  await shot(page, 'offline', 'outbox-de-phone', { fullPage: false });
  await expectNoSeriousAxe(page);

  // Turkish, still without signal (the reload comes from the service worker again).
  await setLanguage(page, 'tr');
  await expect(page.getByTestId('offline-notice')).toContainText('Çevrimdışı – son güncelleme');
  await page.getByTestId('outbox-button').click();
  await expect(page.getByTestId('outbox-item')).toHaveCount(2);
  await shot(page, 'offline', 'outbox-tr-phone', { fullPage: false });
  await expectNoSeriousAxe(page);
  await page.getByTestId('outbox-button').click();
  // wide: the indicator sits in the sidebar, once
  await page.setViewportSize(DESKTOP);
  await expect(page.getByTestId('outbox-button')).toHaveCount(1);
  await page.getByTestId('outbox-button').click();
  await expect(page.getByTestId('outbox-item')).toHaveCount(2);
  await shot(page, 'offline', 'outbox-tr-desktop', { fullPage: false });
  await expectNoSeriousAxe(page);
  await page.getByTestId('outbox-button').click();
  await page.setViewportSize(PHONE);
  await page.evaluate(() => localStorage.setItem('language', 'de'));
  expect(offlinePosts + completes, 'nothing reached the network while offline').toBe(0);

  // Back online: the outbox sends both, in order, once.
  await context.setOffline(false);
  await expect(page.getByTestId('outbox')).toHaveCount(0, { timeout: 15_000 });
  const { sessions, task: after } = await serverState(request, task.id);
  expect(sessions).toHaveLength(1);
  const s = sessions[0]!;
  expect(s.recorded_offline).toBe(true);
  const seconds = (Date.parse(s.ended_at ?? '') - Date.parse(s.started_at)) / 1000;
  // The display reads 00:05 from 5.0 s to 5.99 s, and the stop click takes a moment on a loaded machine.
  expect(seconds).toBeGreaterThanOrEqual(4);
  expect(seconds).toBeLessThanOrEqual(7.5);
  expect(after.status).toBe('completed');
  expect(offlinePosts).toBe(1);
  expect(completes).toBe(1);

  // A reload sends nothing again.
  await page.reload();
  await expect(page.getByTestId('task-done')).toBeVisible();
  await page.waitForTimeout(1000);
  expect(offlinePosts).toBe(1);
  expect(completes).toBe(1);
  expect((await serverState(request, task.id)).sessions).toHaveLength(1);

  // The teacher sees the minutes as recorded offline.
  await page.evaluate(() => localStorage.removeItem('token'));
  await loginAs(page, DEMO.teacher.email);
  await page.goto(`/submissions/${task.id}`);
  await expect(page.getByTestId('session-offline')).toHaveCount(1);
  await expect(page.getByTestId('timed-summary')).toContainText('offline erfasst');
  await shot(page, 'offline', 'teacher-history-de-phone');
  await expectNoSeriousAxe(page);
  await setLanguage(page, 'tr');
  await expect(page.getByTestId('timed-summary')).toContainText('çevrimdışı kaydedildi');
  await shot(page, 'offline', 'teacher-history-tr-phone');
}
