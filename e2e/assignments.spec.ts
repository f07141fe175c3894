import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO, DESKTOP, PHONE, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, showTeacherCalendar, test, saveScreenshot } from './fixtures';

const FEATURE = 'assignments';
const NOTE = 'Langsam und sauber, dann schneller.';

/** Today's calendar date in Europe/Berlin (the browser's and the school's zone in these tests). */
function berlinToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}
function addDays(date: string, n: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}
/** The open dialog as the user sees it (the viewport; a full-page shot would stretch the fixed dialog). */
async function dialogShot(page: Page, name: string) {
  const path = fileURLToPath(new URL(`./screenshots/${FEATURE}/${name}.png`, import.meta.url));
  mkdirSync(dirname(path), { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await saveScreenshot(page, { path, animations: 'disabled' });
}
const de = (date: string) => `${date.slice(8, 10)}.${date.slice(5, 7)}.${date.slice(0, 4)}`;

async function statValue(page: Page, key: string): Promise<number> {
  const text = await page.getByTestId(`stat-${key}`).textContent();
  return Number((text ?? '').replace(/\D/g, ''));
}

async function openDialogOn(page: Page, date: string) {
  const cell = page.locator(`.uk-day[data-date="${date}"]`);
  await expect(cell).toBeVisible();
  // in the middle of the screen: never under the phone's sticky top bar
  await cell.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  // A click on the empty part of the day's top row (beside its number, not on an entry or '+N':
  // cells have a fixed height and may be full of entries) opens the dialog.
  const box = await cell.boundingBox();
  if (!box) throw new Error('day cell not visible');
  await page.mouse.click(box.x + box.width - 6, box.y + 8);
  // The dialog root has no box of its own (its panel is fixed): wait for its title.
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: /^(Aufgabe für|.* için ödev$)/ })).toBeVisible();
  return dialog;
}

