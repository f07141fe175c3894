import { readFileSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { apiToken, DEMO, expect, expectNoSeriousAxe, loginAs, PHONE, setLanguage, shot, test, waveformReady } from './fixtures';
import { writeSineWav } from './fake-microphone';

/**
 * Messages (docs/decisions/messages.md) in the browser, on the demo school's conversation of Ayşe
 * Demir (server/db/seed.ts: a pinned lesson note, the parent's question and the teacher's answer,
 * Ayşe's message with a task link waiting for the teacher). The teacher sees the unread badge,
 * finds Ayşe first, answers and pins a new lesson note; Ayşe reads a teacher's message, opens its
 * task and writes back by keyboard alone; the parent writes and cannot open another child's
 * conversation; 'Nachricht zu dieser Stelle' on a take links the moment; a too-long message is
 * refused under the field with its text kept. axe clean, no sideways scroll at 390 px, screenshots
 * under e2e/screenshots/messages (German and Turkish, 1440 and 390 px).
 *
 * Each test sets up what it reads besides the seed (a teacher's message through the API, a
 * student of its own for the take), so that none leans on another's writes; only the teacher's
 * test asserts the seed's unread count, and nothing before it in the run writes to Ayşe's
 * conversation.
 */

const WIDE = { width: 1440, height: 900 } as const;
const AYSE = DEMO.students[0];
const LUKAS = DEMO.students[1];
const PARENT = { email: 'eltern@example.com', name: 'Fatma Demir' }; // DEMO_GUARDIAN, Ayşe's parent
const STAMP = Date.now();

type Msg = { id: number; body: string; kind: string; link: { task_id: number; title: string } | null; author: { role: string } | null };

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** The demo teacher's conversations (reading them marks nothing read). */
async function conversations(request: APIRequestContext, token: string): Promise<Array<{ student_id: number; student_name: string; unread: number }>> {
  const res = await request.get('/api/conversations', { headers: bearer(token) });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: Array<{ student_id: number; student_name: string; unread: number }> }).data;
}

async function studentIdOf(request: APIRequestContext, teacherToken: string, name: string): Promise<number> {
  const found = (await conversations(request, teacherToken)).find((c) => c.student_name === name);
  if (!found) throw new Error(`no conversation of ${name}`);
  return found.student_id;
}

/** The newest page of a conversation, as the teacher's API sees it. */
async function messagesOf(request: APIRequestContext, token: string, studentId: number): Promise<Msg[]> {
  const res = await request.get(`/api/conversations/${studentId}/messages`, { headers: bearer(token) });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { data: Msg[] }).data;
}

/** The page does not scroll sideways (at 390 px). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${page.url()} scrolls sideways`).toBeLessThanOrEqual(await page.evaluate(() => document.documentElement.clientWidth));
}

/**
 * A screenshot under e2e/screenshots/messages: the toasts closed (they would cover the heading)
 * and scrolled to the top, so that the fixed top bar and tabs sit where they belong in a full-page
 * capture. `firstScreen`: only what the viewport shows.
 */
async function snap(page: Page, name: string, firstScreen = false): Promise<void> {
  const toasts = page.getByRole('button', { name: /^(Benachrichtigung schließen|Bildirimi kapat)$/ });
  for (let n = await toasts.count(); n > 0; n--) await toasts.first().click();
  await expect(toasts).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'messages', name, { fullPage: !firstScreen });
}

/** One message of the conversation, by a piece of its text. */
const message = (page: Page, text: string | RegExp): Locator => page.getByTestId('message-list').getByTestId('message').filter({ hasText: text });

/** The conversation's first page has been drawn (the skeleton gone). */
async function conversationReady(page: Page): Promise<void> {
  await expect(page.getByTestId('conversation')).toBeVisible();
  await expect(page.getByTestId('conversation-loading')).toHaveCount(0);
}

