import type { Page } from '@playwright/test';
import { apiToken, DEMO, DESKTOP, PHONE, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, test } from './fixtures';

/** Calls the API with the signed-in user's token (to find ids and to check numbers). */
async function apiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const r = await fetch(p, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
    if (!r.ok) throw new Error(`${p}: ${r.status}`);
    return r.json();
  }, path) as Promise<T>;
}

async function studentId(page: Page, email: string): Promise<number> {
  const list = await apiGet<{ data: Array<{ id: number; email: string }> }>(page, '/api/students');
  const s = list.data.find((x) => x.email === email);
  if (!s) throw new Error(`no student ${email}`);
  return s.id;
}

/** The chart's canvas exists, has a size, and has painted pixels (bars, axes). On the student's home the chart loads when it comes near the screen: scroll to it. */
async function expectChartPainted(page: Page) {
  const canvas = page.getByTestId('practice-chart');
  await page.evaluate(() => window.scrollTo(0, 0));
  for (let i = 0; i < 40 && (await canvas.count()) === 0; i++) {
    await page.mouse.wheel(0, 400);
    await page.waitForTimeout(100);
  }
  await canvas.scrollIntoViewIfNeeded();
  await expect(canvas).toBeVisible();
  const painted = await canvas.evaluate((el) => {
    const c = el as HTMLCanvasElement;
    const ctx = c.getContext('2d');
    if (!ctx || c.width === 0 || c.height === 0) return 0;
    const data = ctx.getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) n++;
    return n;
  });
  expect(painted).toBeGreaterThan(500);
}

// as the German screen writes it: '75 %' with a no-break space (web/lib/format.ts, formatPercent)
const percent = (v: number | null) => (v === null ? '–' : `${Math.round(v)}\u00a0%`);

