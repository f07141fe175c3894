import type { Browser, Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO, DESKTOP, PHONE, eachLanguageAndSize, expect, expectNoSeriousAxe, loginAs, setLanguage, settle, test, saveScreenshot } from './fixtures';
import { mailsTo } from './mail';

/**
 * docs/decisions/schools-and-roles.md, the school's administration: the administrator invites a teacher and reads the one-time
 * link from the screen; the teacher sets a password through it, lands on the teacher home, creates
 * an exercise and a student and assigns a task; the administrator sees the teacher, the accepted
 * invitation and the audit log, exports a student's data with one click, and deactivates the
 * teacher, whose session ends at once and whose sign-in is refused. axe clean on every admin screen
 * and the invitation page; screenshots de/tr at 1280 and 390 under /tmp/school-shots (SCHOOL_SHOTS
 * overrides).
 */

const SHOTS = process.env.SCHOOL_SHOTS ?? '/tmp/school-shots';
const ADMIN = { name: 'Sabine Krüger', email: 'verwaltung@example.com' };
const SCHOOL = 'Musikschule Klangwelt';
const uniq = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
const TEACHER = { name: 'Anna Roth', email: `anna.roth.${uniq}@example.test`, password: 'geige-und-ney-24' };
const STUDENT = { name: `Deniz Kara ${uniq}`, email: `deniz.${uniq}@example.test`, password: 'schueler-1234' };
const EXERCISE = `Tonleiter in Rast ${uniq}`;

const TEXT = {
  de: { dashboard: SCHOOL, teachers: 'Lehrkräfte', students: 'Schüler', audit: 'Protokoll', move: 'Lehrkraft wechseln', parents: 'Eltern', invite: 'Hallo Anna Roth!' },
  tr: { dashboard: SCHOOL, teachers: 'Öğretmenler', students: 'Öğrenciler', audit: 'Kayıt defteri', move: 'Öğretmen değiştir', parents: 'Veliler', invite: 'Merhaba Anna Roth!' },
} as const;

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await settle(page);
  await page.evaluate(() => document.fonts.ready);
  await saveScreenshot(page, { path: join(SHOTS, `${name}.png`), fullPage, animations: 'disabled' });
}

/** Scrolls down and back, so that what loads near the viewport (the charts) is there for a full-page shot. */
async function scrollThrough(page: Page): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await page.mouse.wheel(0, 900);
    await page.waitForTimeout(120);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'de-DE', timezoneId: 'Europe/Berlin', serviceWorkers: 'block' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  return context.newPage();
}

function berlinToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}

/** The assignment dialog of the teacher home, opened by a click on today's calendar cell. */
async function openAssignmentDialog(page: Page) {
  const cell = page.locator(`.uk-day[data-date="${berlinToday()}"]`);
  await expect(cell).toBeVisible();
  await cell.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = await cell.boundingBox();
  if (!box) throw new Error('day cell not visible');
  await page.mouse.click(box.x + box.width - 6, box.y + 8);
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: /^Aufgabe für/ })).toBeVisible();
  return dialog;
}

test.describe.configure({ timeout: 420_000 });