test('the teacher sees the unread badge, finds Ayşe first, answers, and writes and pins a lesson note', async ({ page, request }) => {
  const teacherToken = await apiToken(request, DEMO.teacher.email);
  const ayseId = await studentIdOf(request, teacherToken, AYSE.name);
  const seeded = await messagesOf(request, teacherToken, ayseId);
  const question = seeded.find((m) => m.author?.role === 'student');
  if (!question?.link) throw new Error('the seed’s student message has no task link');

  await page.setViewportSize(WIDE);
  await loginAs(page, DEMO.teacher.email);
  const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
  // (Chromium computes the name with a space before the badge's hidden ', 1 ungelesen')
  const link = nav.getByRole('link', { name: /^Nachrichten ?, 1 ungelesen$/ });
  await expect(link).toBeVisible();
  await expect(link.getByTestId('messages-badge')).toHaveText('1, 1 ungelesen');
  await link.click();

  await expect(page).toHaveURL(/\/nachrichten$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Nachrichten' })).toBeVisible();
  const first = page.getByTestId('conversation-item').first();
  await expect(first).toContainText(AYSE.name);
  await expect(first.getByTestId('conversation-unread')).toHaveText('1, 1 ungelesen');
  await expect(first.getByTestId('conversation-waiting')).toHaveText(/^wartet seit \d+ Stunden?$/);
  await expect(first.getByTestId('conversation-preview')).toContainText('Takt 7 klingt noch schief');
  // on a wide screen the list leaves room for the conversation, which asks to be chosen
  await expect(page.getByRole('heading', { name: 'Gespräch auswählen' })).toBeVisible();
  await expectNoSeriousAxe(page);
  await snap(page, 'teacher-list-de-wide');

  await first.click();
  await expect(page).toHaveURL(new RegExp(`/nachrichten/${ayseId}$`));
  await conversationReady(page);
  await expect(page.getByTestId('conversation-name')).toHaveText(AYSE.name);
  // the pinned lesson note heads the conversation, above the messages
  const pinned = page.getByTestId('pinned');
  await expect(pinned.getByRole('heading', { name: 'Angeheftet' })).toBeVisible();
  await expect(pinned).toContainText('Heute am Rast-Taksim gearbeitet');
  const pinnedBox = await pinned.boundingBox();
  const listBox = await page.getByTestId('message-list').boundingBox();
  expect(pinnedBox && listBox && pinnedBox.y + pinnedBox.height <= listBox.y + 1, 'the pinned notes above the messages').toBe(true);
  // the parent's question and the answer, then 'Neu' and Ayşe's message with its task
  await expect(message(page, 'soll sie die Etüde mit oder ohne Metronom')).toContainText('Eltern');
  await expect(page.getByTestId('new-divider')).toHaveText('Neu');
  const waiting = message(page, 'Takt 7 klingt noch schief');
  const chip = waiting.getByTestId('message-link');
  await expect(chip).toHaveText(question.link.title);
  await expect(chip).toHaveAttribute('href', `/submissions/${question.link.task_id}`);
  // opening it read it: the badge is gone
  await expect(nav.getByRole('link', { name: 'Nachrichten', exact: true })).toBeVisible();
  await expect(page.getByTestId('messages-badge')).toHaveCount(0);

  const answer = `Ich höre es mir heute Abend an – spiel Takt 7 bis dahin langsam. (${STAMP})`;
  const composer = page.getByTestId('composer');
  await composer.getByRole('textbox', { name: 'Nachricht schreiben' }).fill(answer);
  await composer.getByRole('button', { name: 'Senden' }).click();
  const sent = message(page, answer);
  await expect(sent).toBeVisible();
  await expect(sent.getByTestId('message-author')).toHaveText('Sie');
  await expect(composer.getByRole('textbox', { name: 'Nachricht schreiben' })).toHaveValue('');
  await expect(page.getByTestId('messages-badge')).toHaveCount(0);
  await expect(page.getByTestId('conversation-item').filter({ hasText: AYSE.name }).getByTestId('conversation-unread')).toHaveCount(0);
  await expectNoSeriousAxe(page);

  // a lesson note, pinned beside the first
  const note = `Unterricht am ${STAMP}: Hicaz-Dörtlü langsam, Çargah nicht zu hoch.`;
  await composer.locator('label').filter({ hasText: 'Unterrichtsnotiz' }).click();
  await expect(composer.getByRole('radio', { name: 'Unterrichtsnotiz' })).toBeChecked();
  await composer.getByRole('textbox', { name: 'Unterrichtsnotiz schreiben' }).fill(note);
  await composer.getByRole('button', { name: 'Senden' }).click();
  const written = message(page, note);
  await expect(written.getByTestId('lesson-note-mark')).toHaveText('Unterrichtsnotiz');
  // back to a plain message for the next one
  await expect(composer.getByRole('radio', { name: 'Nachricht' })).toBeChecked();
  await written.getByRole('button', { name: 'Anheften' }).click();
  await expect(page.getByText('Die Unterrichtsnotiz ist angeheftet.')).toBeVisible();
  await expect(pinned.getByTestId('message')).toHaveCount(2);
  await expect(pinned.getByTestId('message').first()).toContainText(note);
  await expect(written.getByRole('button', { name: 'Lösen' })).toBeVisible();
  await snap(page, 'teacher-conversation-de-wide');

  // Turkish, wide and on the phone (where 'Nachrichten' is in the menu)
  await setLanguage(page, 'tr');
  await conversationReady(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Mesajlar' })).toBeVisible();
  await expect(page.getByTestId('pinned').getByRole('heading', { name: 'Sabitlenmiş notlar' })).toBeVisible();
  await snap(page, 'teacher-conversation-tr-wide');
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('messages-back')).toHaveText('Tüm konuşmalar');
  await expect(page.getByTestId('conversation-list')).toBeHidden();
  await expectNoSidewaysScroll(page);
  await expectNoSeriousAxe(page);
  await snap(page, 'teacher-conversation-tr-phone');
  await page.getByTestId('messages-back').click();
  await expect(page).toHaveURL(/\/nachrichten$/);
  await expect(page.getByTestId('conversation-list')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Konuşma seç' })).toBeHidden();
  await expectNoSidewaysScroll(page);
  await expectNoSeriousAxe(page);
  await snap(page, 'teacher-list-tr-phone');

  await setLanguage(page, 'de');
  await expect(page.getByTestId('conversation-list')).toBeVisible();
  await expectNoSidewaysScroll(page);
  await snap(page, 'teacher-list-de-phone');
  await page.getByTestId('conversation-item').filter({ hasText: AYSE.name }).click();
  await conversationReady(page);
  await expectNoSidewaysScroll(page);
  await expectNoSeriousAxe(page);
  await snap(page, 'teacher-conversation-de-phone');
  await snap(page, 'teacher-conversation-de-phone-first-screen', true);
});

test('Ayşe reads the teacher’s message, its chip opens the task, and she writes back by keyboard alone', async ({ page, request }) => {
  const teacherToken = await apiToken(request, DEMO.teacher.email);
  const ayseId = await studentIdOf(request, teacherToken, AYSE.name);
  const taskId = (await messagesOf(request, teacherToken, ayseId)).find((m) => m.author?.role === 'student' && m.link)?.link?.task_id;
  if (!taskId) throw new Error('the seed’s student message has no task link');
  // the teacher's message, linked to Ayşe's task, that she has not read yet
  const teacherSays = `Schön geübt! Hör dir die Stelle ab Takt 5 noch einmal an. (${STAMP})`;
  const posted = await request.post(`/api/conversations/${ayseId}/messages`, { headers: bearer(teacherToken), data: { body: teacherSays, kind: 'message', link: { task_id: taskId, recording_id: null, at_ms: null } } });
  expect(posted.status(), await posted.text()).toBe(201);

  await page.setViewportSize(PHONE);
  await loginAs(page, AYSE.email);
  const tabs = page.getByTestId('bottom-tabs');
  const tab = tabs.getByRole('link', { name: /^Nachrichten ?, \d+ ungelesen$/ });
  await expect(tab).toBeVisible();
  await expect(tab.getByTestId('messages-tab-badge')).toHaveText(/^\d+$/);
  await snap(page, 'student-home-badge-de-phone', true);
  await tab.click();
  // one conversation: straight to it
  await expect(page).toHaveURL(new RegExp(`/nachrichten/${ayseId}$`));
  await conversationReady(page);
  // her own view: no name above it, the teacher's answer to the parent and the new message
  await expect(page.getByTestId('conversation-name')).toHaveCount(0);
  await expect(message(page, 'Zuerst ohne, ab Mittwoch mit dem Metronom auf 60.')).toContainText('Lehrkraft');
  await expect(message(page, 'Takt 7 klingt noch schief').getByTestId('message-author')).toHaveText('Du');
  const fromTeacher = message(page, teacherSays);
  await expect(fromTeacher.getByTestId('message-author')).toHaveText(DEMO.teacher.name);
  await expect(page.getByTestId('new-divider')).toBeVisible();
  // reading it read them: the tab's badge is gone
  await expect(tabs.getByRole('link', { name: 'Nachrichten', exact: true })).toBeVisible();
  await expect(tabs.getByTestId('messages-tab-badge')).toHaveCount(0);
  await expect(page.getByTestId('composer').getByRole('radio')).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await expectNoSeriousAxe(page);
  await snap(page, 'student-conversation-de-phone');

  // the chip opens the task; from there 'Nachricht an die Lehrkraft' links it to the next message
  await fromTeacher.getByTestId('message-link').click();
  await expect(page).toHaveURL(new RegExp(`/submissions/${taskId}$`));
  await page.getByTestId('message-teacher').click();
  await expect(page).toHaveURL(new RegExp(`/nachrichten/${ayseId}\\?task=${taskId}$`));
  await conversationReady(page);
  const attached = page.getByTestId('composer-link');
  await expect(attached).toContainText('Verknüpft:');
  await expect(attached).not.toContainText('Verknüpft:Aufgabe'); // the task's title, once known

  // by keyboard alone: Tab to the field, type, Ctrl+Enter
  const field = page.getByRole('textbox', { name: 'Nachricht schreiben' });
  await page.locator('body').focus();
  let presses = 0;
  while (!(await field.evaluate((el) => el === document.activeElement)) && presses < 60) {
    await page.keyboard.press('Tab');
    presses++;
  }
  await expect(field).toBeFocused();
  const reply = `Danke, mache ich morgen früh! (${STAMP})`;
  await page.keyboard.type(reply);
  await page.keyboard.press('Control+Enter');
  const mine = message(page, reply);
  await expect(mine).toBeVisible();
  await expect(mine.getByTestId('message-link')).toHaveAttribute('href', `/submissions/${taskId}`);
  await expect(field).toHaveValue('');
  await expect(field).toBeFocused();
  // the link was sent with it: the address and the chip are clear again
  await expect(page).toHaveURL(new RegExp(`/nachrichten/${ayseId}$`));
  await expect(page.getByTestId('composer-link')).toHaveCount(0);

  await setLanguage(page, 'tr');
  await conversationReady(page);
  await expect(message(page, reply).getByTestId('message-author')).toHaveText('Sen');
  await expect(tabs.getByRole('link', { name: 'Mesajlar' })).toHaveAttribute('aria-current', 'page');
  await expectNoSidewaysScroll(page);
  await expectNoSeriousAxe(page);
  await snap(page, 'student-conversation-tr-phone');
});

test('the parent writes in the child’s conversation; a too-long message is refused with its text kept; another child’s is not found', async ({ page, request }) => {
  const teacherToken = await apiToken(request, DEMO.teacher.email);
  const ayseId = await studentIdOf(request, teacherToken, AYSE.name);
  const lukasId = await studentIdOf(request, teacherToken, LUKAS.name);

  await page.setViewportSize(PHONE);
  await loginAs(page, PARENT.email);
  // one child: 'Nachrichten' is a tab, and the conversation opens straight away
  await page.getByTestId('bottom-tabs').getByRole('link', { name: /^Nachrichten/ }).click();
  await expect(page).toHaveURL(new RegExp(`/nachrichten/${ayseId}$`));
  await conversationReady(page);
  await expect(page.getByTestId('conversation-name')).toHaveText(AYSE.name);
  await expect(page.getByTestId('messages-back')).toHaveCount(0);
  await expect(message(page, 'soll sie die Etüde mit oder ohne Metronom').getByTestId('message-author')).toHaveText('Sie');
  await expect(page.getByTestId('pinned')).toContainText('Heute am Rast-Taksim gearbeitet');
  // a parent neither pins nor writes lesson notes
  await expect(page.getByRole('button', { name: /Anheften|Lösen/ })).toHaveCount(0);
  await expect(page.getByTestId('composer').getByRole('radio')).toHaveCount(0);

  // 2001 characters: refused under the field, nothing sent, the text kept
  const field = page.getByRole('textbox', { name: 'Nachricht schreiben' });
  const long = 'Sehr lang. '.repeat(182).slice(0, 2001);
  expect(long).toHaveLength(2001);
  let posts = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/api\/conversations\/\d+\/messages/.test(r.url())) posts++;
  });
  await field.fill(long);
  await expect(page.getByTestId('composer-count')).toHaveText('2001 / 2000 Zeichen');
  await page.getByTestId('composer').getByRole('button', { name: 'Senden' }).click();
  await expect(field).toHaveAccessibleDescription(/Eine Nachricht darf höchstens 2000 Zeichen lang sein\./);
  await expect(page.getByText('Eine Nachricht darf höchstens 2000 Zeichen lang sein.')).toBeVisible();
  await expect(field).toHaveValue(long);
  await expect(field).toBeFocused();
  expect(posts).toBe(0);
  await expectNoSidewaysScroll(page);
  await snap(page, 'parent-too-long-de-phone');
  // the server says the same to a client that does not check
  const parentToken = await apiToken(request, PARENT.email);
  const refused = await request.post(`/api/conversations/${ayseId}/messages`, { headers: bearer(parentToken), data: { body: long, kind: 'message', link: null } });
  expect(refused.status()).toBe(422);
  expect(await refused.text()).toContain('Eine Nachricht darf höchstens 2000 Zeichen lang sein.');

  const text = `Danke! Sie übt jetzt jeden Abend nach dem Essen. (${STAMP})`;
  await field.fill(text);
  await page.getByTestId('composer').getByRole('button', { name: 'Senden' }).click();
  await expect(message(page, text).getByTestId('message-author')).toHaveText('Sie');
  await expect(field).toHaveValue('');
  await expect(page.getByText('Eine Nachricht darf höchstens 2000 Zeichen lang sein.')).toHaveCount(0);
  await expectNoSidewaysScroll(page);
  await expectNoSeriousAxe(page);
  await snap(page, 'parent-conversation-de-phone');

  await setLanguage(page, 'tr');
  await conversationReady(page);
  await expect(message(page, text).getByTestId('message-author')).toHaveText('Siz');
  await expect(message(page, 'Zuerst ohne, ab Mittwoch').getByTestId('message-role')).toHaveText('Öğretmen');
  await expectNoSidewaysScroll(page);
  await expectNoSeriousAxe(page);
  await snap(page, 'parent-conversation-tr-phone');

  // Lukas is not this parent's child: the conversation is not there, and no composer
  await page.goto(`/nachrichten/${lukasId}`);
  await expect(page.getByRole('alert')).toContainText('Bu konuşma yok veya erişime açık değil.');
  await expect(page.getByTestId('composer')).toHaveCount(0);
  await setLanguage(page, 'de');
  await expect(page.getByRole('alert')).toContainText('Dieses Gespräch gibt es nicht, oder es ist nicht freigegeben.');
  await expect(page.getByText(LUKAS.name)).toHaveCount(0);
  await expectNoSeriousAxe(page);
  await snap(page, 'parent-not-found-de-phone');
  const api = await request.get(`/api/conversations/${lukasId}/messages`, { headers: bearer(parentToken) });
  expect(api.status()).toBe(404);
});

