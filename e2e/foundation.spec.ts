import type { Page } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { DEMO, PHONE, STUDENT_EMAIL, TEACHER_EMAIL, expect, expectNoSeriousAxe, loginAs, setLanguage, settle, shot, signInThroughForm, test } from './fixtures';

const nav = (page: Page) => page.getByRole('navigation', { name: /Hauptnavigation|Ana gezinme/ });
const sidebar = (page: Page) => page.locator('aside');

test.describe('sign-in', () => {
  test('the sign-in page in German and Turkish, desktop and phone, without accessibility problems', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle('Übungskontrolle');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('heading', { level: 1, name: 'Übungskontrolle' })).toBeVisible();
    await expect(page.getByLabel('E-Mail-Adresse')).toHaveAttribute('required', '');
    await expect(page.getByLabel('Passwort')).toHaveAttribute('required', '');
    await expect(page.getByRole('button', { name: 'Anmelden' })).toBeEnabled();
    // No demo credentials on the sign-in page
    await expect(page.getByText('demo1234')).toHaveCount(0);
    await expectNoSeriousAxe(page);
    await shot(page, 'foundation', 'login-desktop-de');

    await setLanguage(page, 'tr');
    await expect(page.getByRole('button', { name: 'Giriş yap' })).toBeVisible();
    await expectNoSeriousAxe(page);
    await shot(page, 'foundation', 'login-desktop-tr');

    await page.setViewportSize(PHONE);
    await shot(page, 'foundation', 'login-phone-tr');
    await setLanguage(page, 'de');
    await shot(page, 'foundation', 'login-phone-de');
  });

  test('the first load of /login stays within the JavaScript budget (170 KB gzip, DESIGN.md)', async ({ page }) => {
    const scripts: Promise<number>[] = [];
    const paths: string[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() !== 'script') return;
      paths.push(new URL(res.url()).pathname);
      // A worker's own script (ICU's, web/public/icu-warm.js) can end with its worker before its
      // body is read: those bytes are asked for again, and they count too.
      const body = res.body().catch(() => page.request.get(res.url()).then((again) => again.body()));
      scripts.push(body.then((b) => gzipSync(b).length));
    });
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const sizes = await Promise.all(scripts);
    const total = sizes.reduce((a, b) => a + b, 0);
    console.log(`/login: ${sizes.length} scripts, ${(total / 1024).toFixed(1)} KB gzip`);
    expect(paths).toContain('/icu-warm.js');
    expect(sizes.length).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(170 * 1024);
  });

  test('the page runs on React DOM 19, the renderer React DevTools sees (docs/decisions/react-dom-again.md)', async ({ page }) => {
    // React DOM announces itself to the DevTools hook when it loads: a stand-in hook records it.
    await page.addInitScript(() => {
      const w = window as unknown as { __renderers: Array<{ name: string; version: string }>; __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown };
      w.__renderers = [];
      w.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
        supportsFiber: true,
        renderers: new Map(),
        inject(r: { rendererPackageName?: string; version: string }) {
          w.__renderers.push({ name: r.rendererPackageName ?? '', version: r.version });
          return w.__renderers.length;
        },
        onCommitFiberRoot() {},
        onCommitFiberUnmount() {},
        onPostCommitFiberRoot() {},
        checkDCE() {},
      };
    });
    await page.goto('/login');
    await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
    const seen = await page.evaluate(() => ({
      renderers: (window as unknown as { __renderers: Array<{ name: string; version: string }> }).__renderers,
      // React DOM's own marks on the root it rendered into and on the form it drew
      root: Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer$')),
      form: Object.keys(document.querySelector('form') ?? {}).some((k) => k.startsWith('__reactFiber$')),
    }));
    expect(seen.renderers).toHaveLength(1);
    expect(seen.renderers[0]?.name).toBe('react-dom');
    expect(seen.renderers[0]?.version).toMatch(/^19\./);
    expect(seen.root).toBe(true);
    expect(seen.form).toBe(true);
  });

  test('a wrong password shows the error box under the form', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('E-Mail-Adresse').fill(TEACHER_EMAIL);
    await page.getByLabel('Passwort').fill('falsches-passwort');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'E-Mail oder Passwort ist falsch.' });
    await expect(alert).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Anmelden' })).toBeEnabled();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await shot(page, 'foundation', 'login-error-desktop-de');
  });

  test('a stored token that the server no longer accepts signs out at start', async ({ page }) => {
    const lines: string[] = [];
    page.on('console', (m) => lines.push(m.text()));
    await page.goto('/login');
    await page.evaluate(() => localStorage.setItem('token', 'not-a-valid-token-at-all'));
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(lines).toContain('Token ungültig, logout');
  });

  test('guests are sent to /login, unknown paths to /', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/students');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/submissions/1');
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/gibt-es-nicht/123');
    await expect(page).toHaveURL(/\/login$/); // via / (login required)
  });
});

