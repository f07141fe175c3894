import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiToken, DEMO, DEMO_PASSWORD, DESKTOP, expect, expectNoSeriousAxe, loginAs, PHONE, saveScreenshot, setLanguage, settle, test, waveformReady } from './fixtures';
import { writeSineWav } from './fake-microphone';
import { mailsTo } from './mail';

/**
 * docs/decisions/schools-and-roles.md, parents: the teacher adds a parent on the student's page and reads the one-time link;
 * the parent sets a password through it, sees the child, the task with the teacher's feedback and
 * the recording with the teacher's comment; linking an existing parent account to a second child
 * says 'Verknüpft'; the teacher removes the parent from the first child and the parent's next load
 * no longer has it; another child's page is 'not found'. axe clean; screenshots de/tr at 1280 and
 * 390 under /tmp/guardian-shots (GUARDIAN_SHOTS overrides).
 */

const SHOTS = process.env.GUARDIAN_SHOTS ?? '/tmp/guardian-shots';
const CHILD = DEMO.students[1]; // Lukas Becker
const SECOND_CHILD = DEMO.students[3]; // Jonas Schmidt
const OTHER_CHILD = DEMO.students[0]; // Ayşe Demir: not this parent's child
const PARENT = { name: 'Sabine Becker', email: 'sabine.becker@example.com', password: 'eltern-geheim-42' };
const SECOND_PARENT = { name: 'Thomas Becker', email: 'thomas.becker@example.com' };
const FEEDBACK = 'Sehr schön phrasiert – im zweiten Teil ruhiger atmen.';
const COMMENT = 'Hier klingt der Ton schön gleichmäßig.';

const TEXT = {
  de: { section: 'Eltern', home: 'Ihre Kinder', back: 'Zurück zur Übersicht', feedback: 'Rückmeldung des Lehrers' },
  tr: { section: 'Veliler', home: 'Çocuklarınız', back: 'Genel bakışa dön', feedback: 'Öğretmenin geri bildirimi' },
} as const;