test('“Nachricht zu dieser Stelle” on a take opens the conversation with the take linked at the player’s moment', async ({ page, request }) => {
  // a student of this test's own, in a course of its own, with one take of 8 s
  const teacherToken = await apiToken(request, DEMO.teacher.email);
  const teacher = bearer(teacherToken);
  const course = await request.post('/api/courses', { headers: teacher, data: { name: `Nachrichten ${STAMP}` } });
  expect(course.status(), await course.text()).toBe(201);
  const courseId = ((await course.json()) as { id: number }).id;
  const student = { name: 'Ida Nachricht', email: `nachricht-${STAMP}@example.com`, password: 'nachricht-1234' };
  const made = await request.post('/api/students', { headers: teacher, data: { ...student, course_ids: [courseId] } });
  expect(made.status(), await made.text()).toBe(201);
  const studentId = ((await made.json()) as { id: number }).id;
  const title = `Peşrev-Motiv ${STAMP % 1000}`;
  const exercise = await request.post('/api/exercises', {
    headers: teacher,
    multipart: { title, description: 'Vier Takte nach Gehör.', category: 'hoer_nachspiel', difficulty: 'leicht', estimated_minutes: '10', 'course_ids[0]': String(courseId) },
  });
  expect(exercise.status(), await exercise.text()).toBe(201);
  const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());
  const assigned = await request.post('/api/submissions', {
    headers: teacher,
    data: { exercise_id: ((await exercise.json()) as { id: number }).id, due_date: today, course_id: courseId, assignees: { users: [studentId] } },
  });
  expect(assigned.status(), await assigned.text()).toBe(201);
  const taskId = ((await assigned.json()) as { submissions: Array<{ id: number }> }).submissions[0]!.id;
  const upload = await request.post(`/api/submissions/${taskId}/recordings`, {
    headers: bearer(await apiToken(request, student.email, student.password)),
    multipart: { duration_ms: '8000', message: 'Takt 3 wackelt', file: { name: 'take.wav', mimeType: 'audio/wav', buffer: readFileSync(writeSineWav('message-take', 330, 8)) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const takeId = ((await upload.json()) as { id: number }).id;

  await page.setViewportSize(WIDE);
  await loginAs(page, DEMO.teacher.email);
  await page.goto(`/submissions/${taskId}`);
  const card = page.getByTestId('recording');
  await waveformReady(card.getByTestId('waveform'), 30_000);
  // paused at 0:05: the player focused, → seeks 5 s
  await card.getByRole('group', { name: 'Player' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(card.getByTestId('player-time')).toHaveText(/^0:05/);
  await expect(card.getByTestId('player-toggle')).toHaveAccessibleName('Abspielen');
  const about = card.getByTestId('message-about-take');
  await expect(about).toHaveText('Nachricht zu dieser Stelle');
  await about.click();
  await expect(page).toHaveURL(new RegExp(`/nachrichten/${studentId}\\?task=${taskId}&take=${takeId}&t=5000$`));
  await conversationReady(page);
  await expect(page.getByTestId('conversation-name')).toHaveText(student.name);
  await expect(page.getByTestId('composer-link')).toHaveText(`Verknüpft:${title} · 0:05`);
  await expect(page.getByTestId('conversation-empty')).toBeVisible();
  await expectNoSeriousAxe(page);
  await snap(page, 'teacher-take-link-de-wide');

  const text = 'Hier, ab 0:05: der Ton sinkt am Ende ab. Mehr Luft!';
  await page.getByRole('textbox', { name: 'Nachricht schreiben' }).fill(text);
  await page.getByTestId('composer').getByRole('button', { name: 'Senden' }).click();
  const sent = message(page, text);
  await expect(sent.getByTestId('message-link')).toHaveText(`${title} · Aufnahme bei 0:05`);
  await expect(sent.getByTestId('message-link')).toHaveAttribute('href', `/submissions/${taskId}?take=${takeId}&t=5000`);
  await expect(page.getByTestId('composer-link')).toHaveCount(0);
  // the chip leads back to the take at that moment
  await sent.getByTestId('message-link').click();
  await expect(page).toHaveURL(new RegExp(`/submissions/${taskId}\\?take=${takeId}&t=5000$`));
  await expect(page.getByTestId('recording')).toHaveAttribute('data-recording-id', String(takeId));
});