test.describe('progress', () => {
  // several sign-ins, language switches and full-page screenshots per test on a shared, loaded machine
  test.setTimeout(180_000);
  const student = DEMO.students[1]; // Lukas Becker

  test('a teacher reviews a task; the student dashboard shows the new average accuracy', async ({ page, browser }) => {
    await loginAs(page, DEMO.teacher.email);
    const id = await studentId(page, student.email);
    const before = await apiGet<{ average_accuracy: number | null }>(page, `/api/students/${id}/metrics`);

    await page.goto(`/students/${id}`);
    await expect(page.getByTestId('student-name')).toHaveText(student.name);
    await expect(page.getByTestId('student-streak')).toContainText(/Serie: \d+ Tag/);
    await expect(page.getByTestId('kpi-completed-value')).toHaveText(/^\d+$/);
    // German writes a percent with a space: '75 %' (web/lib/format.ts, formatPercent)
    await expect(page.getByTestId('kpi-rate-value')).toHaveText(/^\d+\s%$/);
    await expectChartPainted(page);

    // the KPI cards are the overview's numbers
    const overview = await apiGet<{ kpis: Record<string, number>; recent_submissions: Array<{ id: number; status: string; accuracy_score: number | null }> }>(
      page,
      `/api/students/${id}/overview`,
    );
    await expect(page.getByTestId('kpi-completed-value')).toHaveText(String(overview.kpis.completed_submissions));
    await expect(page.getByTestId('kpi-open-value')).toHaveText(String(overview.kpis.open_submissions));
    await expect(page.getByTestId('kpi-overdue-value')).toHaveText(String(overview.kpis.overdue_submissions));
    await expect(page.getByTestId('kpi-expired-value')).toHaveText(String(overview.kpis.expired_submissions));
    await expect(page.getByTestId('kpi-rate-value')).toHaveText(percent(overview.kpis.completion_rate!));

    // review the most recent completed task
    const target = overview.recent_submissions.find((s) => s.status === 'completed');
    if (!target) throw new Error('the demo student has no recent completed task');
    const row = page.getByTestId(`recent-${target.id}`);
    await row.getByRole('button', { name: /Bewerten|Bewertung ändern/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('heading', { name: 'Aufgabe bewerten' })).toBeVisible();

    // nothing chosen: the form's own message in German, not the browser's bubble; the accuracy
    // figure is optional, so only the level is asked for
    await dialog.getByLabel('Genauigkeit (%)').fill('');
    await dialog.getByLabel('Kompetenzniveau').selectOption('');
    await dialog.getByRole('button', { name: 'Bewertung speichern' }).click();
    await expect(dialog.getByText('Bitte ein Kompetenzniveau auswählen.')).toBeVisible();
    await expect(dialog.getByText('Bitte eine Zahl von 0 bis 100 eingeben.')).toHaveCount(0);
    await shot(page, 'progress', 'review-dialog-errors-desktop-de', { fullPage: false });

    // out of range: the form says so and nothing is saved
    await dialog.getByLabel('Genauigkeit (%)').fill('101');
    await dialog.getByLabel('Kompetenzniveau').selectOption('advanced');
    await dialog.getByRole('button', { name: 'Bewertung speichern' }).click();
    await expect(dialog.getByText('Bitte eine Zahl von 0 bis 100 eingeben.')).toBeVisible();

    await dialog.getByLabel('Genauigkeit (%)').fill('97');
    await dialog.getByLabel('Rückmeldung an den Schüler').fill('Sehr sauber intoniert – weiter so!');
    await shot(page, 'progress', 'review-dialog-desktop-de');
    await dialog.getByRole('button', { name: 'Bewertung speichern' }).click();
    await expect(page.getByText('Bewertung gespeichert')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId(`recent-${target.id}-accuracy`)).toHaveText('97 %');
    await expect(row.getByText('Sehr sauber intoniert – weiter so!')).toBeVisible();

    const after = await apiGet<{ average_accuracy: number | null }>(page, `/api/students/${id}/metrics`);
    expect(after.average_accuracy).not.toBeNull();
    expect(after.average_accuracy).not.toBe(before.average_accuracy);
    // the learning statistics show the metrics' level
    await expect(page.getByTestId('stat-level')).toHaveText(/Anfänger|Fortgeschritten|Experte|Meister|Nicht definiert/);

    // the student signs in elsewhere and sees the new average on the dashboard
    const context = await browser.newContext({ viewport: DESKTOP, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
    const sp = await context.newPage();
    await loginAs(sp, student.email);
    // a fresh sign-in on a loaded machine: allow the dashboard time to load
    await expect(sp.getByTestId('card-accuracy-value')).toHaveText(percent(after.average_accuracy), { timeout: 30_000 });
    const mine = await apiGet<{
      current_streak: number;
      overall_metrics: Record<string, number>;
      total_practice_time_minutes: number;
    }>(sp, '/api/my-metrics');
    await expect(sp.getByTestId('card-open-value')).toHaveText(String(mine.overall_metrics.open_submissions));
    await expect(sp.getByTestId('card-overdue-value')).toHaveText(String(mine.overall_metrics.overdue_submissions));
    await expect(sp.getByTestId('card-completed-value')).toHaveText(String(mine.overall_metrics.completed_submissions));
    await expect(sp.getByTestId('card-streak-value')).toHaveText(mine.current_streak === 1 ? '1 Tag' : `${mine.current_streak} Tage`);
    await expectChartPainted(sp);
    await context.close();
  });

  test('student dashboard: next tasks with "Heute", statistics, German and Turkish, desktop and phone', async ({ page }) => {
    await loginAs(page, DEMO.students[0].email);
    await expect(page.getByRole('heading', { level: 1, name: `Hallo, ${DEMO.students[0].name}` })).toBeVisible();
    await expectChartPainted(page);
    const upcoming = page.getByTestId('upcoming-tasks');
    // one item per task or series (a repeating task is one item, docs/decisions/done-means-practised.md), at most five
    await expect(upcoming.getByRole('listitem').first()).toBeVisible();
    expect(await upcoming.getByRole('listitem').count()).toBeLessThanOrEqual(5);
    // the demo student has a task due today: first in the list, badge 'Heute'
    await expect(upcoming.getByRole('listitem').first()).toContainText('Heute');
    // the calendar is read-only for a student: days are not buttons (it loads near the screen)
    const calendar = page.getByTestId('task-calendar');
    for (let i = 0; i < 40 && (await calendar.count()) === 0; i++) await page.mouse.wheel(0, 400);
    await expect(calendar).toBeVisible();
    await expect(calendar.getByRole('button', { name: 'Heute' })).toBeVisible();
    await expect(calendar).not.toHaveClass(/uk-calendar--can-create/);
    await expect(page.getByTestId('stat-total')).toHaveText(/^(\d+ min|\d+:\d{2} h)$/);
    await expect(page.getByTestId('stat-weekly')).toHaveText(/^(\d+ min|\d+:\d{2} h)$/);
    await expect(page.getByTestId('stat-average')).toHaveText(/^(\d+ min|\d+:\d{2} h)$/);
    await expectNoSeriousAxe(page, 'main');
    await shot(page, 'progress', 'student-dashboard-desktop-de');

    await upcoming.getByRole('link').first().click();
    await expect(page).toHaveURL(/\/submissions\/\d+$/);
    await page.goBack();

    await setLanguage(page, 'tr');
    await expect(page.getByText('Sıradaki ödevler')).toBeVisible();
    await expect(page.getByText('Öğrenme istatistikleri')).toBeVisible();
    await expectChartPainted(page);
    await shot(page, 'progress', 'student-dashboard-desktop-tr');

    await page.setViewportSize(PHONE);
    await expectChartPainted(page);
    await shot(page, 'progress', 'student-dashboard-phone-tr');
    await setLanguage(page, 'de');
    await expect(page.getByText('Nächste Aufgaben')).toBeVisible();
    await shot(page, 'progress', 'student-dashboard-phone-de');
  });

  test("teacher's student view in Turkish and on a phone; unknown and foreign ids show the not-found panel", async ({ page }) => {
    await loginAs(page, DEMO.teacher.email);
    const id = await studentId(page, DEMO.students[0].email);
    await page.goto(`/students/${id}`);
    await expect(page.getByTestId('student-name')).toHaveText(DEMO.students[0].name);
    await expectChartPainted(page);
    await expectNoSeriousAxe(page, 'main');
    await shot(page, 'progress', 'student-detail-desktop-de');

    await setLanguage(page, 'tr');
    await expect(page.getByText('Son ödevler')).toBeVisible();
    await expect(page.getByTestId('student-streak')).toContainText('Seri:');
    await shot(page, 'progress', 'student-detail-desktop-tr');
    await page.setViewportSize(PHONE);
    await expectChartPainted(page);
    await shot(page, 'progress', 'student-detail-phone-tr');
    await setLanguage(page, 'de');
    await expect(page.getByText('Letzte Aufgaben')).toBeVisible();
    await shot(page, 'progress', 'student-detail-phone-de');

    await page.setViewportSize(DESKTOP);
    for (const bad of ['999999', 'abc']) {
      await page.goto(`/students/${bad}`);
      const panel = page.getByTestId('student-not-found');
      await expect(panel).toBeVisible();
      await expect(panel.getByRole('heading', { name: 'Schüler nicht gefunden' })).toBeVisible();
      // a 404 is not an error toast
      await expect(page.getByText('Fehler beim Laden der Übersicht')).toHaveCount(0);
    }
    await shot(page, 'progress', 'student-detail-not-found-desktop-de');
    await page.getByRole('link', { name: 'Zurück zur Schülerliste' }).click();
    await expect(page).toHaveURL(/\/students$/);
  });
});

test("a student's '+N' lists the day's tasks in a popover: by mouse, by keyboard, axe clean, German and Turkish, desktop and phone", async ({ page, request }) => {
  // Four tasks on one day of the visible month (three days on: always in the six-week grid).
  const student = DEMO.students[5];
  const teacher = { authorization: `Bearer ${await apiToken(request, DEMO.teacher.email)}` };
  const students = (await (await request.get('/api/students', { headers: teacher })).json()) as { data: Array<{ id: number; email: string }> };
  const studentId = students.data.find((s) => s.email === student.email)!.id;
  const exercises = (await (await request.get('/api/exercises', { headers: teacher })).json()) as { exercises: Array<{ id: number }> };
  const day = new Date(Date.now() + 3 * 86_400_000).toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
  for (const ex of exercises.exercises.slice(0, 4)) {
    const res = await request.post('/api/submissions', { headers: teacher, data: { exercise_id: ex.id, due_date: day, assignees: { users: [studentId] } } });
    expect(res.status(), await res.text()).toBe(201);
  }

  await loginAs(page, student.email);
  for (const [lang, size, viewport] of [
    ['de', 'desktop', DESKTOP],
    ['tr', 'desktop', DESKTOP],
    ['de', 'phone', PHONE],
  ] as const) {
    await page.setViewportSize(viewport);
    await setLanguage(page, lang);
    await page.goto('/');
    const calendar = page.getByTestId('task-calendar');
    for (let i = 0; i < 40 && (await calendar.count()) === 0; i++) await page.mouse.wheel(0, 400);
    const more = calendar.locator(`.uk-day[data-date="${day}"] .uk-more`);
    await expect(more).toBeVisible();
    const shown = await calendar.locator(`.uk-day[data-date="${day}"] .uk-ev`).count();
    await more.click();
    const popover = page.locator('.uk-popover');
    await expect(popover).toBeVisible();
    await expect(popover).toHaveAttribute('role', 'dialog');
    // every task of the day, more than the cell shows
    expect(await popover.locator('.uk-ev').count()).toBeGreaterThan(shown);
    await expect(popover.getByRole('button', { name: lang === 'de' ? 'Schließen' : 'Kapat' })).toBeVisible();
    // on the screen, also when the day is at the grid's right edge on a phone
    const box = (await popover.boundingBox())!;
    expect(box.x, `${lang} ${size}`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${lang} ${size}`).toBeLessThanOrEqual(viewport.width);
    await expectNoSeriousAxe(page, '.uk-popover');
    await shot(page, 'progress', `student-day-popover-${lang}-${size}`, { fullPage: false });
    // by keyboard: Tab reaches an entry, Enter opens its task
    let reached = false;
    for (let i = 0; i < 6 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await popover.locator('.uk-ev:focus').count() === 1;
    }
    expect(reached, 'an entry in the popover is reachable by Tab').toBe(true);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/submissions\/\d+$/);
  }
});
