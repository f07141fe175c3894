import type { Locator, Page } from '@playwright/test';
import { DEMO, DESKTOP, PHONE, eachLanguageAndSize, expect, expectNoSeriousAxe, loginAs, setLanguage, settle, shot, test } from './fixtures';

/**
 * docs/decisions/student-practice-first.md, the student's side: today first with 'Jetzt üben', the practice screen with one
 * Start/Stop control that stays on screen, the status language, visible focus on filled buttons,
 * a network error that does not sign out, robots.txt.
 */

// Ayşe's tasks are used by other specs too; Zeynep's are left alone by them.
const STUDENT = DEMO.students[4];

/** Scrolls down in steps until `target` exists (parts below the fold load when they come near). */
async function scrollUntil(page: Page, target: Locator): Promise<void> {
  for (let i = 0; i < 40 && (await target.count()) === 0; i++) {
    await page.mouse.wheel(0, 500);
    await page.waitForTimeout(100);
  }
  await target.first().scrollIntoViewIfNeeded();
}

/** WCAG relative luminance of an [r, g, b, a] colour (0–255, alpha 0–1), blended over white. */
function luminance([r, g, b, a]: number[]): number {
  const mix = [r!, g!, b!].map((c) => c * a! + 255 * (1 - a!));
  const lin = mix.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * lin[0]! + 0.7152 * lin[1]! + 0.0722 * lin[2]!;
}
const contrast = (a: number, b: number) => (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);

