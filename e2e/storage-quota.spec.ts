import type { Page } from '@playwright/test';
import { DEMO, eachLanguageAndSize, expect, loginAs, setLanguage, shot, test, showTakes } from './fixtures';
import { fakeMicrophone, writeSineWav } from './fake-microphone';

/**
 * Storage quotas (docs/decisions/storage-quota.md) in the browser: the administrator lowers the
 * per-student quota in the dashboard's dialog; a student whose recordings fill it sees "X von Y
 * belegt" and that it is full before recording, and a take sent anyway is refused with the text
 * that says what to do, kept on the device. Screenshots de/tr at 1280 and 390 px of the student's
 * recording area and of the administrator's storage card (e2e/screenshots/storage-quota).
 */

test.use(fakeMicrophone(writeSineWav('quota-sine', 440, 5)));

const ADMIN_EMAIL = 'verwaltung@example.com';
const STUDENT = DEMO.students[3]; // Jonas Schmidt
const MiB = 1024 * 1024;

/** A 44.1 kHz stereo 16-bit WAV of exactly `bytes` bytes (silence): a long take without a microphone. */
function wavOf(bytes: number): Buffer {
  const data = bytes - 44;
  const buf = Buffer.alloc(bytes);
  buf.write('RIFF', 0);
  buf.writeUInt32LE(36 + data, 4);
  buf.write('WAVE', 8);
  buf.write('fmt ', 12);
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(1, 20);
  buf.writeUInt16LE(2, 22);
  buf.writeUInt32LE(44_100, 24);
  buf.writeUInt32LE(44_100 * 4, 28);
  buf.writeUInt16LE(4, 32);
  buf.writeUInt16LE(16, 34);
  buf.write('data', 36);
  buf.writeUInt32LE(data, 40);
  return buf;
}

async function signOut(page: Page): Promise<void> {
  await page.evaluate(() => localStorage.removeItem('token'));
}

/** Scrolls so that the element starts just below the fixed header (viewport screenshots: full-page ones stack the fixed bars over the content). */
async function scrollToTop(page: Page, testId: string): Promise<void> {
  const el = page.getByTestId(testId).first();
  // what loads above it (the practice tools) may still push it down: until it stays put
  await expect
    .poll(async () => {
      await el.evaluate((e) => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - 72));
      await page.waitForTimeout(400);
      return el.evaluate((e) => Math.round(e.getBoundingClientRect().top));
    })
    .toBe(72);
}

async function firstRecordableTask(page: Page): Promise<string> {
  await page.goto('/submissions');
  const link = page.locator('[data-testid="task-card"]:not([data-status="expired"]) h3 a').first();
  await expect(link).toBeVisible();
  const href = await link.getAttribute('href');
  if (!href) throw new Error('no task');
  return href;
}

test('a full per-student quota is shown before recording, a take past it is refused with what to do; the administrator sees it', async ({ page }) => {
  test.setTimeout(240_000);

  // 1. The administrator lowers the per-student quota to 50 MB in the dashboard.
  await loginAs(page, ADMIN_EMAIL);
  const card = page.getByTestId('school-storage');
  await expect(card.getByTestId('storage-total')).toContainText('von 50 GB belegt');
  await card.getByTestId('storage-edit').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Speicherplatz je Schüler für Aufnahmen (MB)').fill('50');
  await dialog.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Die Kontingente wurden gespeichert.')).toBeVisible();
  await expect(card.getByTestId('storage-student-quota')).toHaveText('50 MB');
  await signOut(page);

  // 2. The student's recordings fill it up to 5,000 bytes (one long take sent by the API).
  await loginAs(page, STUDENT.email);
  const task = await firstRecordableTask(page);
  const submissionId = Number(task.split('/').pop());
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const big = await page.request.post(`/api/submissions/${submissionId}/recordings`, {
    headers: { authorization: `Bearer ${token}` },
    multipart: { file: { name: 'lang.wav', mimeType: 'audio/wav', buffer: wavOf(50 * MiB - 5000) } },
  });
  expect(big.status(), await big.text()).toBe(201);

  // 3. Before recording: "50 MB von 50 MB belegt" and that it is full.
  await page.goto(task);
  await showTakes(page);
  const usage = page.getByTestId('storage-usage');
  await expect(usage.getByTestId('storage-usage-text')).toHaveText('50 MB von 50 MB belegt');
  await expect(usage.getByTestId('storage-full')).toHaveText('Dein Speicher ist voll. Lösche ältere Aufnahmen, um neue zu senden, oder frag deine Lehrkraft.');

  // 4. A take sent anyway: refused (413), the reason on the take, which stays on the device.
  const recorder = page.getByTestId('recorder');
  await recorder.getByRole('button', { name: 'Aufnahme starten' }).click();
  await expect(page.getByTestId('recording-elapsed')).toHaveText('0:02', { timeout: 8000 });
  await page.getByRole('button', { name: 'Aufnahme beenden' }).click();
  const refused = page.waitForResponse((r) => r.url().includes(`/api/submissions/${submissionId}/recordings`) && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Aufnahme senden' }).click();
  const answer = await refused;
  expect(answer.status()).toBe(413);
  expect((await answer.json()).code).toBe('storage_quota_student');
  await expect(page.getByTestId('take-error')).toContainText('Dein Speicher für Aufnahmen ist voll (50 MB von 50 MB). Lösche ältere Aufnahmen oder frag deine Lehrkraft.');
  await expect(page.getByTestId('pending-take')).toHaveCount(1);

  await eachLanguageAndSize(page, async (lang, size) => {
    await page.goto(task);
    await expect(page.getByTestId('storage-usage-text')).toHaveText(lang === 'de' ? '50 MB von 50 MB belegt' : '50 MB alanın 50 MB kadarı dolu');
    // the reason in the language of the moment, not of the refusal
    await expect(page.getByTestId('take-error')).toContainText(lang === 'de' ? 'Dein Speicher für Aufnahmen ist voll' : 'Kayıtların için depolama alanın dolu');
    await scrollToTop(page, size === 'desktop' ? 'recordings' : 'storage-usage');
    await shot(page, 'storage-quota', `student-recording-${lang}-${size}`, { fullPage: false });
    if (size === 'phone') {
      await scrollToTop(page, 'pending-take');
      await shot(page, 'storage-quota', `student-refused-take-${lang}-${size}`, { fullPage: false });
    }
  });
  await setLanguage(page, 'de');
  await signOut(page);

  // 5. The administrator: the school's total and the student at the top of the list.
  await loginAs(page, ADMIN_EMAIL);
  await expect(page.getByTestId('storage-top').getByRole('row').nth(1)).toContainText(STUDENT.name);
  await expect(page.getByTestId('storage-top').getByRole('row').nth(1)).toContainText('50 MB von 50 MB');
  await eachLanguageAndSize(page, async (lang, size) => {
    await page.goto('/');
    await expect(page.getByTestId('storage-top')).toContainText(STUDENT.name);
    await scrollToTop(page, 'school-storage');
    await shot(page, 'storage-quota', `admin-dashboard-${lang}-${size}`, { fullPage: false });
  });
});
