import type { APIRequestContext, Page } from '@playwright/test';
import { join } from 'node:path';
import { DEMO, DESKTOP, PHONE, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, test, showTakes } from './fixtures';
import { fakeMicrophone, writeWav } from './fake-microphone';

/**
 * The app listens (docs/decisions/listening.md): a student records a Hicaz scale on a task whose
 * exercise is in Hicaz, reads the summary line before sending; the teacher opens the take in
 * 'Zu prüfen' and sees the report with Dügâh as the tonic and a row per perde. The microphone is
 * Chromium's fake device playing a harmonic tone written here (Nim Hicaz 12 cents high).
 */

const TONIC = 220; // Dügâh an octave below A4, Bolâhenk
const KOMA = 1200 / 53;
// Hicaz from Dügâh: 0, 5, 17, 22, 31 koma up and back, with the tonic held at both ends
const NOTES: Array<[number, number]> = [
  [0, 1.6],
  [5, 0.8],
  [17, 0.8],
  [22, 0.8],
  [31, 1.0],
  [22, 0.8],
  [17, 0.8],
  [5, 0.8],
  [0, 2.4],
];
const OFFSET: Record<number, number> = { 17: 12 };

/**
 * The Hicaz walk as a harmonic tone at 48 kHz: once, or repeated until `seconds` (a long take, as a
 * phone's file has it).
 */
function hicazPcm(seconds?: number): Float32Array {
  const rate = 48_000;
  const once = NOTES.reduce((sum, [, secs]) => sum + Math.round(secs * rate), 0);
  const pcm = new Float32Array(seconds === undefined ? once : seconds * rate);
  let at = 0;
  let phase = 0;
  while (at < pcm.length) {
    for (const [koma, secs] of NOTES) {
      const hz = TONIC * 2 ** ((koma * KOMA + (OFFSET[koma] ?? 0)) / 1200);
      const n = Math.round(secs * rate);
      for (let i = 0; i < n && at < pcm.length; i++, at++) {
        const env = Math.min(1, i / (0.01 * rate), (n - i) / (0.03 * rate));
        phase += (2 * Math.PI * hz) / rate;
        pcm[at] = (env * 0.5 * (Math.sin(phase) + 0.5 * Math.sin(2 * phase) + 0.25 * Math.sin(3 * phase) + 0.12 * Math.sin(4 * phase))) / 1.4;
      }
    }
  }
  return pcm;
}

test.use(fakeMicrophone(writeWav('hicaz', hicazPcm(), 48_000)));

const STUDENT = DEMO.students[4]; // Zeynep Arslan