/** Presses Tab until `target` has the focus (keyboard focus, so :focus-visible applies). */
async function tabTo(page: Page, target: Locator, max = 80): Promise<void> {
  const handle = await target.elementHandle();
  if (!handle) throw new Error('no element to focus');
  for (let i = 0; i < max; i++) {
    if (await handle.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the element');
}

/**
 * The keyboard focus ring of a filled button is drawn (outline or box-shadow), at least 2 px,
 * set off from the fill by a gap (outline offset, as ring-offset does), and its colour stands out
 * from the surface around the button by at least 3:1 (WCAG 1.4.11) – so it shows on a brand or
 * red fill as on a white one, which a ring in the fill's own colour does not.
 */
async function expectVisibleFocusRing(page: Page, button: Locator, name: string): Promise<void> {
  await tabTo(page, button);
  await expect(button).toBeFocused();
  // buttons transition their colours (the outline's too): read the ring once it has settled
  await settle(page);
  const style = await button.evaluate((el) => {
    const cs = getComputedStyle(el);
    // Any CSS colour (oklch, rgb…) to [r, g, b, a] through a canvas pixel.
    const rgba = (color: string) => {
      const c = document.createElement('canvas');
      c.width = c.height = 1;
      const ctx = c.getContext('2d')!;
      ctx.clearRect(0, 0, 1, 1);
      ctx.fillStyle = color;
      ctx.fillRect(0, 0, 1, 1);
      const d = ctx.getImageData(0, 0, 1, 1).data;
      return [d[0]!, d[1]!, d[2]!, d[3]! / 255];
    };
    const shadowColor = cs.boxShadow.match(/(rgba?|oklch|oklab|color)\([^)]*\)/)?.[0];
    return {
      outlineStyle: cs.outlineStyle,
      outlineWidth: cs.outlineWidth,
      outlineColor: rgba(cs.outlineColor),
      boxShadow: cs.boxShadow,
      shadowColor: shadowColor ? rgba(shadowColor) : null,
      background: rgba(cs.backgroundColor),
      outlineOffset: cs.outlineOffset,
      // the first ancestor with a background: what the gap and the ring sit on
      surface: (() => {
        for (let p = el.parentElement; p; p = p.parentElement) {
          const bg = rgba(getComputedStyle(p).backgroundColor);
          if (bg[3]! > 0.5) return bg;
        }
        return [255, 255, 255, 1];
      })(),
      focusVisible: el.matches(':focus-visible'),
    };
  });
  expect(style.focusVisible, `${name}: keyboard focus`).toBe(true);
  const hasOutline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
  const hasShadow = style.boxShadow !== 'none' && /\d+px/.test(style.boxShadow);
  expect(hasOutline || hasShadow, `${name}: a focus ring (${JSON.stringify(style)})`).toBe(true);
  const ring = hasOutline ? style.outlineColor : (style.shadowColor ?? [255, 255, 255, 1]);
  if (hasOutline) expect(parseFloat(style.outlineOffset), `${name}: a gap between fill and ring`).toBeGreaterThanOrEqual(2);
  const ratio = contrast(luminance(ring), luminance(style.surface));
  expect(ratio, `${name}: ring ${ring.join(',')} against the surface ${style.surface.join(',')}`).toBeGreaterThanOrEqual(3);
  // the bug this guards against: a ring in the fill's own colour without a gap melts into the button
  if (!hasOutline || parseFloat(style.outlineOffset) < 2) expect(contrast(luminance(ring), luminance(style.background)), `${name}: ring differs from the fill`).toBeGreaterThan(3);
}

test.describe('practice, student side', () => {
  test.setTimeout(240_000);

  test('on a phone: from the home (signed in, at /) to a running timer in two taps; the control stays on screen and keeps the focus', async ({ browser }) => {
    const phone = await browser.newContext({ viewport: PHONE, hasTouch: true, isMobile: true, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    const page = await phone.newPage();
    await loginAs(page, STUDENT.email);
    await expect(page).toHaveURL(/\/$/);
    const nav = page.getByRole('navigation', { name: 'Schnellnavigation' });
    await expect(nav.getByRole('link', { name: 'Heute' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Aufgaben' })).toBeVisible();

    // 'Jetzt üben' is on the first screen
    const practiceNow = page.getByTestId('practice-now').first();
    await expect(practiceNow).toBeInViewport();
    await expect(practiceNow).toHaveText(/^Jetzt üben/);
    const box = await practiceNow.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(44);
    await shot(page, 'practice', 'home-phone-de', { fullPage: false });

    // tap 1
    await practiceNow.tap();
    await expect(page).toHaveURL(/\/submissions\/\d+$/);
    const toggle = page.getByTestId('practice-toggle');
    await expect(toggle).toHaveText('Start');
    await expect(toggle).toBeInViewport();
    // tap 2
    await toggle.tap();
    await expect(toggle).toHaveAttribute('data-running', 'true');
    await expect(toggle).toHaveText('Stopp');
    await expect(page.getByText('Übung gestartet!')).toBeVisible();
    const display = page.getByTestId('timer-display');
    const before = await display.innerText();
    await expect.poll(() => display.innerText(), { timeout: 10_000 }).not.toBe(before);

    // the control stays on screen while the page scrolls (fixed above the tab bar)
    await page.mouse.wheel(0, 3000);
    await expect(toggle).toBeInViewport();
    const bar = await page.getByTestId('practice-control').boundingBox();
    const tabs = await page.getByTestId('bottom-tabs').boundingBox();
    expect(bar!.y + bar!.height).toBeLessThanOrEqual(tabs!.y + 1);
    await shot(page, 'practice', 'detail-running-phone-de', { fullPage: false });

    // keyboard: Enter stops, the focus stays on the control; Enter starts again, still there
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('data-running', 'false');
    await expect(toggle).toHaveText('Start');
    await expect(toggle).toBeFocused();
    // after Stop the clock shows today's total, not 00:00
    await expect(display).not.toHaveText('00:00');
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('data-running', 'true');
    await expect(toggle).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveAttribute('data-running', 'false');
    await expect(toggle).toBeFocused();
    await expect(page.getByTestId('practice-sessions').getByRole('listitem').first()).toContainText(/\d+ s$/);

    // completing keeps the keyboard user in place: focus on the line saying it is done
    const complete = page.getByTestId('complete-task');
    await complete.focus();
    await page.keyboard.press('Enter');
    // 'Rückgängig' holds the focus while the toast is open (docs/decisions/done-means-practised.md);
    // closing the toast gives it back to the line saying the task is done
    await expect(page.getByRole('button', { name: 'Rückgängig' })).toBeFocused();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('task-done')).toBeFocused();
    await expectNoSeriousAxe(page, 'main');
    await phone.close();
  });

  test('the filled buttons show a focus ring that contrasts with their fill', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto('/login');
    await page.locator('input[name="email"]').fill(STUDENT.email);
    await page.locator('input[name="password"]').fill('demo1234');
    await expectVisibleFocusRing(page, page.getByRole('button', { name: 'Anmelden' }), 'Anmelden');
    await page.getByRole('button', { name: 'Anmelden' }).click();
    await page.waitForURL((u) => u.pathname === '/');

    await page.getByTestId('practice-now').first().click();
    const toggle = page.getByTestId('practice-toggle');
    await expectVisibleFocusRing(page, toggle, 'Start');
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveText('Stopp');
    await expectVisibleFocusRing(page, toggle, 'Stopp');
    await page.keyboard.press('Enter');
    await expect(toggle).toHaveText('Start');
    // after practice 'Als erledigt markieren' is the filled primary button
    const complete = page.getByTestId('complete-task');
    await page.reload();
    await expect(complete).toBeVisible();
    await expectVisibleFocusRing(page, complete, 'Als erledigt markieren');
    // the large 'Jetzt üben' on the home (a filled link)
    await page.goto('/');
    await expectVisibleFocusRing(page, page.getByTestId('practice-now').first(), 'Jetzt üben');

    // the teacher's 'Aufgabe erstellen' in the assignment dialog
    await page.evaluate(() => localStorage.clear());
    await loginAs(page, DEMO.teacher.email);
    // The day's dialog: Enter on the calendar's focused day (or a click on an empty day).
    const dialog = page.getByRole('dialog');
    const title = dialog.getByRole('heading', { name: /^Aufgabe für/ });
    const focusDay = page.locator('.uk-day[tabindex="0"]');
    await expect(page.locator('.uk-day').first()).toBeVisible();
    if ((await focusDay.count()) > 0) {
      await focusDay.focus();
      await page.keyboard.press('Enter');
    } else {
      const cell = page.locator('.uk-day').last();
      await cell.scrollIntoViewIfNeeded();
      const b = (await cell.boundingBox())!;
      await page.mouse.click(b.x + b.width - 6, b.y + b.height - 6);
    }
    await expect(title).toBeVisible();
    await dialog.getByTestId('exercise-select').click();
    await page.getByRole('listbox').getByRole('option').first().click();
    await dialog.getByLabel(/Mia Wagner/).check();
    const create = dialog.getByRole('button', { name: 'Aufgabe erstellen' });
    await expect(create).toBeEnabled();
    await create.focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    await expectVisibleFocusRing(page, create, 'Aufgabe erstellen');
  });

  test('status: one badge per card that explains overdue and expired; tasks grouped Heute / Diese Woche / Später / Vergangen', async ({ page }) => {
    await loginAs(page, STUDENT.email);
    await page.goto('/submissions');
    const groups = page.getByTestId('task-groups');
    await expect(groups).toBeVisible();
    const headings = await groups.getByRole('heading', { level: 2 }).allInnerTexts();
    const names = headings.map((h) => h.replace(/\s*\d+$/, ''));
    const order = ['Heute', 'Diese Woche', 'Später', 'Vergangen'];
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual(order.filter((o) => names.includes(o)));

    // a repeating task's dates wait in one closed group each (docs/decisions/done-means-practised.md): open them
    for (const toggle of await page.getByTestId('series-toggle').all()) {
      if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
    }
    const overdue = page.locator('[data-testid="task-card"][data-status="overdue"]').first();
    await expect(overdue.getByTestId('status-help')).toHaveCount(1);
    await overdue.getByTestId('status-help').hover();
    await expect(page.getByRole('tooltip')).toContainText('trotzdem noch geübt');
    await shot(page, 'practice', 'status-help-overdue-desktop-de', { fullPage: false });
    await page.mouse.move(0, 0);
    const expired = page.locator('[data-testid="task-card"][data-status="expired"]').first();
    await expired.scrollIntoViewIfNeeded();
    await expired.getByTestId('status-help').click();
    await expect(page.getByRole('tooltip')).toContainText('nicht mehr geübt oder erledigt');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await expectNoSeriousAxe(page, 'main');

    // Turkish
    await setLanguage(page, 'tr');
    await expect(page.getByTestId('task-groups').getByRole('heading', { level: 2 }).first()).toHaveText(/^(Bugün|Bu hafta|Daha sonra|Geçmiş)/);
  });

  test('touch targets on a phone are at least 44 px: buttons, tabs, links in cards', async ({ page }) => {
    await page.setViewportSize(PHONE);
    await loginAs(page, STUDENT.email);
    await page.goto('/submissions');
    await expect(page.getByTestId('task-card').first()).toBeVisible();
    const small = await page.evaluate(() => {
      const out: string[] = [];
      const els = document.querySelectorAll<HTMLElement>('main button, main [role="tab"], main a[href], nav[aria-label="Schnellnavigation"] a');
      for (const el of els) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        // the status badge's hit area is larger than its box (a pseudo-element)
        if (el.dataset.testid === 'status-help') continue;
        if (r.height < 44) out.push(`${el.tagName} "${el.textContent?.trim().slice(0, 30)}" ${Math.round(r.height)} px`);
      }
      return out;
    });
    expect(small).toEqual([]);
  });

  test('screens in German and Turkish, desktop and phone: home, task list, practice screen', async ({ page }) => {
    await loginAs(page, STUDENT.email);
    await eachLanguageAndSize(page, async (lang, size, viewport) => {
      await page.goto('/');
      await expect(page.getByTestId('practice-now').first()).toBeVisible();
      await expect(page.getByTestId('home-summary')).toHaveText(lang === 'de' ? /Serie: .* · Letzte 7 Tage: / : /Seri: .* · Son 7 gün: /);
      await scrollUntil(page, page.getByTestId('task-calendar'));
      await scrollUntil(page, page.getByTestId('practice-chart'));
      await page.evaluate(() => window.scrollTo(0, 0));
      await settle(page);
      await shot(page, 'practice', `home-${size}-${lang}`);
      if (lang === 'de' && size === 'desktop') await expectNoSeriousAxe(page, 'main');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

      await page.goto('/submissions');
      await expect(page.getByTestId('task-groups')).toBeVisible();
      await shot(page, 'practice', `list-${size}-${lang}`);

      await page.goto('/');
      await page.getByTestId('practice-now').first().click();
      await expect(page.getByTestId('practice-toggle')).toBeVisible();
      await expect(page.getByTestId('task-goal')).toBeVisible();
      await settle(page);
      await shot(page, 'practice', `detail-${size}-${lang}`);
      if (size === 'phone') await shot(page, 'practice', `detail-${size}-${lang}-viewport`, { fullPage: false });
      if (lang === 'de' && size === 'phone') await expectNoSeriousAxe(page, 'main');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    });
  });

  test('the score: the first image large, zoomable full screen', async ({ page }) => {
    await loginAs(page, DEMO.students[0].email);
    // the demo task with a picture and a PDF (Makam Rast – Tetrachorde)
    const list = await page.evaluate(async () => {
      const r = await fetch('/api/submissions?status=open,overdue&order=due&limit=100', { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
      return (await r.json()) as Array<{ id: number; exercise: { media_files: Array<{ type: string }> } | null }>;
    });
    const has = (s: (typeof list)[number], type: string) => s.exercise?.media_files.some((f) => f.type === type);
    const withScore = list.find((s) => has(s, 'image') && has(s, 'pdf')) ?? list.find((s) => has(s, 'image'));
    test.skip(!withScore, 'no open demo task with a picture');
    await page.goto(`/submissions/${withScore!.id}`);
    const score = page.getByTestId('score-view');
    await expect(score.locator('img')).toBeVisible();
    await expect.poll(() => score.locator('img').evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    // the piece fills its column beside the practice controls (docs/decisions/practice-screen.md)
    const w = (await score.locator('img').boundingBox())!.width;
    const column = (await page.getByTestId('practice-piece').boundingBox())!.width;
    expect(w).toBeGreaterThan(400);
    expect(w).toBeGreaterThanOrEqual(column * 0.9);
    await score.getByRole('button', { name: /^Groß anzeigen/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: /^Notenbild: / })).toBeVisible();
    await dialog.getByRole('button', { name: 'Vergrößern' }).click();
    await expect(dialog).toContainText('150 %');
    await settle(page);
    await shot(page, 'practice', 'score-zoom-desktop-de', { fullPage: false });
    await page.keyboard.press('Escape');
    await expect(dialog.getByRole('heading', { name: /^Notenbild: / })).toHaveCount(0);
    await page.setViewportSize(PHONE);
    if (has(withScore!, 'pdf')) await expect(score.getByRole('link', { name: /PDF groß öffnen/ })).toHaveAttribute('target', '_blank');
    await shot(page, 'practice', 'score-phone-de', { fullPage: false });
  });
});

test.describe('shared parts on the teacher side', () => {
  test('the one stat card on the teacher home and a student page; the phone menu opens (its code loads on demand)', async ({ page }) => {
    test.setTimeout(180_000);
    await loginAs(page, DEMO.teacher.email);
    await eachLanguageAndSize(page, async (lang, size) => {
      await page.goto('/');
      await expect(page.getByTestId('stat-students')).toHaveText(/^\d+$/);
      await settle(page);
      await shot(page, 'practice', `teacher-home-${size}-${lang}`, { fullPage: false });
      if (size === 'phone') {
        await page.getByRole('button', { name: lang === 'de' ? 'Menü öffnen' : /Menüyü aç|Menü/ }).click();
        await expect(page.getByRole('dialog').getByRole('button', { name: lang === 'de' ? 'Abmelden' : 'Çıkış yap' })).toBeVisible();
        await settle(page);
        await shot(page, 'practice', `teacher-menu-phone-${lang}`, { fullPage: false });
        await page.keyboard.press('Escape');
      }
    });
    const students = await page.evaluate(async () => {
      const r = await fetch('/api/students', { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
      return ((await r.json()) as { data: Array<{ id: number }> }).data;
    });
    await setLanguage(page, 'de');
    await page.setViewportSize(DESKTOP);
    await page.goto(`/students/${students[0]!.id}`);
    await expect(page.getByTestId('kpi-completed-value')).toHaveText(/^\d+$/);
    await shot(page, 'practice', 'teacher-student-page-desktop-de', { fullPage: false });
  });
});

test.describe('session and robots', () => {
  test('a network error on GET /api/user at start does not sign out; a 401 does', async ({ page }) => {
    await loginAs(page, STUDENT.email);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    expect(token).toBeTruthy();
    const lines: string[] = [];
    page.on('console', (m) => lines.push(m.text()));

    await page.route('**/api/user', (route) => route.abort('internetdisconnected'));
    // the user known from the last visit opens the app anyway (docs/decisions/offline-practice.md) …
    await page.goto('/');
    await expect(page.getByTestId('practice-now').first()).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(token);
    // … without one, the start says there is no connection instead of signing out
    await page.evaluate(() => localStorage.removeItem('lastUser'));
    await page.reload();
    await expect(page.getByText('Keine Verbindung zum Server.', { exact: false })).toBeVisible();
    await expect(page).not.toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBe(token);
    expect(lines).not.toContain('Token ungültig, logout');
    await shot(page, 'practice', 'offline-start-desktop-de', { fullPage: false });

    // back online: a reload shows the home, still signed in
    await page.unroute('**/api/user');
    await page.reload();
    await expect(page.getByTestId('practice-now').first()).toBeVisible();

    // a 401: signed out, with SPEC's console line
    await page.route('**/api/user', (route) => route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ message: 'Nicht angemeldet.' }) }));
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    expect(lines).toContain('Token ungültig, logout');
  });

  test('/robots.txt is a text file', async ({ request }) => {
    const res = await request.get('/robots.txt');
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toMatch(/^text\/plain/);
    const body = await res.text();
    expect(body).toContain('User-agent:');
    expect(body).not.toContain('<html');
  });
});