async function apiAs(page: Page, path: string): Promise<unknown> {
  return page.evaluate(async (p) => {
    const res = await fetch(p, { headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` } });
    return res.json();
  }, path);
}

test.describe('assigning tasks from the teacher dashboard', () => {
  // Long journeys with screenshots and axe runs on a shared, busy machine.
  test.describe.configure({ timeout: 180_000 });
  test('a teacher assigns a weekly task to two students; both calendars show it', async ({ page }) => {
    const today = berlinToday();
    await page.setViewportSize(DESKTOP);
    await loginAs(page, DEMO.teacher.email);

    // Dashboard: counts of the demo school, the calendar and the recent students
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByTestId('stat-students')).toHaveText('6');
    await expect(page.getByTestId('recent-students').getByRole('listitem')).toHaveCount(6);
    await expect(page.getByRole('button', { name: 'Heute' })).toBeVisible();
    await expect(page.locator('.uk-day.uk-day--today')).toBeVisible();
    await expect(page.locator('.uk-ev').first()).toBeVisible();
    const tasksBefore = await statValue(page, 'submissions');
    await shot(page, FEATURE, 'dashboard-de-desktop');
    await expectNoSeriousAxe(page, 'main');

    // The day click opens the dialog for that date
    const dialog = await openDialogOn(page, today);
    const longDate = new Intl.DateTimeFormat('de-DE', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${today}T00:00:00Z`),
    );
    await expect(dialog.getByRole('heading', { name: `Aufgabe für ${longDate}` })).toBeVisible();
    await expect(dialog.getByText('Neue Aufgabe erstellen')).toBeVisible();
    await expect(dialog.getByTestId('exercise-select')).toHaveText('Bitte Übung auswählen...');
    await expect(dialog.getByTestId('exercise-count')).toHaveText('12 Übungen verfügbar');
    await expect(dialog.getByTestId('selected-count')).toHaveText('0 Schüler ausgewählt');
    await expect(dialog.getByText('Standard: 2 Tage')).toBeVisible();
    await expect(dialog.getByLabel('Notiz für Schüler')).toBeVisible();
    await expect(dialog.getByLabel('Enddatum')).toBeDisabled();
    const submit = dialog.getByRole('button', { name: 'Aufgabe erstellen' });
    await expect(submit).toBeDisabled();

    // Exercise with its difficulty in brackets
    await dialog.getByTestId('exercise-select').click();
    const option = page.getByRole('listbox').getByRole('option', { name: /Tonleiter-Etüde in Uşşak/ });
    await expect(option).toContainText('(Mittel)');
    await option.click();
    await expect(dialog.getByTestId('exercise-select')).toHaveText('Tonleiter-Etüde in Uşşak (Mittel)');

    // Weekly, default end: 49 days later, shown in the summary
    await dialog.getByLabel('Wiederholung').selectOption({ label: 'Wöchentlich' });
    await expect(dialog.getByLabel('Enddatum')).toBeEnabled();
    await expect(dialog.getByLabel('Enddatum')).toHaveAttribute('min', today);
    await expect(dialog.getByTestId('recurrence-summary')).toHaveText(`Wiederholt sich wöchentlich bis ${de(addDays(today, 49))}`);

    // Two students
    await dialog.getByLabel(/Ayşe Demir/).check();
    await dialog.getByLabel(/Lukas Becker/).check();
    await expect(dialog.getByTestId('selected-count')).toHaveText('2 Schüler ausgewählt');
    await dialog.getByLabel('Notiz für Schüler').fill(NOTE);
    await dialogShot(page, 'dialog-de-desktop');
    await expectNoSeriousAxe(page, '[role="dialog"]');

    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(page.getByRole('status').filter({ hasText: 'Aufgabe erfolgreich erstellt (wiederholend)! 8 Aufgabe(n) für 2 Schüler erstellt.' })).toBeVisible();
    await expect(dialog).toBeHidden();

    // The calendar and the counts reload
    const todayCell = page.locator(`.uk-day[data-date="${today}"]`);
    await expect(page.getByTestId('stat-submissions')).toHaveText(String(tasksBefore + 16));
    const entries = page.locator('.uk-ev', { hasText: 'Tonleiter-Etüde in Uşşak – ' });
    await expect.poll(() => entries.count()).toBeGreaterThanOrEqual(2);
    // Today's cell may collapse extra entries into '+N weitere', which opens the day's agenda.
    const visibleEntry = todayCell.locator('.uk-ev:visible', { hasText: `Tonleiter-Etüde in Uşşak – Ayşe Demir. Fällig: ${de(today)}` });
    if ((await visibleEntry.count()) === 0) {
      await todayCell.locator('.uk-more').click();
      const agenda = page.getByTestId('teacher-agenda');
      await expect(agenda.getByRole('heading', { name: `Aufgaben am Heute, ${de(today)}` })).toBeVisible();
      await expect(agenda.getByRole('button', { name: /^Ayşe Demir: Tonleiter-Etüde in Uşşak öffnen/ })).toBeVisible();
      await agenda.getByRole('button', { name: 'Zur Wochenübersicht' }).click();
    }

    // Hover: the tooltip with title, German due date and status (of an entry shown today)
    const entry = (await visibleEntry.count()) > 0 ? visibleEntry.first() : todayCell.locator('.uk-ev:visible').first();
    await entry.hover();
    const tip = page.getByRole('tooltip');
    await expect(tip).toContainText(' – ');
    await expect(tip).toContainText(`Fällig: ${de(today)}`);
    await expect(tip).toContainText(/Status: (Offen|Erledigt|Verfallen)/);
    await expect(entry).toHaveCSS('border-left-color', 'rgb(245, 158, 11)');
    await page.keyboard.press('Escape');

    // The server has one series of 16 tasks: the weekly dates with the default expiry (2 days)
    type Sub = { id: number; student: { name: string }; series_id: string; due_date: string; expiration_date: string | null; teacher_note: string | null };
    const weekly = Array.from({ length: 8 }, (_, i) => addDays(today, 7 * i));
    const all = (await apiAs(page, `/api/submissions?from=${today}&to=${addDays(today, 60)}`)) as Sub[];
    const created = all.filter((x) => x.teacher_note === NOTE);
    expect(created).toHaveLength(16);
    expect(new Set(created.map((x) => x.series_id)).size).toBe(1);
    expect([...new Set(created.map((x) => x.student.name))].sort()).toEqual(['Ayşe Demir', 'Lukas Becker']);
    expect([...new Set(created.map((x) => x.due_date))].sort()).toEqual(weekly);
    expect(created.every((x) => x.expiration_date === addDays(x.due_date, 2))).toBe(true);
    const aysesIds = created.filter((x) => x.student.name === 'Ayşe Demir').map((x) => x.id);

    // The student sees her eight tasks in her own calendar, and only her own tasks
    await page.evaluate(() => localStorage.clear());
    await loginAs(page, DEMO.students[0].email);
    const own = (await apiAs(page, `/api/calendar-events?start=${today}&end=${addDays(today, 60)}`)) as Array<{
      submission_id: number;
      title: string;
      start: string;
      student_name: string;
    }>;
    const mine = own.filter((e) => aysesIds.includes(e.submission_id));
    expect(mine.map((e) => e.start).sort()).toEqual(weekly);
    expect(mine.every((e) => e.title === 'Tonleiter-Etüde in Uşşak')).toBe(true);
    expect(own.every((e) => e.student_name === 'Ayşe Demir')).toBe(true);
    const tasks = (await apiAs(page, `/api/submissions?from=${today}&to=${addDays(today, 60)}`)) as Sub[];
    expect(tasks.filter((x) => x.teacher_note === NOTE).map((x) => x.id).sort()).toEqual([...aysesIds].sort());
  });

  test('the dialog guards its input, the calendar is read-only for nobody but the teacher, and it reads well in Turkish and on a phone', async ({ page }) => {
    const today = berlinToday();
    await page.setViewportSize(DESKTOP);
    await loginAs(page, DEMO.teacher.email);
    await expect(page.locator('.uk-day.uk-day--today')).toBeVisible();

    // Choosing a course reloads counts and calendar for that course, and the dialog's lists
    await expect(page.getByTestId('stat-courses')).toHaveText('2');
    const calendarReload = page.waitForResponse((r) => r.url().includes('/api/calendar-events') && /course_id=\d+/.test(r.url()));
    await page.getByLabel('Kurs', { exact: true }).selectOption({ label: 'Ney – Grundkurs' });
    await calendarReload;
    await expect(page.getByTestId('stat-courses')).toHaveText('1');
    await expect(page.getByText('Überblick über den gewählten Kurs')).toBeVisible();
    const inCourse = await openDialogOn(page, today);
    await expect(inCourse.getByTestId('exercise-count')).not.toHaveText('12 Übungen verfügbar');
    await expect(inCourse.getByTestId('exercise-count')).toHaveText(/^\d+ Übung(en)? verfügbar$/);
    await inCourse.getByRole('button', { name: 'Abbrechen' }).click();
    await page.getByLabel('Kurs', { exact: true }).selectOption({ label: 'Alle Kurse' });
    await expect(page.getByTestId('stat-courses')).toHaveText('2');

    // Cancel closes and resets
    let dialog = await openDialogOn(page, today);
    await dialog.getByLabel(/Ayşe Demir/).check();
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await expect(dialog).toBeHidden();
    dialog = await openDialogOn(page, today);
    await expect(dialog.getByTestId('selected-count')).toHaveText('0 Schüler ausgewählt');

    // Select all, invalid expiry and end date are caught before sending
    await dialog.getByLabel('Alle Schüler auswählen').check();
    await expect(dialog.getByTestId('selected-count')).toHaveText('6 Schüler ausgewählt');
    await dialog.getByTestId('exercise-select').click();
    await page.getByRole('listbox').getByRole('option').first().click();
    await dialog.getByLabel('Verfällt nach (Tagen)').fill('45');
    await dialog.getByRole('button', { name: 'Aufgabe erstellen' }).click();
    await expect(dialog.getByText('Bitte eine ganze Zahl von 1 bis 30 eingeben.')).toBeVisible();
    await dialog.getByLabel('Verfällt nach (Tagen)').fill('3');
    await dialog.getByLabel('Wiederholung').selectOption({ label: 'Monatlich' });
    await expect(dialog.getByTestId('recurrence-summary')).toContainText('Wiederholt sich monatlich bis');
    await dialog.getByLabel('Enddatum').fill(addDays(today, -1));
    await dialog.getByRole('button', { name: 'Aufgabe erstellen' }).click();
    await expect(dialog.getByText('Das Enddatum darf nicht vor dem Fälligkeitsdatum liegen.')).toBeVisible();
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();

    // Turkish
    await setLanguage(page, 'tr');
    await expect(page.getByRole('button', { name: 'Bugün' })).toBeVisible();
    await expect(page.getByText('Öğrenciler').first()).toBeVisible();
    await shot(page, FEATURE, 'dashboard-tr-desktop');
    await expectNoSeriousAxe(page, 'main');
    dialog = await openDialogOn(page, today);
    await expect(dialog.getByTestId('exercise-select')).toHaveText('Lütfen alıştırma seçin...');
    await dialog.getByLabel('Tekrar').selectOption({ label: 'Her gün' });
    await expect(dialog.getByTestId('recurrence-summary')).toHaveText(`${de(addDays(today, 29))} tarihine kadar her gün tekrarlanır`);
    await dialogShot(page, 'dialog-tr-desktop');
    await dialog.getByRole('button', { name: 'İptal' }).click();

    // Phone, Turkish then German
    await page.setViewportSize(PHONE);
    await expect(page.locator('.uk-day.uk-day--today')).toBeVisible();
    await shot(page, FEATURE, 'dashboard-tr-phone');
    dialog = await openDialogOn(page, today);
    await dialogShot(page, 'dialog-tr-phone');
    await dialog.getByRole('button', { name: 'İptal' }).click();
    await setLanguage(page, 'de');
    await showTeacherCalendar(page);
    await expect(page.locator('.uk-day.uk-day--today')).toBeVisible();
    await shot(page, FEATURE, 'dashboard-de-phone');
    await expectNoSeriousAxe(page, 'main');
    dialog = await openDialogOn(page, today);
    await dialog.getByTestId('exercise-select').click();
    await page.getByRole('listbox').getByRole('option').first().click();
    await dialog.getByLabel('Wiederholung').selectOption({ label: 'Täglich' });
    await dialogShot(page, 'dialog-de-phone');
    await expectNoSeriousAxe(page, '[role="dialog"]');

    // Keyboard: the focused day (the grid's one tab stop) opens the dialog with Enter
    await dialog.getByRole('button', { name: 'Abbrechen' }).click();
    await page.setViewportSize(DESKTOP);
    const dayCell = page.locator(`.uk-day[data-date="${today}"]`);
    await expect(dayCell).toHaveAttribute('tabindex', '0');
    await dayCell.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog').getByRole('heading', { name: /^Aufgabe für/ })).toBeVisible();
  });
});