test('an administrator invites a teacher who signs up through the link and assigns a task; deactivation ends the session', async ({ page, browser, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize(DESKTOP);

  // 1. The administrator's home: the school, its figures, the weeks.
  await loginAs(page, ADMIN.email);
  await expect(page.getByRole('heading', { level: 1, name: SCHOOL })).toBeVisible();
  await expect(page.getByTestId('kpi-students')).toHaveText(/^\d+ von \d+$/);
  await expect(page.getByTestId('school-weeks-table').getByRole('row')).toHaveCount(9);

  // 2. Invite the teacher: validation first, then the one-time link to copy.
  await page.getByRole('link', { name: 'Lehrkräfte', exact: true }).first().click();
  await expect(page).toHaveURL(/\/school\/teachers$/);
  await page.getByRole('button', { name: 'Lehrkraft einladen' }).first().click();
  let dialog = page.getByRole('dialog', { name: 'Lehrkraft einladen' });
  await dialog.getByRole('button', { name: 'Einladung erstellen' }).click();
  await expect(dialog.getByText('Bitte geben Sie einen Namen ein.')).toBeVisible();
  await dialog.getByLabel('Name').fill(TEACHER.name);
  await dialog.getByLabel('E-Mail').fill(DEMO.teacher.email);
  await dialog.getByRole('button', { name: 'Einladung erstellen' }).click();
  // An e-mail of an existing account is refused at the field (the server's 409).
  await expect(dialog.getByLabel('E-Mail')).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByLabel('E-Mail').fill(TEACHER.email);
  await dialog.getByRole('button', { name: 'Einladung erstellen' }).click();
  dialog = page.getByRole('dialog', { name: 'Einladung erstellt' });
  const linkField = dialog.getByLabel('Einladungslink');
  await expect(linkField).toHaveValue(/\/einladung\/[A-Za-z0-9_-]{43}$/);
  const link = await linkField.inputValue();
  // the app sends to the tests' mailbox (e2e/mail-sink.ts): the same link arrives by mail
  await expect(dialog.getByTestId('invite-emailed')).toContainText(`Der Link wurde auch per E-Mail an ${TEACHER.email} gesendet.`);
  const [invitation] = await mailsTo(page.request, TEACHER.email);
  expect(invitation!.text).toContain(link);
  await dialog.getByRole('button', { name: 'Link kopieren' }).click();
  await expect(dialog.getByTestId('copy-status')).toHaveText('Der Link ist in der Zwischenablage.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await expectNoSeriousAxe(page, '[role="dialog"]');
  await shot(page, 'invite-created-de-desktop', false);
  await dialog.getByRole('button', { name: 'Fertig' }).click();
  const inviteRow = page.getByTestId('invite-row').filter({ hasText: TEACHER.email });
  await expect(inviteRow.getByTestId('invite-state')).toHaveText('Offen');

  // 3. Sign out; the teacher opens the link in this browser.
  await page.locator('aside').getByRole('button', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const path = new URL(link).pathname;
  await page.goto(path);
  await expect(page.getByRole('heading', { name: TEXT.de.invite })).toBeVisible();
  await expect(page.getByTestId('invite-school')).toHaveText(SCHOOL);
  await expect(page.getByTestId('invite-role')).toHaveText('Lehrkraft');
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await eachLanguageAndSize(page, async (lang, size) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: TEXT[lang].invite })).toBeVisible();
    await expectNoSeriousAxe(page);
    await shot(page, `invitation-${lang}-${size}`);
  });
  await setLanguage(page, 'de');
  await page.setViewportSize(DESKTOP);
  await page.goto(path);
  await page.getByLabel('Neues Passwort').fill('kurz');
  await page.getByLabel('Passwort wiederholen').fill('kurz');
  await page.getByRole('button', { name: 'Passwort festlegen und anmelden' }).click();
  await expect(page.getByText('Das Passwort muss mindestens 8 Zeichen lang sein.')).toBeVisible();
  await page.getByLabel('Neues Passwort').fill(TEACHER.password);
  await page.getByLabel('Passwort wiederholen').fill(TEACHER.password);
  await page.getByRole('button', { name: 'Passwort festlegen und anmelden' }).click();

  // 4. The teacher home, then an exercise, a student and a task through the usual screens.
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId('user-name').first()).toHaveText(TEACHER.name);
  // The link works once.
  const used = await page.request.get(`/api/invites/${path.split('/').pop()}`);
  expect(used.status()).toBe(404);

  await page.goto('/exercises');
  await page.getByRole('button', { name: 'Neue Übung' }).first().click();
  dialog = page.getByRole('dialog', { name: 'Neue Übung erstellen' });
  await dialog.getByLabel('Titel').fill(EXERCISE);
  await dialog.getByRole('button', { name: 'Übung erstellen' }).click();
  await expect(page.getByText('Übung erfolgreich erstellt')).toBeVisible();
  await expect(dialog).toBeHidden();

  await page.goto('/students');
  await page.getByRole('button', { name: 'Schüler hinzufügen' }).first().click();
  dialog = page.getByRole('dialog', { name: 'Neuen Schüler hinzufügen' });
  await dialog.getByLabel('Name').fill(STUDENT.name);
  await dialog.getByLabel('E-Mail').fill(STUDENT.email);
  await dialog.getByLabel('Passwort').fill(STUDENT.password);
  await dialog.getByRole('button', { name: 'Schüler anlegen' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('student-card').filter({ hasText: STUDENT.name })).toBeVisible();

  await page.goto('/');
  dialog = await openAssignmentDialog(page);
  await dialog.getByTestId('exercise-select').click();
  await page.getByRole('listbox').getByRole('option', { name: new RegExp(EXERCISE) }).click();
  await dialog.getByLabel(new RegExp(STUDENT.name)).check();
  await dialog.getByRole('button', { name: 'Aufgabe erstellen' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Aufgabe erfolgreich erstellt! 1 Aufgabe(n) für 1 Schüler zugewiesen.' })).toBeVisible();
  await expect(dialog).toBeHidden();

  // 5. The administrator, in another browser: the teacher, the accepted invitation, the audit log.
  const admin = await newPage(browser);
  await loginAs(admin, ADMIN.email);
  await admin.goto('/school/teachers');
  const teacherRow = admin.getByTestId('teacher-row').filter({ hasText: TEACHER.email });
  await expect(teacherRow).toContainText(TEACHER.name);
  await expect(teacherRow.getByTestId('teacher-state')).toHaveText('Aktiv');
  await expect(teacherRow.getByRole('cell').nth(1)).toHaveText(/1$/);
  await expect(admin.getByTestId('invite-row').filter({ hasText: TEACHER.email }).getByTestId('invite-state')).toHaveText('Angenommen');

  await admin.goto('/school/audit');
  const audit = admin.getByTestId('audit-row');
  await expect(audit.first()).toBeVisible();
  const accepted = audit.filter({ has: admin.getByTestId('audit-action').getByText('Einladung angenommen', { exact: true }) }).filter({ hasText: TEACHER.name });
  await expect(accepted).toHaveCount(1);
  await expect(accepted).toContainText('als Lehrkraft');
  const created = audit.filter({ has: admin.getByTestId('audit-action').getByText('Einladung erstellt', { exact: true }) }).filter({ hasText: TEACHER.name });
  await expect(created.first()).toContainText(ADMIN.name);
  await expect(audit.filter({ has: admin.getByTestId('audit-action').getByText('Hat sich angemeldet', { exact: true }) }).first()).toContainText(ADMIN.name);
  // Newest first: the acceptance comes before the invitation.
  const actions = await admin.getByTestId('audit-action').allTextContents();
  expect(actions.indexOf('Einladung angenommen')).toBeLessThan(actions.indexOf('Einladung erstellt'));

  // 6. A data request is one click on the student's row: the zip downloads.
  await admin.goto('/school/students');
  const ayse = admin.getByTestId('school-student-row').filter({ hasText: DEMO.students[0].name });
  const [download] = await Promise.all([admin.waitForEvent('download'), ayse.getByRole('button', { name: `Daten exportieren: ${DEMO.students[0].name}` }).click()]);
  expect(download.suggestedFilename()).toMatch(/^Ayşe Demir \d{4}-\d{2}-\d{2}\.zip$/);
  const zip = readFileSync((await download.path())!);
  expect(zip.subarray(0, 2).toString('latin1')).toBe('PK');
  await expect(admin.getByRole('status').filter({ hasText: 'Die Daten von Ayşe Demir wurden heruntergeladen' })).toBeVisible();
  // The search and the teacher filter reach the new student.
  await admin.getByLabel('Suchen').fill(STUDENT.name);
  await expect(admin.getByTestId('school-student-row')).toHaveCount(1);
  await expect(admin.getByTestId('school-student-row')).toContainText(TEACHER.name);
  await admin.getByLabel('Suchen').fill('');
  await admin.getByLabel('Lehrkraft', { exact: true }).selectOption({ label: TEACHER.name });
  await expect(admin.getByTestId('school-student-row')).toHaveCount(1);

  // 7. Every admin screen: axe, screenshots de/tr at 1280 and 390 (students with a dialog open).
  await eachLanguageAndSize(admin, async (lang, size) => {
    await admin.goto('/');
    await expect(admin.getByRole('heading', { level: 1, name: TEXT[lang].dashboard })).toBeVisible();
    await expect(admin.getByTestId('kpi-students')).toBeVisible();
    if (size === 'phone') await expect(admin.getByTestId('bottom-tabs')).toBeVisible();
    await scrollThrough(admin);
    await expect(admin.getByTestId('school-chart-minutes')).toBeVisible();
    await expectNoSeriousAxe(admin);
    await shot(admin, `dashboard-${lang}-${size}`);

    await admin.goto('/school/teachers');
    await expect(admin.getByRole('heading', { level: 1, name: TEXT[lang].teachers })).toBeVisible();
    await expect(admin.getByTestId('teacher-row').first()).toBeVisible();
    await expect(admin.getByTestId('invite-row').first()).toBeVisible();
    await expectNoSeriousAxe(admin);
    await shot(admin, `teachers-${lang}-${size}`);

    await admin.goto('/school/students');
    await expect(admin.getByRole('heading', { level: 1, name: TEXT[lang].students })).toBeVisible();
    await expect(admin.getByTestId('school-student-row').first()).toBeVisible();
    await expectNoSeriousAxe(admin);
    await shot(admin, `students-${lang}-${size}`);
    await admin.getByTestId('school-student-row').first().getByRole('button', { name: new RegExp(`^${TEXT[lang].move}:`) }).click();
    const move = admin.getByRole('dialog');
    await expect(move.getByRole('combobox')).toBeVisible();
    await expectNoSeriousAxe(admin, '[role="dialog"]');
    await shot(admin, `students-move-dialog-${lang}-${size}`, false);
    await admin.keyboard.press('Escape');
    await expect(move).toBeHidden();
    // A student's parents (the guardians feature's section) in a dialog: Ayşe's parent of the demo school.
    await admin.getByTestId('school-student-row').filter({ hasText: DEMO.students[0].name }).getByRole('button', { name: `${TEXT[lang].parents}: ${DEMO.students[0].name}` }).click();
    const parents = admin.getByRole('dialog');
    await expect(parents.getByTestId('guardian')).toContainText('Fatma Demir');
    await expectNoSeriousAxe(admin, '[role="dialog"]');
    await shot(admin, `students-parents-dialog-${lang}-${size}`, false);
    await admin.keyboard.press('Escape');
    await expect(parents).toBeHidden();

    await admin.goto('/school/audit');
    await expect(admin.getByRole('heading', { level: 1, name: TEXT[lang].audit })).toBeVisible();
    await expect(admin.getByTestId('audit-row').first()).toBeVisible();
    await expectNoSeriousAxe(admin);
    await shot(admin, `audit-${lang}-${size}`);
  });

  // 8. Deactivation: the teacher's session ends at once, sign-in is refused; the data stays.
  await setLanguage(admin, 'de');
  await admin.setViewportSize(DESKTOP);
  await admin.goto('/school/teachers');
  await admin.getByRole('button', { name: `Deaktivieren: ${TEACHER.name}` }).click();
  const confirm = admin.getByRole('dialog', { name: `${TEACHER.name} deaktivieren?` });
  await expect(confirm).toContainText('kann sich danach nicht mehr anmelden');
  await expect(confirm).toContainText('alle Daten bleiben erhalten');
  await expectNoSeriousAxe(admin, '[role="dialog"]');
  await shot(admin, 'teachers-deactivate-dialog-de-desktop', false);
  await confirm.getByRole('button', { name: 'Deaktivieren' }).click();
  await expect(admin.getByText(`${TEACHER.name} wurde deaktiviert.`)).toBeVisible();
  await expect(admin.getByTestId('teacher-row').filter({ hasText: TEACHER.email }).getByTestId('teacher-state')).toHaveText('Deaktiviert');

  await page.goto('/students');
  await expect(page).toHaveURL(/\/login$/);
  await page.locator('input[name="email"]').fill(TEACHER.email);
  await page.locator('input[name="password"]').fill(TEACHER.password);
  await page.locator('form button[type="submit"]').click();
  await expect(page.getByRole('alert')).toHaveText('Dieses Konto ist deaktiviert. Die Schulverwaltung hilft weiter.');

  // The student and the task stay (with the deactivated teacher), and the audit log says who did it.
  await admin.goto('/school/students');
  await admin.getByLabel('Suchen').fill(STUDENT.name);
  const kept = admin.getByTestId('school-student-row');
  await expect(kept).toHaveCount(1);
  await expect(kept).toContainText('Deaktiviert');
  await admin.goto('/school/audit');
  await expect(
    admin
      .getByTestId('audit-row')
      .filter({ has: admin.getByTestId('audit-action').getByText('Lehrkraft deaktiviert', { exact: true }) })
      .filter({ hasText: TEACHER.name })
      .first(),
  ).toContainText(ADMIN.name);
  // Erasure of the new student: a wrong name is refused; the right one erases and says what went.
  await admin.goto('/school/students');
  await admin.getByRole('button', { name: `Daten löschen: ${STUDENT.name}` }).click();
  const erase = admin.getByRole('dialog', { name: `Daten von ${STUDENT.name} löschen` });
  await expect(erase).toContainText('Das Löschen kann nicht rückgängig gemacht werden.');
  await erase.getByLabel(/Geben Sie zur Bestätigung den Namen ein/).fill('Deniz Kara');
  await erase.getByRole('button', { name: 'Endgültig löschen' }).click();
  await expect(erase.getByText(`Der Name stimmt nicht überein. Geben Sie genau „${STUDENT.name}“ ein.`)).toBeVisible();
  await expectNoSeriousAxe(admin, '[role="dialog"]');
  await shot(admin, 'students-erase-dialog-de-desktop', false);
  await erase.getByLabel(/Geben Sie zur Bestätigung den Namen ein/).fill(STUDENT.name);
  await erase.getByRole('button', { name: 'Endgültig löschen' }).click();
  const erased = admin.getByRole('dialog', { name: 'Daten gelöscht' });
  await expect(erased.getByTestId('erased-tasks')).toHaveText('1');
  await expect(erased.getByTestId('erase-backups')).toContainText('Sicherungen:');
  await shot(admin, 'students-erased-de-desktop', false);
  await erased.getByRole('button', { name: 'Schließen' }).first().click();
  await expect(admin.getByTestId('school-student-row').filter({ hasText: STUDENT.name })).toHaveCount(0);
  await admin.goto('/school/audit');
  await expect(
    admin
      .getByTestId('audit-row')
      .filter({ has: admin.getByTestId('audit-action').getByText('Schülerdaten gelöscht', { exact: true }) })
      .filter({ hasText: '(gelöscht)' }),
  ).toHaveCount(1);
  // The entry keeps who erased which account and when, not the child's name (schools-and-roles.md, "Erasure forgets names").
  await expect(admin.getByTestId('audit-row').filter({ hasText: STUDENT.name })).toHaveCount(0);

  // Reactivated: the teacher signs in again (the demo school keeps no deactivated account behind).
  await admin.goto('/school/teachers');
  await admin.getByRole('button', { name: `Wieder aktivieren: ${TEACHER.name}` }).click();
  await admin.getByRole('dialog', { name: `${TEACHER.name} wieder aktivieren?` }).getByRole('button', { name: 'Wieder aktivieren' }).click();
  await expect(admin.getByTestId('teacher-row').filter({ hasText: TEACHER.email }).getByTestId('teacher-state')).toHaveText('Aktiv');
  await loginAs(page, TEACHER.email, TEACHER.password);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
});

test('an unknown invitation link says so and leads to the sign-in page; a signed-in user is asked to sign out first', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/einladung/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('heading', { name: 'Dieser Einladungslink gilt nicht mehr' })).toBeVisible();
  await expectNoSeriousAxe(page);
  await shot(page, 'invitation-invalid-de-phone');
  await page.getByRole('link', { name: 'Zur Anmeldung' }).click();
  await expect(page).toHaveURL(/\/login$/);

  await loginAs(page, DEMO.teacher.email);
  await page.goto('/einladung/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByText(`In diesem Browser ist ${DEMO.teacher.name} angemeldet.`, { exact: false })).toBeVisible();
  await shot(page, 'invitation-signed-in-de-phone');
  await page.getByRole('button', { name: 'Abmelden und Einladung öffnen' }).click();
  await expect(page.getByRole('heading', { name: 'Dieser Einladungslink gilt nicht mehr' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});
