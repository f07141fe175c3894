import type { Page, Route } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { DEMO, DESKTOP, PHONE, eachLanguageAndSize, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, test, waveformReady, showTakes } from './fixtures';
import { fakeMicrophone, writeSineWav } from './fake-microphone';

/**
 * docs/decisions/recordings.md: a student records a take in the browser and sends it; the teacher answers it in
 * 'Zu prüfen' at the moment it is about; the student reads the answer and plays from there. The
 * microphone is Chromium's fake device playing a 440 Hz sine written here.
 */

const WAV = writeSineWav('sine', 440, 5);

test.use(fakeMicrophone(WAV));

// Students no other spec uses for their tasks.
const STUDENT = DEMO.students[5]; // Mia Wagner
const OFFLINE_STUDENT = DEMO.students[2]; // Elif Kaya

async function signOut(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.removeItem('token'));
}

/** The student's first task that takes recordings (not expired): its address. */
async function firstRecordableTask(page: Page): Promise<string> {
  await page.goto('/submissions');
  const link = page.locator('[data-testid="task-card"]:not([data-status="expired"]) h3 a').first();
  await expect(link).toBeVisible();
  const href = await link.getAttribute('href');
  if (!href) throw new Error('no task');
  return href;
}

/** Records about `seconds` with the fake microphone; checks the level meter moves and the clock counts. */
async function recordTake(page: Page, seconds: number): Promise<void> {
  const recorder = page.getByTestId('recorder');
  await recorder.getByRole('button', { name: 'Aufnahme starten' }).click();
  await expect(page.getByTestId('recording-live')).toBeVisible();
  await expect(page.getByTestId('recording-elapsed')).toHaveText(`0:0${seconds}`, { timeout: (seconds + 4) * 1000 });
  const level = await page.getByTestId('level-meter').locator('div div').evaluate((el) => parseFloat((el as HTMLElement).style.width || '0'));
  expect(level, 'the level meter follows the sine').toBeGreaterThan(0);
  await page.getByRole('button', { name: 'Aufnahme beenden' }).click();
  await expect(page.getByTestId('take-preview')).toBeVisible();
}

