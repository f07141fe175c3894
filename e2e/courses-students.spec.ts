import type { Page } from '@playwright/test';
import { DEMO, DESKTOP, PHONE, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, test, saveScreenshot } from './fixtures';

const DELETE_SENTENCE = 'Sind Sie sicher, dass Sie diesen Schüler löschen möchten? Diese Aktion kann nicht rückgängig gemacht werden.';
const uniq = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;

const sidebarCourseSelect = (page: Page) => page.locator('aside').getByLabel('Kurs', { exact: true });

async function createCourse(page: Page, name: string, description = '') {
  await page.goto('/courses');
  await page.getByRole('button', { name: 'Kurs hinzufügen' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Neuen Kurs anlegen' });
  await dialog.getByLabel('Name').fill(name);
  if (description) await dialog.getByLabel('Beschreibung').fill(description);
  await dialog.getByRole('button', { name: 'Kurs anlegen' }).click();
  await expect(page.getByText('Kurs erfolgreich erstellt')).toBeVisible();
  await expect(dialog).toHaveCount(0);
}

test('a teacher creates a course and a student in it, edits the student without the password, the student signs in, the teacher deletes the student', async ({
  page,
  browser,
}) => {
  const id = uniq();
  const courseName = `Bağlama E2E ${id}`;
  const studentName = `Deniz Test ${id}`;
  const email = `deniz.${id}@example.test`;
  const password = 'anfang-1234';

  await loginAs(page, DEMO.teacher.email);

  // Course: created, shown as a card, and at once in the sidebar's selector (no reload).
  await createCourse(page, courseName, 'Dienstags 17 Uhr');
  const courseCard = page.getByTestId('course-card').filter({ hasText: courseName });
  await expect(courseCard).toContainText('0 Schüler');
  await expect(courseCard).toContainText('Dienstags 17 Uhr');
  await expect(sidebarCourseSelect(page).locator('option', { hasText: courseName })).toHaveCount(1);

  // Student: created in that course. With the course selected the list is empty at first.
  await page.getByRole('link', { name: 'Schüler', exact: true }).click();
  await expect(page).toHaveURL(/\/students$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Schüler' })).toBeVisible();
  // the count once the list is drawn (its cards come in a transition, after the page's frame)
  await expect(page.getByTestId('students-count')).toHaveText(/^\d+ von \d+$/);
  const total = Number((await page.getByTestId('students-count').innerText()).split(' von ')[1]);
  expect(total).toBeGreaterThanOrEqual(DEMO.students.length);
  await sidebarCourseSelect(page).selectOption({ label: courseName });
  await expect(page.getByText('Keine Schüler in diesem Kurs')).toBeVisible();
  await expect(page.getByTestId('students-count')).toHaveText('0 von 0');
  await shot(page, 'courses-students', 'students-empty-course-de-desktop');
  await page.getByRole('button', { name: 'Schüler hinzufügen' }).first().click();
  let dialog = page.getByRole('dialog', { name: 'Neuen Schüler hinzufügen' });
  await expect(dialog.getByText('Mindestens 8 Zeichen empfohlen')).toBeVisible();
  // The selected course is ticked for a new student.
  await expect(dialog.getByRole('checkbox', { name: courseName })).toBeChecked();
  // Validation first: nothing filled in.
  await dialog.getByRole('button', { name: 'Schüler anlegen' }).click();
  await expect(dialog.getByText('Bitte geben Sie einen Namen ein.')).toBeVisible();
  await expect(dialog.getByText('Bitte geben Sie ein Passwort ein.')).toBeVisible();
  await dialog.getByLabel('Name').fill(studentName);
  await dialog.getByLabel('E-Mail').fill(email);
  await dialog.getByLabel('Passwort').fill(password);
  await dialog.getByLabel('Telefon').fill('0170 555 12 12');
  await dialog.getByRole('button', { name: 'Schüler anlegen' }).click();
  await expect(page.getByText('Schüler erfolgreich erstellt')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('students-count')).toHaveText('1 von 1');
  let card = page.getByTestId('student-card').filter({ hasText: studentName });
  await expect(card).toContainText(email);
  await expect(card).toContainText('0170 555 12 12');
  await expect(card).toContainText(courseName);
  await expect(card).toContainText(/Registriert am \d\d\.\d\d\.\d{4}/);
  // Back to all courses: the list reloads with everyone.
  await sidebarCourseSelect(page).selectOption({ label: 'Alle Kurse' });
  await expect(page.getByTestId('students-count')).toHaveText(`${total + 1} von ${total + 1}`);

  // A second student with the same e-mail in other letter case: 422 under the e-mail field.
  await page.getByRole('button', { name: 'Schüler hinzufügen' }).first().click();
  dialog = page.getByRole('dialog', { name: 'Neuen Schüler hinzufügen' });
  await dialog.getByLabel('Name').fill('Doppelt');
  await dialog.getByLabel('E-Mail').fill(email.toUpperCase());
  await dialog.getByLabel('Passwort').fill('doppelt-123');
  await dialog.getByRole('button', { name: 'Schüler anlegen' }).click();
  await expect(dialog.getByText('Diese E-Mail-Adresse wird bereits verwendet.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toHaveCount(0);

  // Search by e-mail: 'x von y'.
  await page.getByLabel('Schüler suchen').fill(email.toUpperCase());
  await expect(page.getByTestId('students-count')).toHaveText(`1 von ${total + 1}`);
  await expect(page.getByTestId('student-card')).toHaveCount(1);
  await page.getByLabel('Schüler suchen').fill('niemand-heisst-so');
  await expect(page.getByText('Keine Schüler gefunden')).toBeVisible();
  await expect(page.getByTestId('students-count')).toHaveText(`0 von ${total + 1}`);
  await shot(page, 'courses-students', 'students-no-results-de-desktop');
  await page.getByRole('button', { name: 'Suche zurücksetzen' }).click();

  // Edit without touching the password.
  card = page.getByTestId('student-card').filter({ hasText: studentName });
  await card.getByRole('button', { name: `${studentName} bearbeiten` }).click();
  dialog = page.getByRole('dialog', { name: 'Schüler bearbeiten' });
  await expect(dialog.getByLabel('Passwort')).toHaveValue('');
  await expect(dialog.getByText(/Leer lassen, um das bisherige Passwort zu behalten/)).toBeVisible();
  await dialog.getByLabel('Name').fill(`${studentName} B.`);
  await dialog.getByLabel('Notizen').fill('Übt gern abends.');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Schüler erfolgreich aktualisiert')).toBeVisible();
  await expect(page.getByTestId('student-card').filter({ hasText: `${studentName} B.` })).toHaveCount(1);

  // The course now counts one student.
  await page.getByRole('link', { name: 'Kurse', exact: true }).click();
  await expect(page.getByTestId('course-card').filter({ hasText: courseName })).toContainText('1 Schüler');

  // The student signs in with the original password, in a separate browser context.
  const studentContext = await browser.newContext({ baseURL: test.info().project.use.baseURL, locale: 'de-DE', viewport: DESKTOP });
  const studentPage = await studentContext.newPage();
  await loginAs(studentPage, email, password);
  await expect(studentPage.getByTestId('user-name').first()).toHaveText(`${studentName} B.`);
  await studentContext.close();

  // The teacher deletes the student after confirming the exact sentence.
  await page.getByRole('link', { name: 'Schüler', exact: true }).click();
  card = page.getByTestId('student-card').filter({ hasText: `${studentName} B.` });
  await card.getByRole('button', { name: `${studentName} B. löschen` }).click();
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(DELETE_SENTENCE);
  await saveScreenshot(page, { path: 'e2e/screenshots/courses-students/student-delete-confirm-de-desktop.png', animations: 'disabled' });
  // Cancel first: nothing happens.
  await confirm.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(card).toHaveCount(1);
  await card.getByRole('button', { name: `${studentName} B. löschen` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Löschen' }).click();
  await expect(page.getByText('Schüler erfolgreich gelöscht')).toBeVisible();
  await expect(card).toHaveCount(0);
  await expect(page.getByTestId('students-count')).toHaveText(`${total} von ${total}`);
});

test('renaming and deleting the selected course updates the sidebar without a reload', async ({ page }) => {
  const name = `Gitarre E2E ${uniq()}`;
  await loginAs(page, DEMO.teacher.email);
  await createCourse(page, name);
  await expect(page.getByTestId('course-card').filter({ hasText: name })).toContainText('Keine Beschreibung vorhanden');
  await sidebarCourseSelect(page).selectOption({ label: name });

  const card = page.getByTestId('course-card').filter({ hasText: name });
  await card.getByRole('button', { name: `Kurs ${name} bearbeiten` }).click();
  const dialog = page.getByRole('dialog', { name: 'Kurs bearbeiten' });
  await dialog.getByLabel('Name').fill(`${name} neu`);
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Kurs erfolgreich aktualisiert')).toBeVisible();
  await expect(sidebarCourseSelect(page).locator('option:checked')).toHaveText(`${name} neu`);

  const renamed = page.getByTestId('course-card').filter({ hasText: `${name} neu` });
  await renamed.getByRole('button', { name: `Kurs ${name} neu löschen` }).click();
  await expect(page.getByRole('dialog')).toContainText('Sind Sie sicher, dass Sie diesen Kurs löschen möchten?');
  await page.getByRole('dialog').getByRole('button', { name: 'Löschen' }).click();
  await expect(page.getByText('Kurs erfolgreich gelöscht')).toBeVisible();
  await expect(renamed).toHaveCount(0);
  await expect(sidebarCourseSelect(page).locator('option', { hasText: `${name} neu` })).toHaveCount(0);
  await expect(sidebarCourseSelect(page)).toHaveValue('');
  expect(await page.evaluate(() => localStorage.getItem('selectedCourseId'))).toBeNull();
});

for (const language of ['de', 'tr'] as const) {
  for (const [device, viewport] of [
    ['desktop', DESKTOP],
    ['phone', PHONE],
  ] as const) {
    test(`screens look right: ${language}, ${device}`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await setLanguage(page, language);
      await loginAs(page, DEMO.teacher.email);
      const texts = {
        de: { students: 'Schüler', courses: 'Kurse', add: 'Schüler hinzufügen', modal: 'Neuen Schüler hinzufügen', hint: 'Mindestens 8 Zeichen empfohlen' },
        tr: { students: 'Öğrenciler', courses: 'Kurslar', add: 'Öğrenci ekle', modal: 'Yeni öğrenci ekle', hint: 'En az 8 karakter önerilir' },
      }[language];

      await page.goto('/students');
      await expect(page.getByRole('heading', { level: 1, name: texts.students })).toBeVisible();
      await expect(page.getByTestId('student-card').first()).toBeVisible();
      await expect(page.getByTestId('student-card').filter({ hasText: DEMO.students[0].name })).toHaveCount(1);
      await expectNoSeriousAxe(page, 'main');
      await shot(page, 'courses-students', `students-${language}-${device}`);

      await page.getByRole('button', { name: texts.add }).first().click();
      const dialog = page.getByRole('dialog', { name: texts.modal });
      await expect(dialog.getByText(texts.hint)).toBeVisible();
      await expectNoSeriousAxe(page, '[role="dialog"]');
      await saveScreenshot(page, { path: `e2e/screenshots/courses-students/student-modal-${language}-${device}.png`, animations: 'disabled' });
      await page.keyboard.press('Escape');
      await expect(dialog).toHaveCount(0);

      const edit = page.getByTestId('student-card').first().getByRole('button', { name: language === 'de' ? /bearbeiten$/ : /düzenle$/ });
      await edit.click();
      await expect(page.getByRole('dialog').getByRole('heading')).toBeVisible();
      await saveScreenshot(page, { path: `e2e/screenshots/courses-students/student-edit-modal-${language}-${device}.png`, animations: 'disabled' });
      await page.keyboard.press('Escape');

      await page.goto('/courses');
      await expect(page.getByRole('heading', { level: 1, name: texts.courses })).toBeVisible();
      await expect(page.getByTestId('course-card').first()).toBeVisible();
      await expectNoSeriousAxe(page, 'main');
      await shot(page, 'courses-students', `courses-${language}-${device}`);

      await page.getByRole('button', { name: language === 'de' ? 'Kurs hinzufügen' : 'Kurs ekle' }).first().click();
      await expect(page.getByRole('dialog').getByRole('heading')).toBeVisible();
      await saveScreenshot(page, { path: `e2e/screenshots/courses-students/course-modal-${language}-${device}.png`, animations: 'disabled' });
    });
  }
}