async function token(request: APIRequestContext, email: string): Promise<Record<string, string>> {
  const res = await request.post('/api/login', { data: { email, password: DEMO.teacher.password } });
  expect(res.status()).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` };
}

/** Through the API: a Hicaz exercise (♩ = 60) and a task of it for the student, due today; its address. */
async function hicazTask(request: APIRequestContext): Promise<string> {
  const teacher = await token(request, DEMO.teacher.email);
  const ex = await request.post('/api/exercises', { headers: teacher, multipart: { title: 'Hicaz-Skala', makam: 'hicaz', tempo_bpm: '60', tempo_unit: 'quarter' } });
  expect(ex.status(), await ex.text()).toBe(201);
  const exercise = (await ex.json()) as { id: number };
  const students = (await (await request.get('/api/students', { headers: teacher })).json()) as { data: Array<{ id: number; email: string }> };
  const student = students.data.find((s) => s.email === STUDENT.email)!;
  const today = new Date().toLocaleDateString('sv-SE', { timeZone: 'Europe/Berlin' });
  const created = await request.post('/api/submissions', { headers: teacher, data: { exercise_id: exercise.id, due_date: today, assignees: { users: [student.id] } } });
  expect(created.status(), await created.text()).toBe(201);
  return `/submissions/${((await created.json()) as { submissions: Array<{ id: number }> }).submissions[0]!.id}`;
}

async function signOut(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.removeItem('token'));
}

test('a student records a Hicaz scale, reads the summary before sending; the teacher sees the report with Dügâh and a row per perde', async ({ page, request }) => {
  test.setTimeout(240_000);
  const task = await hicazTask(request);
  await page.setViewportSize(PHONE);
  await loginAs(page, STUDENT.email);
  await page.goto(task);
  await showTakes(page);
  const recorder = page.getByTestId('recorder');
  await recorder.getByRole('button', { name: 'Aufnahme starten' }).click();
  await expect(page.getByTestId('recording-elapsed')).toHaveText('0:11', { timeout: 20_000 });
  await page.getByRole('button', { name: 'Aufnahme beenden' }).click();
  await expect(page.getByTestId('take-preview')).toBeVisible();

  // before sending: analysed on this device
  const summary = page.getByTestId('take-summary');
  await expect(summary.getByTestId('listening-pitch')).toHaveText(/^(Dein .+ war im Mittel \d+ Cent zu (hoch|tief)\.|Deine Töne lagen nah an ihrem Platz .*)$/, { timeout: 30_000 });
  await expect(summary.getByTestId('listening-tempo')).toContainText('Tempo im Mittel ♩ =');
  // Chromium records WebM with Opus: the Worker demuxed and decoded it (WebCodecs), not the page
  await expect(summary).toHaveAttribute('data-decoded-in', 'worker');
  const pitchLine = await summary.getByTestId('listening-pitch').textContent();
  await shot(page, 'listening', 'student-take-de-phone');
  await expectNoSeriousAxe(page, '[data-testid="take-preview"]');
  await page.setViewportSize(DESKTOP);
  await shot(page, 'listening', 'student-take-de-desktop');

  await page.getByRole('button', { name: 'Aufnahme senden' }).click();
  await expect(page.getByText('Aufnahme gesendet.')).toBeVisible();
  // the track followed the take: the student's card shows the server's report
  const mine = page.getByTestId('recording').first().getByTestId('take-analysis');
  await expect(mine.getByTestId('listening-pitch')).toHaveText(/Cent|Töne/, { timeout: 30_000 });

  await setLanguage(page, 'tr');
  await page.goto(task);
  await showTakes(page);
  await expect(page.getByTestId('recording').first().getByTestId('listening-pitch')).toHaveText(/sent|Seslerin/, { timeout: 20_000 });
  await page.setViewportSize(PHONE);
  await shot(page, 'listening', 'student-card-tr-phone');
  await setLanguage(page, 'de');

  // the teacher's review
  await signOut(page);
  await loginAs(page, DEMO.teacher.email);
  await page.setViewportSize(DESKTOP);
  await page.goto('/review');
  await page.getByTestId('inbox-item').filter({ hasText: STUDENT.name }).filter({ hasText: 'Hicaz-Skala' }).first().click();
  const report = page.getByTestId('teacher-analysis');
  await expect(report.getByTestId('analysis-makam')).toContainText('Hicaz auf Dügâh', { timeout: 30_000 });
  const hz = Number(/Grundton ([\d,]+) Hz/.exec((await report.getByTestId('analysis-makam').textContent()) ?? '')?.[1]?.replace(',', '.'));
  expect(Math.abs(1200 * Math.log2(hz / TONIC)) % 1200, `tonic ${hz} Hz`).toBeLessThan(20);
  const rows = report.getByTestId('perde-row');
  await expect(rows.first().getByRole('rowheader')).toHaveText('Dügâh');
  await expect(rows.nth(1).getByRole('rowheader')).toHaveText('Dik Kürdî');
  await expect(rows.nth(2).getByRole('rowheader')).toHaveText('Nim Hicaz');
  await expect(rows.nth(3).getByRole('rowheader')).toHaveText('Nevâ');
  // Nim Hicaz was played 12 cents high
  await expect(rows.nth(2)).toContainText(/\+1[0-4](,\d)?/);
  expect(pitchLine).toBeTruthy();
  // a perde plays its moments
  await rows.first().getByRole('button').click();
  await expect(report.getByTestId('pitch-chart')).toBeVisible();
  await report.scrollIntoViewIfNeeded();
  await shot(page, 'listening', 'teacher-review-de-desktop');
  await expectNoSeriousAxe(page, '[data-testid="teacher-analysis"]');
  await page.setViewportSize(PHONE);
  await page.goto('/review');
  await page.getByTestId('inbox-item').filter({ hasText: 'Hicaz-Skala' }).first().click();
  await expect(page.getByTestId('teacher-analysis').getByTestId('perde-row').first()).toBeVisible({ timeout: 30_000 });
  await shot(page, 'listening', 'teacher-review-de-phone', { fullPage: false });
  await page.getByTestId('teacher-analysis').scrollIntoViewIfNeeded();
  await shot(page, 'listening', 'teacher-review-de-phone-report', { fullPage: false });

  await setLanguage(page, 'tr');
  await page.setViewportSize(DESKTOP);
  await page.goto('/review');
  await page.getByTestId('inbox-item').filter({ hasText: 'Hicaz-Skala' }).first().click();
  await expect(page.getByTestId('teacher-analysis').getByTestId('analysis-makam')).toContainText('Dügâh üzerinde Hicaz', { timeout: 30_000 });
  await shot(page, 'listening', 'teacher-review-tr-desktop');
  await expectNoSeriousAxe(page, '[data-testid="teacher-analysis"]');
  await page.setViewportSize(PHONE);
  await page.goto('/review');
  await page.getByTestId('inbox-item').filter({ hasText: 'Hicaz-Skala' }).first().click();
  await page.getByTestId('teacher-analysis').scrollIntoViewIfNeeded();
  await shot(page, 'listening', 'teacher-review-tr-phone', { fullPage: false });
});

test('a 5-minute take chosen as a file is analysed in the browser within 10 s, with no long task on the page', async ({ page, request }) => {
  test.setTimeout(120_000);
  const file = writeWav('hicaz-5min', hicazPcm(300), 48_000);
  const task = await hicazTask(request);
  await loginAs(page, STUDENT.email);
  await page.goto(task);
  await showTakes(page);
  await expect(page.getByTestId('recorder')).toBeVisible();
  // Long tasks of the page from here on (the Worker's own work is not the page's).
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: number[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push(Math.round(e.duration));
    }).observe({ type: 'longtask' });
  });
  const started = Date.now();
  await page.getByTestId('recording-file').setInputFiles(file);
  const summary = page.getByTestId('take-summary');
  await expect(summary.getByTestId('listening-pitch')).toHaveText(/Nim Hicaz|Töne/, { timeout: 30_000 });
  const wall = Date.now() - started;
  const workerMs = Number(await summary.getAttribute('data-analysis-ms'));
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  console.log(`5-minute take in the browser: ${wall} ms from choosing the file to the summary, ${workerMs} ms in the Worker; long tasks on the page: ${JSON.stringify(longTasks)}`);
  expect(workerMs).toBeGreaterThan(0);
  await expect(summary).toHaveAttribute('data-decoded-in', 'worker');
  expect(wall).toBeLessThanOrEqual(10_000);
  expect(longTasks).toEqual([]);
});

test('an MP3 chosen as a file is decoded by the page (the Worker cannot) and analysed all the same', async ({ page, request }) => {
  test.setTimeout(60_000);
  const task = await hicazTask(request);
  await loginAs(page, STUDENT.email);
  await page.goto(task);
  await showTakes(page);
  await expect(page.getByTestId('recorder')).toBeVisible();
  // The CLI's fixture: one generated Hicaz take (nobody's recording), 14 s, MP3
  await page.getByTestId('recording-file').setInputFiles(join(process.cwd(), 'server/cli/fixtures/hicaz.mp3'));
  const summary = page.getByTestId('take-summary');
  await expect(summary.getByTestId('listening-pitch')).toHaveText(/Cent|Töne/, { timeout: 30_000 });
  await expect(summary).toHaveAttribute('data-decoded-in', 'page');
});
