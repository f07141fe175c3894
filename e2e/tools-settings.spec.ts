import { DEMO, DESKTOP, PHONE, eachLanguageAndSize, expect, loginAs, setLanguage, shot, test } from './fixtures';

/**
 * Issue 16 "Exercises carry settings": the teacher sets Hicaz / Düyek / 80 in the exercise form's
 * section "Übungseinstellungen", assigns the exercise, and the student's task detail shows
 * "Hicaz · Düyek · ♩ = 80" (German and Turkish, desktop and phone). Screenshots under
 * e2e/screenshots/tools-settings/.
 */
const FEATURE = 'tools-settings';
const TEXT = {
  de: { add: 'Neue Übung', dialog: 'Neue Übung erstellen', section: /Übungseinstellungen/, create: 'Übung erstellen', cancel: 'Abbrechen' },
  tr: { add: 'Yeni alıştırma', dialog: 'Yeni alıştırma oluştur', section: /Alıştırma ayarları/, create: 'Alıştırma oluştur', cancel: 'İptal' },
} as const;

test('the teacher sets Hicaz · Düyek · 80; the student sees it on the task', async ({ page }) => {
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
    await expect(dialog.getByTestId('exercise-settings-summary')).toHaveText('Hicaz · Düyek · ♩ = 80');
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
  await expect(page.getByTestId('exercise-settings-line')).toHaveText('Hicaz · Düyek · ♩ = 80');

  // The student's task detail, German and Turkish, desktop and phone.
  await page.context().clearCookies();
  await page.evaluate(() => localStorage.clear());
  await loginAs(page, DEMO.students[0].email);
  await eachLanguageAndSize(page, async (lang, size, viewport) => {
    await page.setViewportSize(viewport);
    await page.goto(`/submissions/${taskId}`);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    // The tools (with the settings at their top) are drawn once scrolled near.
    await page.getByTestId('practice-tools').scrollIntoViewIfNeeded();
    await expect(page.getByText('Hicaz · Düyek · ♩ = 80', { exact: true })).toBeVisible();
    await page.getByText('Hicaz · Düyek · ♩ = 80', { exact: true }).scrollIntoViewIfNeeded();
    await page.waitForTimeout(300);
    await shot(page, FEATURE, `task-${lang}-${size}`, { fullPage: size === 'desktop' });
  });
  await page.setViewportSize(PHONE);
});