test.describe('teacher', () => {
  test('signs in and sees the teacher navigation, course selector and own name', async ({ page }) => {
    await signInThroughForm(page, TEACHER_EMAIL);
    await expect(page.getByRole('status').filter({ hasText: 'Erfolgreich angemeldet' })).toBeVisible();
    const links = nav(page).getByRole('link');
    await expect(links).toHaveText(['Dashboard', /^Zu prüfen/, /^Nachrichten/, 'Schüler', 'Kurse', 'Übungen', 'Übungswerkzeuge']);
    await expect(nav(page).getByRole('link', { name: 'Aufgaben' })).toHaveCount(0);
    await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
    await expect(sidebar(page).getByTestId('user-name')).toHaveText(DEMO.teacher.name);
    await expect(sidebar(page).getByTestId('user-role')).toHaveText('Lehrer');
    await expect(sidebar(page).getByText('MY', { exact: true })).toBeVisible();
    const select = sidebar(page).getByLabel('Kurs');
    await expect(select).toBeVisible();
    await expect(select.locator('option').first()).toHaveText('Alle Kurse');
    await expect(sidebar(page).getByText('Aktiver Kurs: Alle Kurse')).toBeVisible();
    await expectNoSeriousAxe(page);
    await shot(page, 'foundation', 'layout-teacher-desktop-de');

    // Active item by path prefix; the root only on an exact match
    await nav(page).getByRole('link', { name: 'Schüler' }).click();
    await expect(page).toHaveURL(/\/students$/);
    await expect(nav(page).getByRole('link', { name: 'Schüler' })).toHaveAttribute('aria-current', 'page');
    await expect(nav(page).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute('aria-current', 'page');
  });

  test('choosing a course stores it, announces course-changed and shows it as active', async ({ page }) => {
    await loginAs(page, TEACHER_EMAIL);
    const select = sidebar(page).getByLabel('Kurs');
    await expect(select.locator('option')).not.toHaveCount(1);
    const second = select.locator('option').nth(1);
    const name = (await second.textContent())!;
    const value = await second.getAttribute('value');
    await page.evaluate(() => {
      window.addEventListener('course-changed', (e) => {
        (window as unknown as { lastCourseEvent: unknown }).lastCourseEvent = (e as CustomEvent).detail;
      });
    });
    await select.selectOption(value!);
    await expect(sidebar(page).getByText(`Aktiver Kurs: ${name}`)).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('selectedCourseId'))).toBe(value);
    expect(await page.evaluate(() => (window as unknown as { lastCourseEvent: unknown }).lastCourseEvent)).toEqual({ courseId: Number(value) });
    await page.reload();
    await expect(sidebar(page).getByLabel('Kurs')).toHaveValue(value!);
    await page.evaluate(() => {
      window.addEventListener('course-changed', (e) => {
        (window as unknown as { lastCourseEvent: unknown }).lastCourseEvent = (e as CustomEvent).detail;
      });
    });
    await sidebar(page).getByLabel('Kurs').selectOption('');
    expect(await page.evaluate(() => localStorage.getItem('selectedCourseId'))).toBeNull();
    expect(await page.evaluate(() => (window as unknown as { lastCourseEvent: unknown }).lastCourseEvent)).toEqual({ courseId: null });
  });

  test('is sent away from the student task list to /', async ({ page }) => {
    await loginAs(page, TEACHER_EMAIL);
    await page.goto('/submissions');
    await expect(page).toHaveURL(/\/$/);
  });

  test('switches to Turkish, and the choice survives a reload', async ({ page }) => {
    await loginAs(page, TEACHER_EMAIL);
    await page.evaluate(() => {
      window.addEventListener('language-changed', (e) => {
        (window as unknown as { lastLanguageEvent: unknown }).lastLanguageEvent = (e as CustomEvent).detail;
      });
    });
    await sidebar(page).getByRole('button', { name: 'Türkçe' }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
    await expect(nav(page).getByRole('link')).toHaveText(['Panel', /^İncelenecek/, /^Mesajlar/, 'Öğrenciler', 'Kurslar', 'Alıştırmalar', 'Çalışma araçları']);
    expect(await page.evaluate(() => (window as unknown as { lastLanguageEvent: unknown }).lastLanguageEvent)).toEqual({ language: 'tr' });
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBe('tr');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
    await expect(sidebar(page).getByTestId('user-role')).toHaveText('Öğretmen');
    await expect(sidebar(page).getByRole('button', { name: 'Türkçe' })).toHaveAttribute('aria-pressed', 'true');
    await expect(sidebar(page).getByText('Etkin kurs: Tüm kurslar')).toBeVisible();
    await expectNoSeriousAxe(page);
    await shot(page, 'foundation', 'layout-teacher-desktop-tr');
    await page.setViewportSize(PHONE);
    await shot(page, 'foundation', 'layout-teacher-phone-tr');
  });

  test('logs out: back to /login, session gone', async ({ page }) => {
    await loginAs(page, TEACHER_EMAIL);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await sidebar(page).getByRole('button', { name: 'Abmelden' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('status').filter({ hasText: 'Erfolgreich abgemeldet' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    // The old token is revoked on the server
    const res = await page.request.get('/api/user', { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(401);
  });
});

test.describe('student', () => {
  test('signs in and sees the student navigation, no course selector', async ({ page }) => {
    await signInThroughForm(page, STUDENT_EMAIL);
    await expect(nav(page).getByRole('link')).toHaveText(['Dashboard', 'Aufgaben', /^Nachrichten/, 'Übungswerkzeuge']);
    await expect(sidebar(page).getByTestId('user-name')).toHaveText(DEMO.students[0].name);
    await expect(sidebar(page).getByTestId('user-role')).toHaveText('Schüler');
    await expect(sidebar(page).getByText('AD', { exact: true })).toBeVisible();
    await expect(sidebar(page).getByLabel('Kurs')).toHaveCount(0);
    await expectNoSeriousAxe(page);
    await shot(page, 'foundation', 'layout-student-desktop-de');
    await nav(page).getByRole('link', { name: 'Aufgaben' }).click();
    await expect(page).toHaveURL(/\/submissions$/);
    await expect(nav(page).getByRole('link', { name: 'Aufgaben' })).toHaveAttribute('aria-current', 'page');
  });

  test('is sent away from teacher pages to /', async ({ page }) => {
    await loginAs(page, STUDENT_EMAIL);
    for (const path of ['/students', '/students/1', '/courses', '/exercises']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
    }
    // Unknown paths go to / as well
    await page.goto('/nicht/vorhanden');
    await expect(page).toHaveURL(/\/$/);
    await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  });

  test('the phone menu opens and closes (button, backdrop, route change) and locks scrolling', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await loginAs(page, STUDENT_EMAIL);
    await expect(sidebar(page)).toBeHidden();
    await shot(page, 'foundation', 'layout-student-phone-de');
    const open = page.getByRole('button', { name: 'Menü öffnen' });
    const dialog = page.getByRole('dialog');

    await open.click();
    await expect(dialog).toBeVisible();
    await expect(nav(page).getByRole('link')).toHaveText(['Dashboard', 'Aufgaben', /^Nachrichten/, 'Übungswerkzeuge']);
    // beside the name: the bell to the reminders' settings (docs/decisions/reminders.md)
    await expect(dialog.getByRole('link', { name: 'Benachrichtigungen' })).toBeVisible();
    await expect(dialog.getByTestId('user-role')).toHaveText('Schüler');
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).toBe('hidden');
    await expectNoSeriousAxe(page);
    await shot(page, 'foundation', 'menu-student-phone-de', { fullPage: false });
    await dialog.getByRole('button', { name: 'Menü schließen' }).click();
    await expect(dialog).toBeHidden();
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).overflow)).not.toBe('hidden');

    await open.click();
    await expect(dialog).toBeVisible();
    await settle(page); // the sheet slides in: click the backdrop once it is in place
    await page.mouse.click(195, 30); // backdrop above the sheet
    await expect(dialog).toBeHidden();

    await open.click();
    await dialog.getByRole('link', { name: 'Aufgaben' }).click();
    await expect(page).toHaveURL(/\/submissions$/);
    await expect(dialog).toBeHidden();

    await setLanguage(page, 'tr');
    await shot(page, 'foundation', 'layout-student-phone-tr');
    await page.getByRole('button', { name: 'Menüyü aç' }).click();
    await expect(nav(page).getByRole('link')).toHaveText(['Panel', 'Ödevler', /^Mesajlar/, 'Çalışma araçları']);
    await expect(dialog.getByRole('link', { name: 'Bildirimler' })).toBeVisible();
    await shot(page, 'foundation', 'menu-student-phone-tr', { fullPage: false });
  });

  test('the teacher layout on a phone (German) and the student layout on desktop (Turkish)', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await loginAs(page, TEACHER_EMAIL);
    await shot(page, 'foundation', 'layout-teacher-phone-de');
    await page.getByRole('button', { name: 'Menü öffnen' }).click();
    await expect(page.getByRole('dialog').getByLabel('Kurs')).toBeVisible();
    await shot(page, 'foundation', 'menu-teacher-phone-de', { fullPage: false });
    await page.getByRole('dialog').getByRole('button', { name: 'Abmelden' }).click();
    await expect(page).toHaveURL(/\/login$/);

    await page.setViewportSize({ width: 1280, height: 800 });
    await loginAs(page, STUDENT_EMAIL);
    await setLanguage(page, 'tr');
    await expect(sidebar(page).getByTestId('user-role')).toHaveText('Öğrenci');
    await shot(page, 'foundation', 'layout-student-desktop-tr');
  });
});

test.describe('the browser language', () => {
  test('a Turkish browser gets Turkish on its first visit (navigator.languages); a stored choice still wins', async ({ browser, baseURL }) => {
    // A fresh context: nothing stored yet.
    const fresh = await browser.newContext({ baseURL, locale: 'tr-TR' });
    const page = await fresh.newPage();
    await page.goto('/login');
    expect(await page.evaluate(() => navigator.languages[0])).toBe('tr-TR');
    await expect(page.locator('html')).toHaveAttribute('lang', 'tr');
    await expect(page.getByRole('button', { name: 'Giriş yap' })).toBeVisible();
    await fresh.close();

    // The same browser with German chosen before: German.
    const chosen = await browser.newContext({ baseURL, locale: 'tr-TR' });
    await chosen.addInitScript(() => localStorage.setItem('language', 'de'));
    const again = await chosen.newPage();
    await again.goto('/login');
    await expect(again.locator('html')).toHaveAttribute('lang', 'de');
    await expect(again.getByRole('button', { name: 'Anmelden' })).toBeVisible();
    await chosen.close();
  });

  test('any other browser starts in German', async ({ browser, baseURL }) => {
    const context = await browser.newContext({ baseURL, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de');
    await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
    await context.close();
  });
});
