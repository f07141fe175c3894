import type { APIRequestContext, Page } from '@playwright/test';
import { apiToken, DEMO, DESKTOP, expect, expectNoSeriousAxe, loginAs, PHONE, shot, test, waveformReady, showTakes } from './fixtures';
import { fakeMicrophone, writeSineWav } from './fake-microphone';

/**
 * The feedback loop as its three people live it (docs/decisions/spoken-comments-and-quick-replies.md,
 * docs/decisions/done-means-practised.md): a new student sends a take; the teacher comments at a
 * moment with a saved quick reply and adds a spoken comment; the student's "Neues Feedback" opens
 * the take at that comment, playing from it; the parent's badge lands there too; and a 'done'
 * with nothing practised is asked first and can be taken back.
 */

const WAV = writeSineWav('feedback-loop', 330, 6);
test.use(fakeMicrophone(WAV));
test.describe.configure({ timeout: 300_000 });

const uniq = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const STUDENT = { name: `Feedback Kind ${uniq}`, email: `feedback.kind.${uniq}@example.test`, password: 'feedback-kind-24' };
const PARENT = { name: `Feedback Eltern ${uniq}`, email: `feedback.eltern.${uniq}@example.test`, password: 'feedback-eltern-24' };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

const berlinToday = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Berlin' }).format(new Date());

/** A new student with a parent who has accepted, and one task due today: its id. */
async function setUp(request: APIRequestContext): Promise<{ taskId: number; studentId: number }> {
  const teacher = bearer(await apiToken(request, DEMO.teacher.email));
  const courses = (await (await request.get('/api/courses', { headers: teacher })).json()) as Array<{ id: number }>;
  const made = await request.post('/api/students', { headers: teacher, data: { ...STUDENT, course_ids: [courses[0]!.id] } });
  expect(made.status(), await made.text()).toBe(201);
  const studentId = ((await made.json()) as { id: number }).id;
  const exercises = (await (await request.get('/api/exercises', { headers: teacher })).json()) as { exercises: Array<{ id: number }> };
  const task = await request.post('/api/submissions', {
    headers: teacher,
    data: { exercise_id: exercises.exercises[0]!.id, due_date: berlinToday(), course_id: courses[0]!.id, assignees: { users: [studentId] } },
  });
  expect(task.status(), await task.text()).toBe(201);
  const taskId = ((await task.json()) as { submissions: Array<{ id: number }> }).submissions[0]!.id;
  const added = await request.post(`/api/students/${studentId}/guardians`, { headers: teacher, data: { name: PARENT.name, email: PARENT.email } });
  expect(added.status(), await added.text()).toBe(201);
  const url = ((await added.json()) as { invite: { url: string } | null }).invite?.url;
  expect(url, 'a new parent gets an invitation link').toBeTruthy();
  const accepted = await request.post(`/api/invites/${new URL(url!).pathname.split('/').pop()}/accept`, { data: { password: PARENT.password } });
  expect(accepted.status(), await accepted.text()).toBe(200);
  return { taskId, studentId };
}

async function signOut(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.removeItem('token'));
}

