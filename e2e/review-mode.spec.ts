import { readFileSync } from 'node:fs';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { DEMO, PHONE, expect, expectNoSeriousAxe, setLanguage, shot, test, waveformReady } from './fixtures';
import { writeSineWav } from './fake-microphone';

/**
 * The teacher's review mode ('Zu prüfen', docs/decisions/recordings.md): ten takes of a course of
 * their own, gone through by keyboard on the desktop and by taps on the phone. The measure: the
 * next take answered with a comment at a moment in at most 4 key presses or taps besides the
 * comment's text, no Tab, and the take after it ready (its student, task and message in view, the
 * player focused).
 */

const STAMP = Date.now();
const TAKE_S = 8;
const WAV = readFileSync(writeSineWav('review-take', 330, TAKE_S));
const WIDE = { width: 1440, height: 900 } as const;
const PASSWORD = 'vorspiel-1234';
const STUDENTS = [
  { name: 'Nora Sommer', email: `review-nora-${STAMP}@example.com` },
  { name: 'Emil Hartmann', email: `review-emil-${STAMP}@example.com` },
] as const;
const TITLE = `Etüde Nr. ${STAMP % 1000}`;

/** Decoding an 8-second take on a loaded machine: waited for, longer than the default. */
const loaded = (scope: Locator | Page) => waveformReady(scope.getByTestId('waveform'), 30_000);

type Take = { id: number; student: string; message: string };

const berlinToday = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());

async function bearer(request: APIRequestContext, email: string, password: string): Promise<{ Authorization: string }> {
  const res = await request.post('/api/login', { data: { email, password } });
  expect(res.status()).toBe(200);
  return { Authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

/** A course of the demo teacher with two students and a task each; ten takes, alternating, oldest first. */
async function seedTenTakes(request: APIRequestContext): Promise<{ courseId: number; takes: Take[] }> {
  const teacher = await bearer(request, DEMO.teacher.email, 'demo1234');
  const course = await request.post('/api/courses', { headers: teacher, data: { name: `Vorspiel ${STAMP}` } });
  expect(course.status(), await course.text()).toBe(201);
  const courseId = ((await course.json()) as { id: number }).id;
  const ids: number[] = [];
  for (const s of STUDENTS) {
    const made = await request.post('/api/students', { headers: teacher, data: { name: s.name, email: s.email, password: PASSWORD, course_ids: [courseId] } });
    expect(made.status(), await made.text()).toBe(201);
    ids.push(((await made.json()) as { id: number }).id);
  }
  const exercise = await request.post('/api/exercises', {
    headers: teacher,
    multipart: { title: TITLE, description: 'Langsam, dann im Tempo.', category: 'tonbildung', difficulty: 'leicht', estimated_minutes: '10', 'course_ids[0]': String(courseId) },
  });
  expect(exercise.status(), await exercise.text()).toBe(201);
  const assigned = await request.post('/api/submissions', {
    headers: teacher,
    data: { exercise_id: ((await exercise.json()) as { id: number }).id, due_date: berlinToday(), course_id: courseId, assignees: { users: ids } },
  });
  expect(assigned.status(), await assigned.text()).toBe(201);
  const tasks = ((await assigned.json()) as { submissions: Array<{ id: number; student: { id: number } }> }).submissions;
  const takes: Take[] = [];
  for (let i = 0; i < 10; i++) {
    const who = i % 2;
    const student = STUDENTS[who]!;
    const task = tasks.find((t) => t.student.id === ids[who]);
    if (!task) throw new Error('no task for the student');
    const message = `Durchlauf ${i + 1}: Takt ${i + 3} wackelt noch`;
    const upload = await request.post(`/api/submissions/${task.id}/recordings`, {
      headers: await bearer(request, student.email, PASSWORD),
      multipart: { duration_ms: String(TAKE_S * 1000), message, file: { name: `durchlauf-${i + 1}.wav`, mimeType: 'audio/wav', buffer: WAV } },
    });
    expect(upload.status(), await upload.text()).toBe(201);
    takes.push({ id: ((await upload.json()) as { id: number }).id, student: student.name, message });
  }
  return { courseId, takes };
}

/** Every keydown the page sees, from now on (the comment's letters as well). */
async function logKeys(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { reviewKeys: string[] };
    w.reviewKeys = [];
    document.addEventListener('keydown', (e) => w.reviewKeys.push(e.key), true);
  });
}
const keysSoFar = (page: Page) => page.evaluate(() => (window as unknown as { reviewKeys: string[] }).reviewKeys.slice());

