import { chromium, expect, test as base, type APIRequestContext, type BrowserContext, type Locator, type Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS, FULL_CHROMIUM } from './browser';

export { test, expect } from '@playwright/test';

/** The demo school of server/db/seed.ts (DEMO_SEED=true). */
export const DEMO_PASSWORD = 'demo1234';
export const DEMO = {
  teacher: { email: 'lehrer@example.com', name: 'Mehmet Yılmaz', password: DEMO_PASSWORD },
  students: [
    { email: 'ayse@example.com', name: 'Ayşe Demir' },
    { email: 'lukas@example.com', name: 'Lukas Becker' },
    { email: 'elif@example.com', name: 'Elif Kaya' },
    { email: 'jonas@example.com', name: 'Jonas Schmidt' },
    { email: 'zeynep@example.com', name: 'Zeynep Arslan' },
    { email: 'mia@example.com', name: 'Mia Wagner' },
  ],
} as const;
export const TEACHER_EMAIL = DEMO.teacher.email;
export const STUDENT_EMAIL = DEMO.students[0].email;

export const PHONE = { width: 390, height: 844 } as const;
export const DESKTOP = { width: 1280, height: 800 } as const;

/**
 * Signs in by the API and opens the home, as the sign-in form leaves the browser: the token and the
 * user where the app keeps them (localStorage `token`, `lastUser`), then one load of `/`. The form
 * itself is driven by `signInThroughForm` where a test is about signing in; everywhere else this
 * saves the load of /login and the form's reload (docs/decisions/bench-results.md, "Browser tests:
 * where CI's time goes").
 */
export async function loginAs(page: Page, email: string, password: string = DEMO_PASSWORD): Promise<void> {
  const res = await page.request.post('/api/login', { data: { email, password } });
  expect(res.status(), `sign-in of ${email}: ${await res.text()}`).toBe(200);
  const { token, user } = (await res.json()) as { token: string; user: unknown };
  // The app's origin, without the app, to write its storage. Always a page of its own: an app
  // still running from an earlier user (a test that signed out by removing the token) can get a
  // 401 for a read it had under way and then clear the storage again, after the new token was
  // written (the home then opened at /login: a CI run of feedback-loop.spec.ts).
  await page.goto('/api/health');
  await page.evaluate(
    ({ token, user }) => {
      localStorage.setItem('token', token);
      localStorage.setItem('lastUser', JSON.stringify({ tokenTail: token.slice(-12), user }));
    },
    { token, user },
  );
  await page.goto('/');
  // The user's name appears in the layout (in the sidebar, hidden on phones until the menu opens).
  await expect(page.getByTestId('user-name').first()).not.toBeEmpty();
}