test('a student records 3 s and sends it; the teacher comments at 0:01 and answers; the student plays from there', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await loginAs(page, STUDENT.email);
  const task = await firstRecordableTask(page);
  await page.goto(task);
  await showTakes(page);
  await expect(page.getByRole('heading', { name: 'Aufnahmen' })).toBeVisible();
  await expect(page.getByTestId('recording')).toHaveCount(0);

  await recordTake(page, 3);
  // 3 s and the time the stop click takes to land (up to 2 s more on a loaded machine)
  await expect(page.getByTestId('take-length')).toHaveText(/0:0[3-5]/);
  await page.getByLabel('Nachricht an den Lehrer (optional)').fill('Takt 12 klappt noch nicht');
  await shot(page, 'recordings', 'student-take-de-desktop');
  await page.getByRole('button', { name: 'Aufnahme senden' }).click();
  await expect(page.getByText('Aufnahme gesendet.')).toBeVisible();
  const sent = page.getByTestId('recording');
  await expect(sent).toHaveCount(1);
  await expect(sent).toContainText('Zu prüfen');
  await expect(sent).toContainText('Takt 12 klappt noch nicht');
  await waveformReady(sent.getByTestId('waveform'));
  await expect(page.getByTestId('pending-take')).toHaveCount(0);

  // The teacher: the badge in the navigation, the inbox, a comment at 0:01, answered.
  await signOut(page);
  await loginAs(page, DEMO.teacher.email);
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' }).first();
  await expect(nav.getByTestId('inbox-badge')).toBeVisible();
  await nav.getByRole('link', { name: /Zu prüfen/ }).click();
  await expect(page).toHaveURL(/\/review$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Zu prüfen' })).toBeVisible();
  await page.getByTestId('inbox-item').filter({ hasText: STUDENT.name }).first().click();
  const card = page.getByTestId('recording');
  await expect(card).toContainText(STUDENT.name);
  await expect(card).toContainText('Takt 12 klappt noch nicht');
  const wave = card.getByTestId('waveform');
  await waveformReady(wave);

  // A click on the waveform at ~1.3 s places the comment there.
  const box = await wave.boundingBox();
  if (!box) throw new Error('no waveform');
  const duration = await card.getByTestId('player-time').textContent();
  const totalS = Number(/\/ 0:(\d\d)/.exec(duration ?? '')?.[1] ?? '3');
  await page.mouse.click(box.x + box.width * (1.4 / totalS), box.y + box.height / 2);
  await expect(card.getByTestId('comment-moment')).toHaveText('Kommentar bei 0:01');
  await card.getByRole('textbox', { name: 'Kommentar' }).fill('Hier eilst du');
  await card.getByRole('button', { name: 'Kommentar speichern' }).click();
  await expect(card.getByTestId('comment-list')).toContainText('Kommentar bei 0:01');
  await expect(card.getByTestId('comment-marker')).toHaveCount(1);

  // Keyboard: the player has the focus after saving; "c" comments at the current moment.
  await expect(card.getByRole('group', { name: 'Player' })).toBeFocused();
  // The player kept its place while the comment was saved.
  await page.keyboard.press('c');
  await expect(card.getByTestId('comment-moment')).toHaveText('Kommentar bei 0:01');
  await card.getByRole('group', { name: 'Player' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('c');
  await expect(card.getByRole('textbox', { name: 'Kommentar' })).toBeFocused();
  await expect(card.getByTestId('comment-moment')).toHaveText('Kommentar bei 0:00');
  await card.getByRole('button', { name: 'Ohne Zeitpunkt' }).click();
  await expect(card.getByTestId('comment-moment')).toHaveText('Allgemeiner Kommentar');

  await expectNoSeriousAxe(page);
  await eachLanguageAndSize(page, async (lang, size) => {
    await expect(page.getByTestId('inbox-item').first()).toBeVisible();
    // On the phone the list alone; a tapped take opens full screen.
    if (size === 'phone') await page.getByTestId('inbox-item').filter({ hasText: STUDENT.name }).first().click();
    await waveformReady(page.getByTestId('waveform'));
    await shot(page, 'recordings', `inbox-${lang}-${size}`, { fullPage: size === 'desktop' });
    if (size === 'phone') {
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('take-view')).toHaveCount(0);
    }
  });
  await setLanguage(page, 'de');
  await page.setViewportSize(DESKTOP);
  await page.getByTestId('inbox-item').filter({ hasText: STUDENT.name }).first().click();
  await page.getByRole('button', { name: 'Als beantwortet markieren' }).click();
  await expect(page.getByText('Als beantwortet markiert.')).toBeVisible();
  await expect(page.getByTestId('inbox-item').filter({ hasText: STUDENT.name })).toHaveCount(0);

  // The student: 'Neues Feedback' on the home and the task card, the comment, playing from 0:01.
  await signOut(page);
  await loginAs(page, STUDENT.email);
  await expect(page.getByTestId('new-feedback-note')).toContainText('Neues Feedback zu 1 Aufnahme');
  await page.goto('/submissions');
  const taskCard = page.locator(`[data-testid="task-card"]:has(a[href="${task}"])`);
  await expect(taskCard.getByTestId('new-feedback-badge')).toHaveText('Neues Feedback');
  // The take's waveform is decoded without a real-time AudioContext, which would start the audio
  // output only to draw a picture (web/features/recordings/lib/take-waveform.ts).
  await page.addInitScript(() => {
    const w = window as unknown as { __audioContexts: number; AudioContext: typeof AudioContext };
    const Real = w.AudioContext;
    w.__audioContexts = 0;
    w.AudioContext = class extends Real {
      constructor(options?: AudioContextOptions) {
        super(options);
        w.__audioContexts++;
      }
    };
  });
  await page.goto(task);
  await showTakes(page);
  const mine = page.getByTestId('recording');
  await expect(mine).toContainText('Beantwortet');
  await expect(mine).toContainText('Neues Feedback');
  await waveformReady(mine.getByTestId('waveform'));
  expect(await page.evaluate(() => (window as unknown as { __audioContexts: number }).__audioContexts)).toBe(0);
  const comment = mine.getByRole('button', { name: /Kommentar bei 0:01/ });
  await expect(comment).toBeVisible();
  await expect(mine.getByText('Hier eilst du')).toBeVisible();
  await comment.click();
  await expect(mine.getByTestId('player-time')).toHaveText(/^0:0[1-3] \//);
  await expect(mine.getByRole('button', { name: 'Pause' })).toBeVisible();
  // It really plays from 0:01 (not from the start): about a second later the media is past 0:02.
  await page.waitForTimeout(1300);
  await expect(mine.getByTestId('player-time')).toHaveText(/^0:0[2-4] \//);
  await expectNoSeriousAxe(page);

  // Seen: the badge is gone on the next visit.
  await page.goto('/submissions');
  await expect(page.locator('[data-testid="task-card"]').first()).toBeVisible();
  await expect(taskCard.getByTestId('new-feedback-badge')).toHaveCount(0);
  await page.goto(task);
  await showTakes(page);
  await expect(page.getByTestId('recording')).toHaveCount(1);
  await eachLanguageAndSize(page, async (lang, size) => {
    // each language is a reload: the takes are drawn again when scrolled toward
    await showTakes(page);
    await waveformReady(page.getByTestId('waveform').first());
    await shot(page, 'recordings', `student-task-${lang}-${size}`);
  });
  await setLanguage(page, 'de');
});

/** How many recordings the server has for the task (its own answer, not the screen's). */
async function serverCount(page: Page, task: string): Promise<number> {
  return page.evaluate(async (path) => {
    const id = path.split('/').pop();
    const res = await fetch(`/api/submissions/${id}/recordings`, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
    return ((await res.json()) as { data: unknown[] }).data.length;
  }, task);
}

test('a take whose upload lost the connection is kept, offered again after a reload, and arrives once', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await loginAs(page, OFFLINE_STUDENT.email);
  const task = await firstRecordableTask(page);
  await page.goto(task);
  await showTakes(page);
  await expect(page.getByRole('heading', { name: 'Aufnahmen' })).toBeVisible();
  // The takes already there (none on a fresh database; more when the test is repeated on one).
  const before = await serverCount(page, task);
  await expect(page.getByTestId('recording')).toHaveCount(before);
  await recordTake(page, 2);
  await shot(page, 'recordings', 'student-take-de-phone');

  // The connection drops during the upload.
  const cut = (route: Route) => (route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue());
  await page.route('**/api/submissions/*/recordings*', cut);
  await page.getByRole('button', { name: 'Aufnahme senden' }).click();
  await expect(page.getByText('Aufnahme konnte nicht gesendet werden. Sie bleibt auf diesem Gerät gespeichert.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Aufnahme erneut senden' })).toBeVisible();
  await expect(page.getByTestId('recording')).toHaveCount(before);

  // A reload (or a closed tab): the take is still here, on the task (its section drawn at once,
  // without scrolling, while a take of the task waits) and as a note on the home.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Aufnahme erneut senden' })).toHaveCount(1);
  await shot(page, 'recordings', 'pending-de-phone');
  await expectNoSeriousAxe(page);
  await page.goto('/');
  await expect(page.getByTestId('pending-note')).toBeVisible();
  await page.getByTestId('pending-note').click();
  await expect(page).toHaveURL(new RegExp(`${task}$`));

  // Back online: sent once, and no longer offered.
  await page.unroute('**/api/submissions/*/recordings*', cut);
  let posts = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/submissions\/\d+\/recordings/.test(r.url())) posts++;
  });
  await page.getByRole('button', { name: 'Aufnahme erneut senden' }).click();
  await expect(page.getByText('Aufnahme gesendet.')).toBeVisible();
  await expect(page.getByTestId('recording')).toHaveCount(before + 1);
  await expect(page.getByTestId('pending-take')).toHaveCount(0);
  expect(posts).toBe(1);
  // At once after the send (the device's copy of the list may still be the one from before).
  await page.reload();
  await showTakes(page);
  await expect(page.getByTestId('recording')).toHaveCount(before + 1);
  await expect(page.getByRole('button', { name: 'Aufnahme erneut senden' })).toHaveCount(0);
  expect(await serverCount(page, task)).toBe(before + 1);
});