/** The take open and ready: its student, task and message in view, the player focused and loaded. */
async function expectReady(page: Page, scope: Locator, take: Take): Promise<void> {
  const card = scope.getByTestId('recording');
  await expect(card).toHaveAttribute('data-recording-id', String(take.id));
  await expect(card.getByRole('heading', { name: new RegExp(`${take.student} · ${TITLE}`) })).toBeInViewport();
  await expect(card.getByText(take.message)).toBeInViewport();
  await expect(card.getByRole('group', { name: 'Player' })).toBeFocused();
  await loaded(card);
  await expect(scope.getByTestId('take-announcement')).toContainText(`${take.student} · ${TITLE}`);
}

test('ten takes: answered by keyboard on the desktop and by taps full screen on the phone, with a comment at a moment each', async ({ page, request }) => {
  test.setTimeout(900_000);
  const { courseId, takes } = await seedTenTakes(request);
  await page.setViewportSize(WIDE);
  // Signed in with the API's token (the sign-in form is another spec's subject), the course chosen.
  const token = (await bearer(request, DEMO.teacher.email, 'demo1234')).Authorization.slice('Bearer '.length);
  await page.goto('/login');
  await page.evaluate(([t, id]) => {
    localStorage.setItem('token', t);
    localStorage.setItem('selectedCourseId', id);
  }, [token, String(courseId)] as const);

  // The screen in both languages and sizes, the take on the phone full screen.
  for (const lang of ['de', 'tr'] as const) {
    await setLanguage(page, lang);
    await page.goto('/review');
    await page.setViewportSize(WIDE);
    await expect(page.getByTestId('inbox-item')).toHaveCount(10);
    await loaded(page);
    await expect(page.getByTestId('key-legend').getByRole('heading', { name: lang === 'de' ? 'Tastenkürzel' : 'Klavye kısayolları' })).toBeVisible();
    await shot(page, 'review-mode', `desktop-${lang}`, { fullPage: false });
    await page.setViewportSize(PHONE);
    await expect(page.getByTestId('key-legend')).toHaveCount(0);
    await shot(page, 'review-mode', `phone-list-${lang}`);
    await page.getByTestId('inbox-item').first().click();
    await loaded(page.getByTestId('take-view'));
    await shot(page, 'review-mode', `phone-take-${lang}`, { fullPage: false });
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('take-view')).toHaveCount(0);
  }
  await setLanguage(page, 'de');
  await page.goto('/review');
  await page.setViewportSize(WIDE);
  const list = page.getByTestId('inbox-item');
  await expect(list).toHaveCount(10);
  await expect(page.getByTestId('recording')).toHaveAttribute('data-recording-id', String(takes[0]!.id));
  await expectNoSeriousAxe(page);
  await logKeys(page);

  // J and K from anywhere (nothing is focused yet): the take after and back, the player focused.
  await page.keyboard.press('j');
  await expectReady(page, page.locator('main'), takes[1]!);
  await page.keyboard.press('k');
  await expectReady(page, page.locator('main'), takes[0]!);

  // C and Escape: the comment is dropped and the focus is back on the player.
  const first = page.getByTestId('recording');
  await page.keyboard.press('c');
  await expect(first.getByRole('textbox', { name: 'Kommentar' })).toBeFocused();
  await page.keyboard.type('weg damit');
  await page.keyboard.press('Escape');
  await expect(first.getByRole('group', { name: 'Player' })).toBeFocused();
  await expect(first.getByRole('textbox', { name: 'Kommentar' })).toHaveValue('');

  // Eight takes by keyboard: → to 0:05, C, the text (with j, k and spaces: they do not reach the
  // screen while typing), Enter saves, Enter answers; the next one is ready.
  for (let i = 0; i < 8; i++) {
    const take = takes[i]!;
    const card = page.getByTestId('recording');
    await expect(card).toHaveAttribute('data-recording-id', String(take.id));
    await loaded(card);
    const text = `Hier jeweils kurz atmen (${i + 1})`;
    const before = (await keysSoFar(page)).length;
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('c');
    await expect(card.getByRole('textbox', { name: 'Kommentar' })).toBeFocused();
    await expect(card.getByTestId('comment-moment')).toHaveText('Kommentar bei 0:05');
    await page.keyboard.type(text);
    await page.keyboard.press('Enter');
    await expect(card.getByTestId('comment-list')).toContainText(text);
    await expect(card.getByTestId('comment-list')).toContainText('Kommentar bei 0:05');
    await expect(card.getByRole('group', { name: 'Player' })).toBeFocused();
    if (i === 0) await shot(page, 'review-mode', 'desktop-commented-de', { fullPage: false });
    await page.keyboard.press('Enter');
    await expectReady(page, page.locator('main'), takes[i + 1]!);
    const pressed = (await keysSoFar(page)).slice(before);
    expect(pressed).toEqual(['ArrowRight', 'c', ...text, 'Enter', 'Enter']);
    expect(pressed.length - text.length, 'key presses besides the text').toBeLessThanOrEqual(4);
  }
  expect(await keysSoFar(page)).not.toContain('Tab');
  await expect(list).toHaveCount(2);

  // The player stays at the top while the page scrolls down to the review.
  await page.mouse.wheel(0, 1200);
  await expect(page.getByTestId('pinned-player')).toBeInViewport();
  await expect(page.getByTestId('pinned-player')).toHaveCSS('position', 'sticky');

  // A dialog open (deleting a comment): the screen's keys wait.
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('c');
  await page.keyboard.type('Gleich wieder weg');
  await page.keyboard.press('Enter');
  const open = page.getByTestId('recording');
  await open.getByRole('button', { name: /Löschen: Kommentar bei 0:05/ }).click();
  await expect(page.getByRole('alertdialog').or(page.getByRole('dialog'))).toBeVisible();
  await page.keyboard.press('j');
  await page.keyboard.press('c');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('alertdialog').or(page.getByRole('dialog'))).toHaveCount(0);
  await expect(open).toHaveAttribute('data-recording-id', String(takes[8]!.id));
  await expect(open).toContainText('Zu prüfen');

  // The phone: a tapped take opens full screen; Escape and the browser's Back close it, the
  // focus back on the take in the list.
  await page.setViewportSize(PHONE);
  const row = list.first();
  await row.click();
  const view = page.getByTestId('take-view');
  await expect(view).toBeVisible();
  await expectReady(page, view, takes[8]!);
  await expect(view.getByTestId('pinned-player')).toBeInViewport();
  await expectNoSeriousAxe(page);
  await page.keyboard.press('Escape');
  await expect(view).toHaveCount(0);
  await expect(row).toBeFocused();
  await row.click();
  await expect(view).toBeVisible();
  await page.goBack();
  await expect(view).toHaveCount(0);
  await expect(page).toHaveURL(/\/review$/);
  await expect(row).toBeFocused();
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(sideways, 'no sideways scroll at 390 px').toBeLessThanOrEqual(0);

  // By taps: open, the waveform at ~0:05, the text, save, answered; then the last take the same.
  let taps = 0;
  const tap = async (target: Locator, position?: { x: number; y: number }) => {
    await target.click(position ? { position } : undefined);
    taps++;
  };
  await tap(row);
  for (const [i, take] of [
    [8, takes[8]!],
    [9, takes[9]!],
  ] as const) {
    await expectReady(page, view, take);
    const before = taps;
    const wave = view.getByTestId('waveform');
    const box = await wave.boundingBox();
    if (!box) throw new Error('no waveform');
    await tap(wave, { x: box.width * (5.4 / TAKE_S), y: box.height / 2 });
    await expect(view.getByTestId('comment-moment')).toHaveText(/Kommentar bei 0:0[45]/);
    await expect(view.getByRole('textbox', { name: 'Kommentar' })).toBeFocused();
    await page.keyboard.type(`Schön gebunden (${i + 1})`);
    await tap(view.getByRole('button', { name: 'Kommentar speichern' }));
    await expect(view.getByTestId('comment-list')).toContainText(`Schön gebunden (${i + 1})`);
    if (i === 8) await shot(page, 'review-mode', 'phone-commented-de', { fullPage: false });
    await tap(view.getByRole('button', { name: 'Als beantwortet markieren' }));
    expect(taps - before, 'taps for a take').toBeLessThanOrEqual(4);
    if (i === 8) await expect(view.getByTestId('take-announcement')).toContainText(takes[9]!.student);
  }

  // All answered: the view closes, 'Alles beantwortet' with the way back, focused.
  await expect(view).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Alles beantwortet' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Zum Dashboard' })).toBeFocused();
  await expectNoSeriousAxe(page);
  await shot(page, 'review-mode', 'phone-done-de');
  await page.setViewportSize(WIDE);
  await shot(page, 'review-mode', 'desktop-done-de', { fullPage: false });
  await setLanguage(page, 'tr');
  await expect(page.getByRole('heading', { name: 'Hepsi yanıtlandı' })).toBeVisible();
  await shot(page, 'review-mode', 'desktop-done-tr', { fullPage: false });
  await page.setViewportSize(PHONE);
  await shot(page, 'review-mode', 'phone-done-tr');
  await setLanguage(page, 'de');

  // On the server: ten answered, each with its comment at a moment.
  const teacher = await bearer(request, DEMO.teacher.email, 'demo1234');
  for (const take of takes) {
    const r = (await (await request.get(`/api/recordings/${take.id}`, { headers: teacher })).json()) as { answered_at: string | null; comments: Array<{ at_ms: number | null }> };
    expect(r.answered_at, `take ${take.id}`).not.toBeNull();
    expect(r.comments.some((c) => c.at_ms !== null && c.at_ms >= 4000 && c.at_ms <= 6000), `take ${take.id}`).toBe(true);
  }
});