/** A user's token through the API (for setting up data the way another role's screens would). */
export async function apiToken(request: APIRequestContext, email: string, password: string = DEMO_PASSWORD): Promise<string> {
  const res = await request.post('/api/login', { data: { email, password } });
  expect(res.status(), `sign-in of ${email}`).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** Signs in through the sign-in form and waits for the home (after the form's reload at /). */
export async function signInThroughForm(page: Page, email: string, password: string = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByTestId('user-name').first()).not.toBeEmpty();
}

/** Sets the interface language before the app starts (localStorage `language`) and reloads. */
export async function setLanguage(page: Page, language: 'de' | 'tr'): Promise<void> {
  if (page.url() === 'about:blank') await page.goto('/login');
  await page.evaluate((lng) => localStorage.setItem('language', lng), language);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

/**
 * The teacher home's month grid: on a phone it is drawn once scrolled near (it lies below the
 * agenda), so scroll its place into view first; then wait for the grid's days.
 */
export async function showTeacherCalendar(page: Page): Promise<void> {
  const place = '[data-testid="task-calendar"], [data-testid="calendar-skeleton"]';
  await expect(page.locator(place).first()).toBeAttached();
  // In one step in the page: the skeleton may give way to the calendar at any moment.
  await page.evaluate((sel) => document.querySelector(sel)?.scrollIntoView({ block: 'center' }), place);
  await expect(page.locator('.uk-day[data-date]').first()).toBeVisible();
}

/** Runs `body` in German and in Turkish (the language set first), each on the desktop and the phone viewport. */
export async function eachLanguageAndSize(
  page: Page,
  body: (lang: 'de' | 'tr', size: 'desktop' | 'phone', viewport: typeof DESKTOP | typeof PHONE) => Promise<void>,
): Promise<void> {
  for (const lang of ['de', 'tr'] as const) {
    await setLanguage(page, lang);
    for (const [size, viewport] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(viewport);
      await body(lang, size, viewport);
    }
  }
}

const screenshotRoot = join(dirname(fileURLToPath(import.meta.url)), 'screenshots');

/**
 * On a student's task page the takes (the full recorder, the list) are drawn when the page is
 * first scrolled toward them (docs/decisions/first-load-on-a-phone.md): scrolls there as a student
 * would and waits until they are drawn.
 */
export async function showTakes(page: Page): Promise<void> {
  await page.getByTestId('recordings-place').scrollIntoViewIfNeeded();
  await expect(page.getByTestId('recordings')).toBeVisible();
}

/**
 * Scrolls a take's waveform into view and waits until it is drawn: the player loads its take only
 * when it comes near the viewport (docs/decisions/first-load-on-a-phone.md), as a user scrolling
 * to it would see.
 */
export async function waveformReady(wave: Locator, timeout?: number): Promise<void> {
  await wave.scrollIntoViewIfNeeded();
  await expect(wave).toHaveAttribute('data-ready', 'true', timeout ? { timeout } : undefined);
}

/**
 * Screenshots are for people to look at while they build a screen (DESIGN.md); CI, where nobody
 * looks, sets E2E_SHOTS=0 and saves none: each full-page capture costs the browser a whole
 * repaint. Every saved screenshot of the specs goes through here.
 */
export const SHOTS_WANTED = process.env.E2E_SHOTS !== '0';

/** `target.screenshot(opts)` unless screenshots are switched off (SHOTS_WANTED). */
export async function saveScreenshot(target: Pick<Page, 'screenshot'> | Pick<Locator, 'screenshot'>, opts: Parameters<Page['screenshot']>[0] & { path: string }): Promise<void> {
  if (!SHOTS_WANTED) return;
  mkdirSync(dirname(opts.path), { recursive: true });
  await (target as Pick<Page, 'screenshot'>).screenshot(opts);
}

/**
 * Saves a screenshot to e2e/screenshots/<feature>/<name>.png (git-ignored): the full page by default;
 * pass `{ fullPage: false }` for open dialogs and menus (fixed elements stop at the viewport in full-page captures).
 */
export async function shot(page: Page, feature: string, name: string, opts: { fullPage?: boolean } = {}): Promise<string> {
  const path = join(screenshotRoot, feature, `${name}.png`);
  if (!SHOTS_WANTED) return path;
  await page.evaluate(() => document.fonts.ready);
  await saveScreenshot(page, { path, fullPage: opts.fullPage ?? true, animations: 'disabled' });
  return path;
}

/**
 * Waits until finite CSS transitions and animations have ended (at most 2 s): a dialog that is
 * still fading or sliding in has neither its final contrast nor its final hit areas. Spinners and
 * skeletons run forever and are left alone.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
}

/**
 * Fails on serious or critical accessibility violations: axe-core's default rule set, every rule
 * axe enables (WCAG 2.0-2.2 A/AA and best practice, among them `label-content-name-mismatch`,
 * WCAG 2.5.3), none switched off. `soft` records the finding and lets the test go on.
 */
export async function expectNoSeriousAxe(page: Page, include?: string, opts: { soft?: boolean } = {}): Promise<void> {
  // A dialog fading in has not its final contrast yet.
  await settle(page);
  // axe.run in the page itself ("legacy mode"): the default runs axe.runPartial in every frame and
  // axe.finishRun in a blank page opened for each analysis, which doubled the time of every check
  // (every-screen's teacher: 115 s of axe against 58 s). The app has no frames, so both modes
  // check the same nodes with the same rules.
  // resultTypes: only violations are gathered in full (passes, incomplete and inapplicable rules
  // keep one node each). Every rule still runs on every node; what it finds is the same (checked
  // with planted contrast, label, name and alt faults on three screens), in half the time.
  let builder = new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ['violations'] });
  if (include) builder = builder.include(include);
  const results = await builder.analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = serious.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 200)}`).join('\n  ')}`,
  );
  (opts.soft ? expect.soft : expect)(summary, `serious or critical axe violations at ${page.url()}`).toEqual([]);
}

/**
 * A phone-sized Chromium with a profile of its own on disk and service workers allowed (the
 * project's contexts block them): what the offline app and push notifications need. `close`
 * removes the profile.
 */
export async function persistentPhone(): Promise<{ context: BrowserContext; page: Page; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'uebungskontrolle-profile-'));
  const use = base.info().project.use;
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: FULL_CHROMIUM,
    args: CHROMIUM_ARGS,
    baseURL: use.baseURL,
    viewport: PHONE,
    locale: 'de-DE',
    timezoneId: 'Europe/Berlin',
    serviceWorkers: 'allow',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