test("a take that cannot be loaded says so in its place, spills over nothing at 390 px, and 'Erneut versuchen' loads it", async ({ page }) => {
  // The take by the API, as the student (Mia Wagner) with the app's own token; removed again at the
  // end (no other spec sees it).
  await loginAs(page, STUDENT.email);
  const headers = { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('token'))}` };
  const href = await firstRecordableTask(page);
  const taskId = Number(href.split('/').pop());
  const upload = await page.request.post(`/api/submissions/${taskId}/recordings`, {
    headers,
    multipart: { duration_ms: '5000', message: '', file: { name: 'take.wav', mimeType: 'audio/wav', buffer: readFileSync(WAV) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const takeId = ((await upload.json()) as { id: number }).id;
  const failing = (route: Route) => route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down"}' });
  try {
    // German on the phone (the longest message in the narrowest box), Turkish on the desktop.
    for (const [lang, viewport] of [
      ['de', PHONE],
      ['tr', DESKTOP],
    ] as const) {
      await setLanguage(page, lang);
      await page.setViewportSize(viewport);
      await page.route('**/api/media/**', failing);
      await page.goto(href);
      await showTakes(page);
      const player = page.locator(`[data-testid="recording"][data-recording-id="${takeId}"]`).getByTestId('recording-player');
      const alert = player.getByRole('alert');
      // the player loads its take when it comes into view
      await player.scrollIntoViewIfNeeded();
      await expect(alert).toBeVisible();
      // The message and its button stay inside their box: nothing runs over the time below.
      const spill = await alert.evaluate((el) => el.scrollHeight - el.clientHeight);
      expect(spill, `${lang} at ${viewport.width} px`).toBeLessThanOrEqual(0);
      const [a, time] = [await alert.boundingBox(), await player.getByText('0:00', { exact: false }).first().boundingBox()];
      expect(a!.y + a!.height, `${lang} at ${viewport.width} px`).toBeLessThanOrEqual(time!.y);
      await page.unroute('**/api/media/**', failing);
      await alert.getByRole('button', { name: lang === 'de' ? 'Erneut versuchen' : 'Tekrar dene' }).click();
      await waveformReady(player.getByTestId('waveform'));
      await expect(alert).toHaveCount(0);
      expect((await player.getByTestId('waveform').boundingBox())!.height).toBeGreaterThanOrEqual(72);
    }
  } finally {
    expect((await page.request.delete(`/api/recordings/${takeId}`, { headers })).status()).toBe(204);
  }
});
