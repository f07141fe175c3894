import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { apiToken, DEMO, expect, expectNoSeriousAxe, loginAs, saveScreenshot, setLanguage, settle, test } from './fixtures';

/**
 * The teacher's day leads to action (docs/decisions/teacher-day-actions.md): the attention card
 * links to the student, assigning works from a student's page and from an exercise card, and a new
 * teacher's home shows the first steps, ticked off as they are done. Screenshots: /tmp/g-shots
 * (or E2E_SHOTS_DIR), de and tr at 390×844 and 1440×900.
 */
const SHOTS = process.env.E2E_SHOTS_DIR ?? 'e2e/screenshots/teacher-actions';
const SIZES = { phone: { width: 390, height: 844 }, wide: { width: 1440, height: 900 } } as const;
const uniq = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const ADMIN_EMAIL = 'verwaltung@example.com';

// Each journey loads the home eight times (two languages, two sizes) with axe: on a shared, loaded
// machine that takes longer than the default two minutes.
test.describe.configure({ timeout: 480_000 });

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const berlinToday = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());
const addDays = (date: string, n: number) => {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** The home in both languages and both sizes, each checked by axe and saved. */
async function homeShots(page: Page, who: string, ready: () => Promise<void>) {
  mkdirSync(SHOTS, { recursive: true });
  for (const lang of ['de', 'tr'] as const) {
    await setLanguage(page, lang);
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      await page.goto('/');
      await ready();
      await settle(page);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), `no sideways scroll (${lang} ${size})`).toBeLessThanOrEqual(0);
      await expectNoSeriousAxe(page, 'main');
      await saveScreenshot(page, { path: `${SHOTS}/home-${who}-${lang}-${size}.png`, fullPage: size === 'wide', animations: 'disabled' });
    }
  }
  await setLanguage(page, 'de');
}