test('a take, a comment at its moment from a quick reply and a spoken one; the student and the parent land on it; done is asked and undone', async ({ page, request }) => {
  const { taskId } = await setUp(request);

  // 1. The student records 3 s on the practice screen and sends it.
  await page.setViewportSize(DESKTOP);
  await loginAs(page, STUDENT.email, STUDENT.password);
  await page.goto(`/submissions/${taskId}`);
  await showTakes(page);
  const recorder = page.getByTestId('recorder');
  await recorder.getByRole('button', { name: 'Aufnahme starten' }).click();
  await expect(page.getByTestId('recording-elapsed')).toHaveText('0:03', { timeout: 10_000 });
  await page.getByRole('button', { name: 'Aufnahme beenden' }).click();
  await expect(page.getByTestId('take-preview')).toBeVisible();
  await page.getByRole('button', { name: 'Aufnahme senden' }).click();
  await expect(page.getByText('Aufnahme gesendet.')).toBeVisible();
  await expect(page.getByTestId('recording')).toHaveCount(1);

  // 2. The teacher: a comment at ~0:01 written from a saved quick reply, then a spoken one.
  await signOut(page);
  await loginAs(page, DEMO.teacher.email);
  await page.goto('/review');
  await page.getByTestId('inbox-item').filter({ hasText: STUDENT.name }).first().click();
  const card = page.getByTestId('recording').filter({ hasText: STUDENT.name });
  const wave = card.getByTestId('waveform');
  await waveformReady(wave);
  const box = (await wave.boundingBox())!;
  const totalS = Number(/\/ 0:(\d\d)/.exec((await card.getByTestId('player-time').textContent()) ?? '')?.[1] ?? '3');
  await page.mouse.click(box.x + box.width * (1.4 / totalS), box.y + box.height / 2);
  await expect(card.getByTestId('comment-moment')).toHaveText('Kommentar bei 0:01');
  const text = card.getByRole('textbox', { name: 'Kommentar' });
  const reply = `Hier eilst du – zähl mit ${uniq}`;
  await text.fill(reply);
  await card.getByRole('button', { name: 'Als Schnellantwort speichern' }).click();
  await expect(page.getByText('Schnellantwort gespeichert.')).toBeVisible();
  await text.fill('');
  await card.getByTestId('quick-reply').filter({ hasText: reply }).click();
  await expect(text).toHaveValue(reply);
  await card.getByRole('button', { name: 'Kommentar speichern' }).click();
  await expect(card.getByTestId('comment-list')).toContainText('Kommentar bei 0:01');
  await expect(card.getByTestId('comment-list')).toContainText(reply);

  await card.getByTestId('voice-record').click();
  await expect(card.getByTestId('voice-live')).toBeVisible();
  await page.waitForTimeout(2200);
  await card.getByTestId('voice-live').getByRole('button', { name: 'Aufnahme beenden' }).click();
  await expect(card.getByTestId('voice-preview')).toBeVisible();
  await card.getByRole('button', { name: 'Gesprochenen Kommentar senden' }).click();
  await expect(page.getByText('Gesprochener Kommentar gespeichert.')).toBeVisible();
  // the spoken comment sits at the same moment as a player of its own
  await expect(card.getByTestId('comment-list')).toContainText(/Gesprochener Kommentar \(0:0[1-4]\)/);
  await expect(card.locator('audio[aria-label^="Gesprochenen Kommentar abspielen"]')).toHaveCount(1);
  await expectNoSeriousAxe(page);
  await shot(page, 'feedback-loop', 'teacher-voice-de-desktop');
  await card.getByRole('button', { name: 'Als beantwortet markieren' }).click();
  await expect(page.getByText('Als beantwortet markiert.')).toBeVisible();

  // 3. The parent, on a phone, while the feedback is new to the child: the badge on the home is a
  // link to the take at the comment (a parent's look leaves it new for the child).
  await signOut(page);
  await page.setViewportSize(PHONE);
  await loginAs(page, PARENT.email, PARENT.password);
  const badge = page.getByTestId('child-new-feedback-link');
  await expect(badge).toBeVisible();
  await badge.click();
  await expect(page).toHaveURL(/\/children\/\d+\?take=\d+(&t=\d+)?#comment-\d+$/);
  const take = page.getByTestId('guardian-recording');
  await expect(take.getByText(reply)).toBeVisible();
  await expectNoSeriousAxe(page);
  await shot(page, 'feedback-loop', 'parent-landing-de-phone', { fullPage: false });

  // 4. The student, on a phone: "Neues Feedback" opens the take at the newest comment, playing.
  await signOut(page);
  await loginAs(page, STUDENT.email, STUDENT.password);
  const note = page.getByTestId('new-feedback-note');
  await expect(note).toContainText('Neues Feedback zu 1 Aufnahme');
  await note.click();
  await expect(page).toHaveURL(new RegExp(`/submissions/${taskId}\\?take=\\d+(&t=\\d+)?#comment-\\d+$`));
  const mine = page.getByTestId('recording');
  await waveformReady(mine.getByTestId('waveform'));
  await expect(mine.getByText(reply)).toBeVisible();
  await expect(mine.locator('audio[aria-label^="Gesprochenen Kommentar abspielen"]')).toHaveCount(1);
  // playing from the comment's moment (or, where the browser refused to start by itself, offering it)
  const playFrom = page.getByRole('button', { name: /Ab hier abspielen/ });
  if (await playFrom.isVisible()) await playFrom.click();
  await expect(mine.getByTestId('player-time')).toHaveText(/^0:0[1-4] \//, { timeout: 10_000 });
  await expectNoSeriousAxe(page);
  await shot(page, 'feedback-loop', 'student-landing-de-phone', { fullPage: false });

  // 5. Done with nothing practised: asked first; 'Rückgängig' takes it back.
  await page.goto(`/submissions/${taskId}`);
  await page.getByTestId('complete-task').click();
  await expect(page.getByText('Du hast für diese Aufgabe noch nicht geübt. Trotzdem als erledigt markieren?')).toBeVisible();
  await page.getByRole('button', { name: 'Trotzdem erledigt' }).click();
  await expect(page.getByTestId('task-done')).toBeVisible();
  await page.getByRole('button', { name: 'Rückgängig' }).click();
  await expect(page.getByTestId('complete-task')).toBeVisible();
  const state = await page.evaluate(async (id) => {
    const res = await fetch(`/api/submissions/${id}`, { headers: { Authorization: `Bearer ${localStorage.getItem('token')}` } });
    return ((await res.json()) as { status: string }).status;
  }, taskId);
  expect(state, 'taken back on the server too').toBe('open');
});
