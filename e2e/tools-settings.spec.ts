import type { Page } from '@playwright/test';
import { DEMO, DESKTOP, PHONE, eachLanguageAndSize, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, test } from './fixtures';

/**
 * docs/decisions/exercise-settings.md "Exercises carry settings": the teacher sets Hicaz / Düyek / 80 in the exercise form's
 * section "Übungseinstellungen", assigns the exercise, and the student's task detail shows
 * "Hicaz · Düyek · ♪ = 80" (German and Turkish, desktop and phone): Düyek 8/8 counts eighths. Screenshots under
 * e2e/screenshots/tools-settings/.
 */
const FEATURE = 'tools-settings';
const TEXT = {
  de: { add: 'Neue Übung', dialog: 'Neue Übung erstellen', section: /Übungseinstellungen/, create: 'Übung erstellen', cancel: 'Abbrechen' },
  tr: { add: 'Yeni alıştırma', dialog: 'Yeni alıştırma oluştur', section: /Alıştırma ayarları/, create: 'Alıştırma oluştur', cancel: 'İptal' },
} as const;

test('the teacher sets Hicaz · Düyek · 80; the student sees it on the task', async ({ page }) => {
  // the exercise form, then the task in two languages and two sizes
  test.setTimeout(240_000);
  const title = `Hicaz Peşrev ${Date.now()}`;
  await loginAs(page, DEMO.teacher.email);

  // The form's section in both languages and sizes (screenshots); created once, in German on the desktop.
  await eachLanguageAndSize(page, async (lang, size) => {
    await page.goto('/exercises');
    await page.getByRole('button', { name: TEXT[lang].add }).first().click();
    const dialog = page.getByRole('dialog', { name: TEXT[lang].dialog });
    const toggle = dialog.getByRole('button', { name: TEXT[lang].section });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await dialog.locator('input[name="title"]').fill(title);
    await dialog.locator('input[name="tempo_bpm"]').fill('80');
    await dialog.locator('select[name="usul"]').selectOption('duyek');
    await dialog.locator('select[name="makam"]').selectOption('hicaz');
    await dialog.locator('input[name="durak"]').fill('Dügâh');
    await expect(dialog.getByTestId('exercise-settings-summary')).toHaveText('Hicaz · Düyek · ♪ = 80');
    await dialog.getByTestId('exercise-settings').scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await shot(page, FEATURE, `form-${lang}-${size}`, { fullPage: false });
    if (lang === 'de' && size === 'desktop') {
      await dialog.getByRole('button', { name: TEXT[lang].create }).click();
      await expect(dialog).toBeHidden();
    } else {
      await dialog.getByRole('button', { name: TEXT[lang].cancel }).click();
      await expect(dialog).toBeHidden();
    }
  });

  // Assign it to Ayşe for today through the API (the assignment dialog has its own tests).
  const login = await page.request.post('/api/login', { data: { email: DEMO.teacher.email, password: DEMO.teacher.password } });
  const token = (await login.json()).token as string;
  const auth = { authorization: `Bearer ${token}` };
  const list = await (await page.request.get('/api/exercises', { headers: auth })).json();
  const exercise = list.exercises.find((e: { title: string }) => e.title === title);
  expect(exercise).toMatchObject({ tempo_bpm: 80, usul: 'duyek', makam: 'hicaz', durak: 'Dügâh' });
  const students = await (await page.request.get('/api/students', { headers: auth })).json();
  const ayse = students.data.find((s: { email: string }) => s.email === DEMO.students[0].email);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  const assigned = await page.request.post('/api/submissions', {
    headers: auth,
    data: { exercise_id: exercise.id, due_date: today, assignees: { users: [ayse.id] } },
  });
  expect(assigned.status()).toBe(201);
  const taskId = (await assigned.json()).submissions[0].id as number;

  // The teacher's view of the task names the settings too.
  await setLanguage(page, 'de');
  await page.setViewportSize(DESKTOP);
  await page.goto(`/submissions/${taskId}`);
  await expect(page.getByTestId('exercise-settings-line')).toHaveText('Hicaz · Düyek · ♪ = 80');

  // The student's task detail, German and Turkish, desktop and phone.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await loginAs(page, DEMO.students[0].email);
  await eachLanguageAndSize(page, async (lang, size, viewport) => {
    await page.setViewportSize(viewport);
    await page.goto(`/submissions/${taskId}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    // The settings name the tools' button; the tools (with the settings at their top) open in a sheet.
    await expect(page.getByTestId('tools-dock-toggle')).toContainText('Hicaz · Düyek · ♪ = 80');
    await page.getByTestId('tools-dock-toggle').click();
    const dock = page.getByTestId('practice-tools');
    await expect(dock.getByText('Hicaz · Düyek · ♪ = 80', { exact: true })).toBeVisible();
    await page.waitForTimeout(300);
    await shot(page, FEATURE, `task-${lang}-${size}`, { fullPage: false });
    await dock.getByTestId('tools-dock-close').click();
  });
  await page.setViewportSize(PHONE);
});

/** The clicks the metronome scheduled (AudioContext times), read through the test hook. */
async function clicksOf(page: Page) {
  return page.evaluate(() => window.__ukAudioTestHook!.clicks.map((c) => ({ ...c })));
}

/**
 * Runs the metronome, and once it sounds (a lit cell) records `n` scheduled clicks; checks that
 * every click lies on a grid of `seconds` per step (within 1 ms) and answers the gaps between
 * consecutive steps. A step the scheduler skipped because a loaded machine stalled its timer does
 * not sound late (scheduler.ts), so the grid, not a gapless row, is what is checked.
 */
async function measure(page: Page, metro: ReturnType<Page['getByTestId']>, n: number, seconds: number) {
  await metro.getByTestId('metronome-toggle').click();
  await expect(metro.locator('[data-testid="beat-cell"][data-lit]')).toHaveCount(1, { timeout: 10_000 });
  await page.evaluate(() => (window.__ukAudioTestHook!.clicks = []));
  await expect.poll(async () => (await clicksOf(page)).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(n);
  await metro.getByTestId('metronome-toggle').click();
  await expect(metro.getByTestId('metronome')).not.toHaveAttribute('data-running', /.*/);
  const clicks = await clicksOf(page);
  const first = clicks[0]!;
  for (const c of clicks) expect(Math.abs(c.time - first.time - (c.step - first.step) * seconds), `step ${c.step}`).toBeLessThan(0.001);
  const gaps = clicks.slice(1).flatMap((c, i) => (c.step === clicks[i]!.step + 1 ? [c.time - clicks[i]!.time] : []));
  expect(gaps.length).toBeGreaterThanOrEqual(n / 2);
  return gaps;
}

test('the tempo counts the unit the music is written in: 9/8 at ♪ = 80 clicks eighths 0.75 s apart, 6/8 at ♩. = 60 eighths 1/3 s apart', async ({ page }) => {
  test.setTimeout(240_000);
  // The teacher stores 9/8 (2+2+2+3) at ♪ = 80 on an exercise and assigns it to Ayşe (API: the form has its own tests).
  const login = await page.request.post('/api/login', { data: { email: DEMO.teacher.email, password: DEMO.teacher.password } });
  const auth = { authorization: `Bearer ${(await login.json()).token as string}` };
  const title = `Aksak-Etüde ${Date.now()}`;
  const created = await page.request.post('/api/exercises', {
    headers: auth,
    multipart: { title, tempo_bpm: '80', tempo_unit: 'eighth', meter: '9/8', meter_grouping: '2+2+2+3' },
  });
  expect(created.status()).toBe(201);
  const exercise = await created.json();
  expect(exercise).toMatchObject({ tempo_bpm: 80, tempo_unit: 'eighth', meter: '9/8', meter_grouping: '2+2+2+3' });
  const students = await (await page.request.get('/api/students', { headers: auth })).json();
  const ayse = students.data.find((s: { email: string }) => s.email === DEMO.students[0].email);
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
  const assigned = await page.request.post('/api/submissions', { headers: auth, data: { exercise_id: exercise.id, due_date: today, assignees: { users: [ayse.id] } } });
  expect(assigned.status()).toBe(201);
  const taskId = (await assigned.json()).submissions[0].id as number;

  await page.addInitScript(() => {
    window.__ukAudioTestHook = { clicks: [] };
  });
  await loginAs(page, DEMO.students[0].email);
  await page.setViewportSize(PHONE);
  await page.goto(`/submissions/${taskId}`);
  await page.getByTestId('tools-dock-toggle').click(); // the tools open in their sheet
  await expect(page.getByTestId('practice-tools')).toBeVisible();
  const metro = page.getByTestId('tool-metronome');
  await expect(metro.getByTestId('beat-cell')).toHaveCount(9);
  // The display says what it clicks, and names the note for a screen reader.
  await expect(metro.getByTestId('tempo-display')).toHaveAttribute('data-unit', 'eighth');
  await expect(metro.getByRole('img', { name: 'Achtel = 80' })).toBeVisible();
  await expect(page.getByTestId('tools-summary')).toHaveText('9/8 (2+2+2+3) · ♪ = 80');
  await expect(metro.getByTestId('tempo-unit')).toHaveCount(0); // 9/8 in 2+2+2+3 counts only eighths
  const gaps98 = await measure(page, metro, 10, 0.75);
  console.log(`9/8 ♪ = 80: gaps ${gaps98.map((g) => g.toFixed(4)).join(', ')}`);
  for (const g of gaps98) expect(Math.abs(g - 0.75)).toBeLessThan(0.001);

  // Turkish names the note too; screenshots of the phone (9/8).
  for (const lang of ['de', 'tr'] as const) {
    await setLanguage(page, lang);
    await page.goto(`/submissions/${taskId}`);
    await page.getByTestId('tools-dock-toggle').click();
    await expect(page.getByTestId('practice-tools')).toBeVisible();
    await expect(metro.getByRole('img', { name: lang === 'de' ? 'Achtel = 80' : 'sekizlik = 80' })).toBeVisible();
    await metro.scrollIntoViewIfNeeded();
    await shot(page, FEATURE, `metronome-9-8-${lang}-phone`, { fullPage: false });
  }

  // /tools, 6/8: the teacher's "♩. = 60" — the dotted quarter lasts 1 s, its eighths 1/3 s.
  await setLanguage(page, 'de');
  await page.goto('/tools');
  await page.getByTestId('rhythm-select').selectOption('meter:6/8');
  await expect(metro.getByTestId('beat-cell')).toHaveCount(6);
  const units = metro.getByTestId('tempo-unit');
  await expect(units.getByRole('radio', { name: 'Achtel' })).toBeChecked();
  await units.getByText('punktierte Viertel').click();
  await expect(units.getByRole('radio', { name: 'punktierte Viertel' })).toBeChecked();
  await metro.getByTestId('tempo-input').fill('60');
  await metro.getByTestId('tempo-input').blur();
  await expect(metro.getByRole('img', { name: 'punktierte Viertel = 60' })).toBeVisible();
  const gaps68 = await measure(page, metro, 9, 1 / 3);
  console.log(`6/8 ♩. = 60: gaps ${gaps68.map((g) => g.toFixed(4)).join(', ')}`);
  for (const g of gaps68) expect(Math.abs(g - 1 / 3)).toBeLessThan(0.001);
  // The same pulse counted in eighths reads ♪ = 180.
  await units.getByText('Achtel').click();
  await expect(metro.getByTestId('tempo-value')).toHaveText('180');
  await units.getByText('punktierte Viertel').click();
  await expect(metro.getByTestId('tempo-value')).toHaveText('60');
  await expectNoSeriousAxe(page);
  for (const lang of ['de', 'tr'] as const) {
    await setLanguage(page, lang);
    await page.goto('/tools');
    await page.getByTestId('rhythm-select').selectOption('meter:6/8');
    await metro.getByTestId('tempo-unit').locator('label').nth(1).click();
    await expect(metro.getByTestId('tempo-display')).toHaveAttribute('data-unit', 'dotted-quarter');
    await expect(metro.getByRole('img', { name: lang === 'de' ? /^punktierte Viertel = \d+$/ : /^noktalı dörtlük = \d+$/ })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, 'no horizontal scrolling at 390 px').toBeLessThanOrEqual(0);
    await metro.scrollIntoViewIfNeeded();
    await shot(page, FEATURE, `metronome-6-8-${lang}-phone`, { fullPage: false });
  }
});