test.describe('the demo teacher acts from the home', () => {
  test('the attention card links to a student with piling overdue tasks, whose page assigns a task with the student chosen', async ({ page, request }) => {
    const teacher = bearer(await apiToken(request, DEMO.teacher.email));
    const name = `Überfällig ${uniq}`;
    const made = await request.post('/api/students', { headers: teacher, data: { name, email: `ueberfaellig.${uniq}@example.test`, password: 'ueben-ueben-24' } });
    expect(made.status(), await made.text()).toBe(201);
    const studentId = ((await made.json()) as { id: number }).id;
    const exercises = (await (await request.get('/api/exercises', { headers: teacher })).json()) as { exercises: Array<{ id: number; title: string }> };
    const exercise = exercises.exercises[0]!;
    // Three tasks overdue for long, so the student heads the list of piling overdue tasks.
    for (const days of [-40, -39, -38]) {
      const res = await request.post('/api/submissions', {
        headers: teacher,
        data: { exercise_id: exercise.id, due_date: addDays(berlinToday(), days), course_id: null, assignees: { users: [studentId] } },
      });
      expect(res.status(), await res.text()).toBe(201);
    }

    await page.setViewportSize(SIZES.wide);
    await loginAs(page, DEMO.teacher.email);
    const card = page.getByTestId('attention-card');
    await expect(card.getByTestId('attention-overdue-row').first()).toBeVisible();
    await homeShots(page, 'demo', () => expect(page.getByTestId('attention-card').getByTestId('attention-overdue-row').first()).toBeVisible());

    await page.setViewportSize(SIZES.wide);
    await page.goto('/');
    const row = page.getByTestId('attention-overdue-row').filter({ hasText: name });
    await expect(row).toContainText('3 überfällige Aufgaben');
    await row.click();
    await expect(page).toHaveURL(new RegExp(`/students/${studentId}$`));
    await expect(page.getByTestId('student-name')).toHaveText(name);

    // 'Aufgabe zuweisen' on the student's page: the student is chosen, the due date asked for.
    await page.getByTestId('student-assign').click();
    const dialog = page.getByRole('dialog', { name: 'Neue Aufgabe' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel('Fällig am')).toHaveValue(/^\d{4}-\d{2}-\d{2}$/);
    await expect(dialog.getByTestId('selected-count')).toHaveText('1 Schüler ausgewählt');
    await expect(dialog.getByRole('checkbox', { name: new RegExp(name) })).toBeChecked();
    await dialog.getByLabel('Fällig am').fill(addDays(berlinToday(), 2));
    await dialog.getByTestId('exercise-select').click();
    await page.getByRole('option', { name: exercise.title }).click();
    await expectNoSeriousAxe(page, '[role="dialog"]');
    await dialog.getByRole('button', { name: 'Aufgabe erstellen' }).click();
    await expect(page.getByText(/Aufgabe erfolgreich erstellt/)).toBeVisible();
    await expect(dialog).toBeHidden();
    // (the student's overview lists tasks due up to today: the list of the student's tasks has it)
    const tasks = (await (await request.get(`/api/submissions?student_id=${studentId}`, { headers: teacher })).json()) as Array<{ due_date: string }>;
    expect(tasks.map((s) => s.due_date)).toContain(addDays(berlinToday(), 2));
  });

  test('an exercise card assigns its exercise (phone)', async ({ page }) => {
    await page.setViewportSize(SIZES.phone);
    await loginAs(page, DEMO.teacher.email);
    await page.goto('/exercises');
    const card = page.getByTestId('exercise-card').first();
    const title = (await card.getByRole('heading').textContent())!.trim();
    await card.getByTestId('exercise-assign').click();
    const dialog = page.getByRole('dialog', { name: 'Neue Aufgabe' });
    await expect(dialog.getByTestId('exercise-select')).toContainText(title);
    await expect(dialog.getByTestId('selected-count')).toHaveText('0 Schüler ausgewählt');
    await dialog.getByTestId('student-list').getByRole('checkbox').first().check();
    await expectNoSeriousAxe(page, '[role="dialog"]');
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await dialog.getByRole('button', { name: 'Aufgabe erstellen' }).click();
    await expect(page.getByText(/Aufgabe erfolgreich erstellt/)).toBeVisible();
  });
});

test('a new teacher follows the first steps, ticked off one by one, to the first task', async ({ page, request }) => {
  const admin = bearer(await apiToken(request, ADMIN_EMAIL));
  const email = `neu.${uniq}@example.test`;
  const password = 'erste-schritte-24';
  const invite = await request.post('/api/school/invites', { headers: admin, data: { name: `Neue Lehrerin ${uniq}`, email } });
  expect(invite.status(), await invite.text()).toBe(201);
  const token = new URL(((await invite.json()) as { url: string }).url).pathname.split('/').pop()!;
  const accepted = await request.post(`/api/invites/${token}/accept`, { data: { password } });
  expect(accepted.status(), await accepted.text()).toBe(200);

  await page.setViewportSize(SIZES.wide);
  await loginAs(page, email, password);
  const steps = page.getByTestId('first-steps');
  await expect(steps).toBeVisible();
  await expect(page.getByTestId('attention-card')).toHaveCount(0);
  for (const s of ['course', 'student', 'exercise', 'assignment']) await expect(steps.getByTestId(`first-step-${s}`)).toHaveAttribute('data-done', 'false');
  await homeShots(page, 'new', () => expect(page.getByTestId('first-steps')).toBeVisible());

  // 1. The course: the link opens the course form.
  await page.setViewportSize(SIZES.wide);
  await page.goto('/');
  await steps.getByRole('link', { name: 'Kurs anlegen' }).click();
  await expect(page).toHaveURL(/\/courses\?new=1$/);
  const courseForm = page.getByRole('dialog', { name: 'Neuen Kurs anlegen' });
  await courseForm.getByLabel('Name').fill('Geige Anfänger');
  await courseForm.getByRole('button', { name: 'Kurs anlegen' }).click();
  await expect(courseForm).toBeHidden();
  await page.goto('/');
  await expect(steps.getByTestId('first-step-course')).toHaveAttribute('data-done', 'true');
  await expect(steps.getByTestId('first-step-student')).toHaveAttribute('data-done', 'false');
  await expect(steps).toContainText('1 von 4 erledigt');

  // 2. and 3. The student and the exercise (through the API: their forms have their own journeys).
  const teacher = bearer(await apiToken(request, email, password));
  const made = await request.post('/api/students', { headers: teacher, data: { name: `Erster Schüler ${uniq}`, email: `erster.${uniq}@example.test`, password: 'ueben-ueben-24' } });
  expect(made.status(), await made.text()).toBe(201);
  await expect(steps.getByRole('link', { name: 'Übung erstellen' })).toHaveAttribute('href', '/exercises?new=1');
  await steps.getByRole('link', { name: 'Schüler hinzufügen' }).click();
  await expect(page).toHaveURL(/\/students\?new=1$/);
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  const exercise = await request.post('/api/exercises', { headers: teacher, multipart: { title: `Tonleiter ${uniq}`, category: 'tonbildung', difficulty: 'leicht', priority: '3' } });
  expect(exercise.status(), await exercise.text()).toBe(201);
  await page.goto('/');
  await expect(steps).toContainText('3 von 4 erledigt');

  // 4. The first task, assigned right from the home.
  await steps.getByTestId('first-step-assign').click();
  const dialog = page.getByRole('dialog', { name: 'Neue Aufgabe' });
  await dialog.getByTestId('exercise-select').click();
  await page.getByRole('option', { name: `Tonleiter ${uniq}` }).click();
  await dialog.getByTestId('student-list').getByRole('checkbox').first().check();
  await dialog.getByRole('button', { name: 'Aufgabe erstellen' }).click();
  await expect(page.getByText(/Aufgabe erfolgreich erstellt/)).toBeVisible();
  // Done: the home now shows what needs attention, all clear for a student who just started.
  await expect(page.getByTestId('first-steps')).toHaveCount(0);
  await expect(page.getByTestId('attention-clear')).toHaveText('Alles im grünen Bereich');
});
