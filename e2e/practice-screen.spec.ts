import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { DEMO, PHONE, expect, expectNoSeriousAxe, loginAs, setLanguage, test, saveScreenshot } from './fixtures';
import { fakeMicrophone, writeSineWav } from './fake-microphone';

/**
 * The practice screen plays (docs/decisions/practice-screen.md): from 'Jetzt üben' on the student's
 * home to a take of this run on the server in at most three taps at 390 × 844, every tapped
 * control on screen without scrolling; the take names the practice session it recorded. The same
 * in Turkish; from 1440 px the piece sits beside the controls. The microphone is Chromium's fake
 * device playing a sine.
 */

const WAV = writeSineWav('practice-screen', 440, 5);
test.use(fakeMicrophone(WAV));

const STUDENT = DEMO.students[0]; // Ayşe Demir
const WIDE = { width: 1440, height: 900 } as const;
const SHOTS = process.env.E2E_SHOTS_DIR ?? join(process.env.E2E_OUTPUT_DIR ?? 'test-results', 'practice-screen-shots');

const TEXT = {
  de: { practiceNow: 'Jetzt üben', record: 'Diesen Durchgang aufnehmen', stop: 'Stopp', sent: 'Aufnahme gesendet.', tools: 'Werkzeuge', feedback: 'Neuestes Feedback', wholeText: 'Ganzen Text zeigen', toWritten: 'Zum Feedback vom Lehrer' },
  tr: { practiceNow: 'Şimdi çalış', record: 'Bu çalışmayı kaydet', stop: 'Durdur', sent: 'Kayıt gönderildi.', tools: 'Araçlar', feedback: 'En yeni geri bildirim', wholeText: 'Metnin tamamını göster', toWritten: 'Öğretmenin geri bildirimine git' },
} as const;

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await saveScreenshot(page, { path: join(SHOTS, `${name}.png`), animations: 'disabled' });
}

const token = (page: Page) => page.evaluate(() => localStorage.getItem('token') ?? '');

/** A written feedback of eight lines and more on a phone. */
const LONG_FEEDBACK = [
  'Schön gespielt, der Ton ist ruhiger geworden.',
  'Achte im zweiten Teil auf die Atmung vor dem langen Ton und halte das Tempo, auch wenn es schwer wird.',
  'Die Verzierungen bitte noch einmal langsam mit dem Metronom, dann Schritt für Schritt schneller.',
  'Nächste Woche hören wir uns das gemeinsam an.',
].join('\n');