/** Scrolls down and back, so that what loads near the viewport (the chart) is there for a full-page shot. */
async function scrollThrough(page: Page): Promise<void> {
  for (let i = 0; i < 8; i++) {
    await page.mouse.wheel(0, 900);
    await page.waitForTimeout(120);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** A screenshot under SHOTS: the full page, or (`fullPage` false, for open dialogs) the viewport. */
async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await settle(page);
  await page.evaluate(() => document.fonts.ready);
  await saveScreenshot(page, { path: join(SHOTS, `${name}.png`), fullPage, animations: 'disabled' });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function apiJson<T>(request: APIRequestContext, token: string, path: string): Promise<T> {
  const res = await request.get(path, { headers: bearer(token) });
  expect(res.status(), path).toBe(200);
  return (await res.json()) as T;
}

type Student = { id: number; name: string };

async function studentId(request: APIRequestContext, teacherToken: string, name: string): Promise<number> {
  const list = await apiJson<{ data: Student[] }>(request, teacherToken, '/api/students');
  const s = list.data.find((x) => x.name === name);
  if (!s) throw new Error(`no student ${name}`);
  return s.id;
}

/**
 * The teacher reviews the child's latest completed task (feedback, accuracy, level); the child sends
 * a 3-second take of it, which the teacher comments at 0:01 and answers. Returns the task's title.
 */
async function feedbackAndRecording(request: APIRequestContext, teacherToken: string, childId: number): Promise<string> {
  const done = await apiJson<Array<{ id: number; exercise_title: string; due_date: string }>>(
    request,
    teacherToken,
    `/api/submissions?student_id=${childId}&status=completed&order=due_desc`,
  );
  const task = done[0];
  if (!task) throw new Error('the demo child has no completed task');
  const review = await request.patch(`/api/submissions/${task.id}/review`, {
    headers: bearer(teacherToken),
    data: { accuracy_score: 87, competency_level: 'advanced', teacher_feedback: FEEDBACK },
  });
  expect(review.status()).toBe(200);

  const childToken = await apiToken(request, CHILD.email);
  const wav = readFileSync(writeSineWav('guardian-take', 440, 3));
  const upload = await request.post(`/api/submissions/${task.id}/recordings`, {
    headers: bearer(childToken),
    multipart: { duration_ms: '3000', message: 'Takt 12 klappt noch nicht', file: { name: 'aufnahme.wav', mimeType: 'audio/wav', buffer: wav } },
  });
  expect(upload.status()).toBe(201);
  const recording = (await upload.json()) as { id: number };
  const comment = await request.post(`/api/recordings/${recording.id}/comments`, { headers: bearer(teacherToken), data: { at_ms: 1000, text: COMMENT } });
  expect(comment.status()).toBe(201);
  expect((await request.post(`/api/recordings/${recording.id}/answer`, { headers: bearer(teacherToken) })).ok()).toBe(true);
  return task.exercise_title;
}

/** The 'Eltern' section of the teacher's student page. */
async function openParentsSection(page: Page, id: number, lang: 'de' | 'tr' = 'de') {
  await page.goto(`/students/${id}`);
  const section = page.getByRole('region', { name: TEXT[lang].section });
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByTestId('guardians-loading')).toHaveCount(0);
  return section;
}

/** Adds a parent through the dialog; returns the dialog. */
async function addParent(page: Page, section: ReturnType<Page['getByRole']>, parent: { name: string; email: string }) {
  await section.getByRole('button', { name: 'Elternteil hinzufügen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Elternteil hinzufügen' });
  await dialog.getByLabel('Name').fill(parent.name);
  await dialog.getByLabel('E-Mail-Adresse').fill(parent.email);
  await dialog.getByRole('button', { name: 'Hinzufügen' }).click();
  return page.getByRole('dialog');
}

async function newSignedInPage(browser: Browser, email: string, password = DEMO_PASSWORD): Promise<Page> {
  const context = await browser.newContext({ viewport: DESKTOP, locale: 'de-DE', timezoneId: 'Europe/Berlin', serviceWorkers: 'block' });
  const page = await context.newPage();
  await loginAs(page, email, password);
  return page;
}

test('a teacher gives a parent read-only access; the parent follows the child; removing the parent ends it at once', async ({ page, browser, context, request }) => {
  // three people, two languages and sizes: longer than the default two minutes on a busy machine
  test.setTimeout(300_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const teacherToken = await apiToken(request, DEMO.teacher.email);
  const childId = await studentId(request, teacherToken, CHILD.name);
  const secondId = await studentId(request, teacherToken, SECOND_CHILD.name);
  const otherId = await studentId(request, teacherToken, OTHER_CHILD.name);
  const taskTitle = await feedbackAndRecording(request, teacherToken, childId);

  // 1. The teacher adds the parent on the child's page and reads the one-time link.
  await page.setViewportSize(DESKTOP);
  await loginAs(page, DEMO.teacher.email);
  let section = await openParentsSection(page, childId);
  await expect(section.getByText('Noch keine Eltern verknüpft')).toBeVisible();
  // A bad e-mail is refused at the field; a teacher's e-mail answers 409 at the field.
  let dialog = await addParent(page, section, { name: 'Falsch', email: DEMO.teacher.email });
  await expect(dialog.getByLabel('E-Mail-Adresse')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText(/gehört bereits zu einem anderen Konto/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  dialog = await addParent(page, section, PARENT);
  await expect(dialog).toHaveAccessibleName('Einladungslink erstellt');
  const linkField = dialog.getByLabel('Einladungslink');
  await expect(linkField).toHaveValue(/\/einladung\/[A-Za-z0-9_-]{43}$/);
  await expect(linkField).toHaveAttribute('readonly', '');
  const inviteUrl = await linkField.inputValue();
  await expect(dialog.getByTestId('invite-emailed')).toContainText(`Der Link wurde auch per E-Mail an ${PARENT.email} gesendet.`);
  const [invitation] = await mailsTo(page.request, PARENT.email);
  expect(invitation!.text).toContain(inviteUrl);
  await dialog.getByRole('button', { name: 'Link kopieren' }).click();
  await expect(dialog.getByRole('button', { name: 'Kopiert' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(inviteUrl);
  await expectNoSeriousAxe(page, '[role="dialog"]');
  await shot(page, 'teacher-invite-link-de-1280', false);
  await page.setViewportSize(PHONE);
  await shot(page, 'teacher-invite-link-de-390', false);
  await page.setViewportSize(DESKTOP);
  await dialog.getByRole('button', { name: 'Fertig' }).click();
  await expect(section.getByTestId('guardian-invite')).toContainText(PARENT.name);
  await expect(section.getByTestId('guardian-invite')).toContainText('Einladung offen');

  // The teacher signs out.
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await page.waitForURL('**/login');

  // 2. The parent sets a password through the link and sees the child.
  await page.goto(new URL(inviteUrl).pathname);
  await expect(page.getByText(`Hallo ${PARENT.name}!`)).toBeVisible();
  await page.getByLabel('Neues Passwort').fill(PARENT.password);
  await page.getByLabel('Passwort wiederholen').fill(PARENT.password);
  await page.getByRole('button', { name: 'Passwort festlegen und anmelden' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByRole('heading', { level: 1, name: TEXT.de.home })).toBeVisible();
  const cards = page.getByTestId('guardian-child-card');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(CHILD.name);
  await expect(cards.first()).toContainText(`Lehrer: ${DEMO.teacher.name}`);
  // No practice tools, no course selector for a parent.
  await expect(page.getByRole('link', { name: 'Übungswerkzeuge' })).toHaveCount(0);
  await expect(page.getByLabel('Kurs')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Werkzeuge' })).toHaveCount(0);

  // The child's page: the task with the teacher's feedback, the recording with the comment, nothing to change.
  await cards.first().getByRole('link', { name: CHILD.name, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/children/${childId}$`));
  await expect(page.getByRole('heading', { level: 1, name: CHILD.name })).toBeVisible();
  // The past tasks beyond the latest five open on request.
  const toggle = page.getByTestId('child-tasks-toggle');
  if (await toggle.count()) {
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  }
  const task = page.getByTestId('child-task').filter({ hasText: FEEDBACK });
  await expect(task).toHaveCount(1);
  await expect(task.getByRole('heading', { level: 4 })).toHaveText(taskTitle);
  await expect(task.getByTestId('child-task-accuracy')).toHaveText('87 %');
  await expect(task.getByText('Erledigt', { exact: true })).toBeVisible();
  const recording = page.getByTestId('guardian-recording').first();
  await expect(recording).toContainText(COMMENT);
  await expect(recording.getByRole('button', { name: 'Kommentar bei 0:01' })).toBeVisible();
  await waveformReady(recording.getByTestId('waveform'), 15_000);
  await scrollThrough(page);
  await expect(page.getByTestId('practice-chart')).toBeVisible();
  await expect(page.getByRole('textbox')).toHaveCount(0);
  for (const name of ['Als erledigt markieren', 'Start', 'Aufnahme starten', 'Kommentar hinzufügen', 'Als beantwortet markieren', 'Löschen', 'Bewerten']) {
    await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }

  // Another child's page: the same 'not found' as a child that does not exist.
  for (const id of [otherId, 2147483647]) {
    await page.goto(`/children/${id}`);
    await expect(page.getByTestId('guardian-child-not-found')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Kind nicht gefunden' })).toBeVisible();
  }
  await expectNoSeriousAxe(page);

  // 3. Meanwhile the teacher links the same parent to a second child ('Verknüpft': the account exists)
  //    and invites a second parent of the first child (an open invitation in the list).
  const teacher = await newSignedInPage(browser, DEMO.teacher.email);
  section = await openParentsSection(teacher, secondId);
  dialog = await addParent(teacher, section, PARENT);
  await expect(dialog).toHaveAccessibleName('Verknüpft');
  await expect(dialog).toContainText(`${PARENT.name} hat bereits ein Elternkonto`);
  await expectNoSeriousAxe(teacher, '[role="dialog"]');
  await shot(teacher, 'teacher-linked-de-1280', false);
  await expect(dialog.getByLabel('Einladungslink')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Fertig' }).click();
  await expect(section.getByTestId('guardian')).toContainText(PARENT.email);
  section = await openParentsSection(teacher, childId);
  dialog = await addParent(teacher, section, SECOND_PARENT);
  await expect(dialog).toHaveAccessibleName('Einladungslink erstellt');
  await dialog.getByRole('button', { name: 'Fertig' }).click();
  await expect(section.getByTestId('guardian')).toContainText(PARENT.name);
  await expect(section.getByTestId('guardian-invite')).toContainText(SECOND_PARENT.name);

  // Screens in German and Turkish, wide and phone: the teacher's 'Eltern' section, the parent's home and child page.
  for (const lang of ['de', 'tr'] as const) {
    await setLanguage(teacher, lang);
    await setLanguage(page, lang);
    for (const [size, viewport] of [
      ['1280', DESKTOP],
      ['390', PHONE],
    ] as const) {
      await teacher.setViewportSize(viewport);
      const s = await openParentsSection(teacher, childId, lang);
      await expect(s.getByTestId('guardian')).toBeVisible();
      await expectNoSeriousAxe(teacher, '[data-testid="student-guardians"]');
      await saveScreenshot(s, { path: join(SHOTS, `teacher-eltern-${lang}-${size}.png`), animations: 'disabled' });
      await shot(teacher, `teacher-student-page-${lang}-${size}`);

      await page.setViewportSize(viewport);
      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1, name: TEXT[lang].home })).toBeVisible();
      await expect(page.getByTestId('guardian-child-card')).toHaveCount(2);
      await expectNoSeriousAxe(page);
      await shot(page, `guardian-home-${lang}-${size}`);

      await page.goto(`/children/${childId}`);
      await expect(page.getByRole('heading', { level: 1, name: CHILD.name })).toBeVisible();
      await expect(page.getByText(`${TEXT[lang].feedback}:`).first()).toBeVisible();
      await waveformReady(page.getByTestId('guardian-recording').first().getByTestId('waveform'), 15_000);
      await scrollThrough(page);
      await expect(page.getByTestId('practice-chart')).toBeVisible();
      await expectNoSeriousAxe(page);
      await shot(page, `guardian-child-${lang}-${size}`);
    }
  }
  await setLanguage(teacher, 'de');
  await setLanguage(page, 'de');
  await teacher.setViewportSize(DESKTOP);
  await page.setViewportSize(DESKTOP);

  // 4. The teacher removes the parent from the first child, after a confirmation.
  section = await openParentsSection(teacher, childId);
  await section.getByRole('button', { name: `${PARENT.name} entfernen` }).click();
  const confirm = teacher.getByRole('dialog', { name: 'Elternteil entfernen?' });
  await expect(confirm).toContainText(`${PARENT.name} verliert sofort den Zugriff`);
  await expectNoSeriousAxe(teacher, '[role="dialog"]');
  await confirm.getByRole('button', { name: 'Entfernen' }).click();
  await expect(teacher.getByText(`${PARENT.name} wurde entfernt.`)).toBeVisible();
  await expect(section.getByTestId('guardian')).toHaveCount(0);
  await teacher.context().close();

  // The parent's next load: the first child is gone, its page is 'not found'; the second child stays.
  await page.goto('/');
  await expect(page.getByTestId('guardian-child-card')).toHaveCount(1);
  await expect(page.getByTestId('guardian-child-card')).toContainText(SECOND_CHILD.name);
  await expect(page.getByText(CHILD.name)).toHaveCount(0);
  await page.goto(`/children/${childId}`);
  await expect(page.getByTestId('guardian-child-not-found')).toBeVisible();
  await page.getByRole('link', { name: TEXT.de.back }).click();
  await expect(page.getByTestId('guardian-child-card')).toHaveCount(1);
});

test('the demo parent sees the demo child on the phone; the teacher\'s routes refuse a parent', async ({ page, request }) => {
  await page.setViewportSize(PHONE);
  await loginAs(page, 'eltern@example.com');
  const card = page.getByTestId('guardian-child-card');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText(OTHER_CHILD.name);
  await card.getByRole('link', { name: OTHER_CHILD.name, exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: OTHER_CHILD.name })).toBeVisible();
  await expect(page.getByTestId('child-task').first()).toBeVisible();
  await expectNoSeriousAxe(page);

  // The guardian's calls are read-only: the teacher's routes answer 403.
  const token = await apiToken(request, 'eltern@example.com');
  const teacherRoute = await request.get('/api/students', { headers: bearer(token) });
  expect(teacherRoute.status()).toBe(403);
});