const teacherToken = async (page: Page) => {
  const res = await page.request.post('/api/login', { data: { email: DEMO.teacher.email, password: DEMO.teacher.password } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { token: string }).token;
};

async function apiGet<T>(page: Page, path: string): Promise<T> {
  const res = await page.request.get(path, { headers: { Authorization: `Bearer ${await token(page)}` } });
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

/** Asserts that `control` lies wholly inside the viewport, unscrolled, and is what a tap at its centre hits. */
async function expectOnFirstScreen(page: Page, control: Locator, what: string): Promise<{ x: number; y: number }> {
  await expect(control, what).toBeVisible();
  const viewport = page.viewportSize();
  if (!viewport) throw new Error('no viewport');
  expect(await page.evaluate(() => window.scrollY), `${what}: the page is not scrolled`).toBe(0);
  const box = await control.boundingBox();
  if (!box) throw new Error(`${what}: no box`);
  expect(box.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.y, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: right edge`).toBeLessThanOrEqual(viewport.width);
  expect(box.y + box.height, `${what}: bottom edge`).toBeLessThanOrEqual(viewport.height);
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  // nothing lies over it (a sheet, the tab bar)
  const hit = await control.evaluate((el, p) => {
    const top = document.elementFromPoint(p.x, p.y);
    return top !== null && (el === top || el.contains(top));
  }, centre);
  expect(hit, `${what}: a tap at its centre reaches it`).toBe(true);
  return centre;
}

/** The journey, counting taps: a tap is a pointer press at the control's centre, never a scroll. */
async function journey(page: Page, lang: 'de' | 'tr'): Promise<void> {
  const text = TEXT[lang];
  let taps = 0;
  const tap = async (control: Locator, what: string) => {
    const at = await expectOnFirstScreen(page, control, what);
    await page.mouse.click(at.x, at.y);
    taps += 1;
  };

  await page.setViewportSize(PHONE);
  await loginAs(page, STUDENT.email);
  await setLanguage(page, lang);
  await expect(page.getByTestId('practice-now').first()).toBeVisible();

  // 1: 'Jetzt üben' on the home
  const practiceNow = page.getByTestId('practice-now').first();
  await expect(practiceNow).toContainText(text.practiceNow);
  await tap(practiceNow, text.practiceNow);
  await expect(page).toHaveURL(/\/submissions\/\d+$/);
  const taskId = Number(/\/submissions\/(\d+)$/.exec(page.url())?.[1]);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  // The worst case of the first screen, whatever ran before: the teacher has also written a long
  // feedback on the task. On a phone it comes after the controls with three lines and 'Ganzen
  // Text zeigen', so the newest feedback, the tools and Start stay on the first screen (the page is
  // reloaded: not a tap).
  const review = await page.request.patch(`/api/submissions/${taskId}/review`, {
    headers: { Authorization: `Bearer ${await teacherToken(page)}` },
    data: { competency_level: 'intermediate', teacher_feedback: LONG_FEEDBACK },
  });
  expect(review.status(), await review.text()).toBe(200);
  await page.reload();
  const written = page.getByTestId('teacher-feedback');
  await expect(written).toContainText(LONG_FEEDBACK.slice(0, 40));
  const more = written.getByRole('button');
  await expect(more).toHaveAccessibleName(text.wholeText);
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  const clamped = (await written.boundingBox())!.height;
  expect(clamped, 'the written feedback is clamped to a few lines').toBeLessThan(170);
  // By keyboard: the whole text, then three lines again.
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  expect((await written.boundingBox())!.height).toBeGreaterThan(clamped + 40);
  await page.keyboard.press('Enter');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(more).toHaveAccessibleName(text.wholeText);
  // 'Neuestes Feedback' never says there is none: with no comment on a take it carries the written
  // feedback and leads down to it (by keyboard here); with one it shows the newest comment.
  const comments = (await apiGet<{ data: Array<{ comments: Array<{ text: string; updated_at: string }> }> }>(page, `/api/submissions/${taskId}/recordings`)).data
    .flatMap((r) => r.comments)
    .sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  const latestText = page.getByTestId('latest-feedback-text');
  if (comments.length === 0) {
    await expect(latestText).toContainText(LONG_FEEDBACK.slice(0, 40));
    const toWritten = page.getByTestId('latest-feedback-jump');
    await expect(toWritten).toHaveAccessibleName(text.toWritten);
    await toWritten.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('written-feedback')).toBeFocused();
    await expect(written).toBeInViewport();
    // the smooth scroll has ended before the test scrolls back
    await expect
      .poll(() => page.evaluate(() => new Promise<boolean>((r) => { const y = scrollY; setTimeout(() => r(scrollY === y), 150); })))
      .toBe(true);
  } else {
    await expect(latestText).toContainText(comments[0]!.text.slice(0, 30));
  }
  // Back to the first screen as it opened (focusing the button below the fold scrolled there).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await more.blur();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

  // The first screen: the piece (when the exercise has one), the newest feedback, the tools, Start.
  const record = page.getByTestId('run-record');
  await expect(record).toHaveAccessibleName(text.record);
  await expect(page.getByTestId('latest-feedback')).toContainText(text.feedback);
  await expectOnFirstScreen(page, page.getByTestId('latest-feedback'), 'newest feedback');
  await expectOnFirstScreen(page, page.getByTestId('tools-dock-toggle'), 'tools');
  await expectOnFirstScreen(page, page.getByTestId('practice-toggle'), 'Start');
  const piece = page.getByTestId('practice-piece');
  if (await piece.count()) {
    const box = await piece.boundingBox();
    expect(box && box.y < PHONE.height - 200, 'the piece begins on the first screen').toBe(true);
  }
  await expectNoSeriousAxe(page);
  await shoot(page, `${lang}-390-before-start`);

  const before = (await apiGet<{ data: Array<{ id: number }> }>(page, `/api/submissions/${taskId}/recordings`)).data.length;

  // 2: 'Diesen Durchgang aufnehmen' starts the timer and records
  await tap(record, text.record);
  await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'true');
  await expect(page.getByTestId('run-record-elapsed')).toHaveText(/0:0[2-9]/, { timeout: 45_000 });
  await expectNoSeriousAxe(page);
  await shoot(page, `${lang}-390-recording`);

  // 3: the timer's Stop ends the run and sends its take
  const stop = page.getByTestId('practice-toggle');
  await expect(stop).toContainText(text.stop);
  await tap(stop, text.stop);
  await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'false');
  await expect(page.getByText(text.sent)).toBeVisible();
  expect(taps).toBeLessThanOrEqual(3);

  // On the server: one take more, tied to the session that just ran.
  const sessions = await apiGet<Array<{ id: number; ended_at: string | null }>>(page, `/api/submissions/${taskId}/practice-sessions`);
  const session = sessions[0];
  expect(session?.ended_at, 'the session ended').not.toBeNull();
  await expect
    .poll(async () => (await apiGet<{ data: Array<{ practice_session_id: number | null }> }>(page, `/api/submissions/${taskId}/recordings`)).data.length)
    .toBe(before + 1);
  const takes = (await apiGet<{ data: Array<{ practice_session_id: number | null; duration_ms: number }> }>(page, `/api/submissions/${taskId}/recordings`)).data;
  expect(takes[0]?.practice_session_id).toBe(session?.id);
  expect(takes[0]?.duration_ms).toBeGreaterThanOrEqual(1500);
}

test.describe('the practice screen plays', () => {
  // This machine is shared and loaded: an axe run alone has taken 100 s.
  test.setTimeout(360_000);

  test('from Jetzt üben to a sent take of this run: three taps, no scrolling (de, 390 × 844)', async ({ page }) => {
    await journey(page, 'de');
  });

  test('the same journey in Turkish', async ({ page }) => {
    await journey(page, 'tr');
  });

  test('the tools open in a sheet over the score, set to the exercise; keyboard only', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await loginAs(page, STUDENT.email);
    await page.getByTestId('practice-now').first().click();
    await expect(page.getByTestId('practice-region')).toBeVisible();
    // keyboard: Tab reaches 'Diesen Durchgang aufnehmen' and the tools
    const reached = new Set<string>();
    for (let i = 0; i < 60 && reached.size < 2; i++) {
      await page.keyboard.press('Tab');
      const id = await page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');
      if (id === 'run-record' || id === 'tools-dock-toggle') reached.add(id);
    }
    expect([...reached].sort()).toEqual(['run-record', 'tools-dock-toggle']);
    await page.getByTestId('tools-dock-toggle').focus();
    await page.keyboard.press('Enter');
    const dock = page.getByTestId('practice-tools');
    await expect(dock).toBeVisible();
    await expect(page.getByTestId('tools-dock-toggle')).toHaveAttribute('aria-expanded', 'true');
    await expect(dock.getByTestId('tool-metronome')).toBeVisible();
    await expect(dock.getByTestId('tool-tuner')).toBeVisible();
    await expect(dock.getByTestId('tool-drone')).toBeVisible();
    // a sheet over the page: no sideways scroll at 390
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expectNoSeriousAxe(page);
    await shoot(page, 'de-390-tools');
    await page.keyboard.press('Escape');
    await expect(dock).toBeHidden();
    await expect(page.getByTestId('tools-dock-toggle')).toBeFocused();
  });

  test("a part whose code cannot be loaded stays in its place: the timer runs on, 'Erneut versuchen' loads it", async ({ page }) => {
    await page.setViewportSize(PHONE);
    // The takes' chunk fails once, as on a line that drops for a moment (docs/decisions/first-load-on-a-phone.md).
    let refused = 0;
    await page.route(/\/assets\/recordings-section-[^/]*\.js$/, async (route) => {
      if (refused === 0) {
        refused++;
        await route.abort('internetdisconnected');
      } else await route.continue();
    });
    await loginAs(page, STUDENT.email);
    await page.getByTestId('practice-now').first().click();
    await expect(page.getByTestId('practice-region')).toBeVisible();
    await page.getByTestId('practice-toggle').click();
    await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'true');
    const failed = page.getByRole('alert').filter({ hasText: 'Dieser Teil der Seite konnte nicht geladen werden.' });
    // the takes' part is asked for when the page is scrolled toward it
    await page.getByTestId('recordings-place').scrollIntoViewIfNeeded();
    await expect(failed).toBeVisible();
    expect(refused).toBe(1);
    // the rest of the screen is still there and the timer still runs
    await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'true');
    await expect(page.getByTestId('run-record')).toBeVisible();
    await expect(page.getByTestId('recordings')).toHaveCount(0);
    await expectNoSeriousAxe(page);
    await failed.scrollIntoViewIfNeeded();
    await shoot(page, 'de-390-part-failed');
    // by keyboard: the button, Enter
    await failed.getByRole('button', { name: 'Erneut versuchen' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('recordings')).toBeVisible();
    await expect(failed).toHaveCount(0);
    await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'true');
    await page.getByTestId('practice-toggle').click();
    await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'false');
  });

  test('from 1440 px the piece sits beside the controls (de and tr, before start, running, recording)', async ({ page }) => {
    await page.setViewportSize(WIDE);
    await loginAs(page, STUDENT.email);
    // a task of the student whose exercise has a piece to show
    const list = await apiGet<Array<{ id: number; status: string; exercise: { media_files: unknown[] } | null }>>(page, '/api/submissions?order=work&limit=50');
    const todo = list.filter((s) => s.status === 'open' || s.status === 'overdue');
    const task = todo.find((s) => (s.exercise?.media_files.length ?? 0) > 0);
    expect(task, 'a task with media').toBeDefined();
    for (const lang of ['de', 'tr'] as const) {
      await setLanguage(page, lang);
      await page.setViewportSize(WIDE);
      await page.goto(`/submissions/${task?.id}`);
      const piece = page.getByTestId('practice-piece');
      // the controls' column begins with the newest feedback; Start is in it, on the first screen
      const column = page.getByTestId('latest-feedback');
      await expect(piece).toBeVisible();
      await expectOnFirstScreen(page, page.getByTestId('practice-toggle'), 'Start at 1440');
      const p = await piece.boundingBox();
      const c = await column.boundingBox();
      const start = await page.getByTestId('practice-toggle').boundingBox();
      if (!p || !c || !start) throw new Error('no boxes');
      expect(p.x + p.width, 'the piece ends left of the controls').toBeLessThanOrEqual(c.x);
      expect(p.x + p.width, 'the piece ends left of Start').toBeLessThanOrEqual(start.x);
      expect(p.width, 'the piece takes the larger part of the width').toBeGreaterThan(c.width);
      expect(p.y < c.y + c.height && c.y < p.y + p.height, 'side by side, not one under the other').toBe(true);
      await expectNoSeriousAxe(page);
      await shoot(page, `${lang}-1440-before-start`);
      await page.getByTestId('practice-toggle').click();
      await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'true');
      await shoot(page, `${lang}-1440-running`);
      await page.getByTestId('run-record').click();
      await expect(page.getByTestId('run-record-elapsed')).toHaveText(/0:0[1-9]/, { timeout: 45_000 });
      await shoot(page, `${lang}-1440-recording`);
      // the recorder's own stop ends the take; the timer runs on
      await page.getByTestId('run-record-stop').click();
      await expect(page.getByText(TEXT[lang].sent)).toBeVisible();
      await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'true');
      // a phone's running screen (Start became Stopp), then stop
      await page.setViewportSize(PHONE);
      await page.evaluate(() => window.scrollTo(0, 0));
      await shoot(page, `${lang}-390-running`);
      await page.getByTestId('practice-toggle').click();
      await expect(page.getByTestId('practice-toggle')).toHaveAttribute('data-running', 'false');
    }
  });
});
