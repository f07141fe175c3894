import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makePdf, makePng } from '../server/modules/media/sample-files';
import { DEMO, DESKTOP, PHONE, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, test, saveScreenshot } from './fixtures';

// uploads, axe and screenshots: these journeys take longer than the default minute
test.describe.configure({ timeout: 180_000 });

const uniq = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
// a noisy picture, so it does not compress to a few bytes
let seed = 7;
const noise = () => (seed = (seed * 1103515245 + 12345) % 2147483648) % 256;
const png = makePng(160, 120, () => [noise(), noise(), noise()]);
const kb = (n: number) => `${new Intl.NumberFormat('de-DE', { maximumFractionDigits: 2, useGrouping: false }).format(n / 1024)} KB`;
const pdf = makePdf('Bordun - Übungsblatt', ['Zeile 1', 'Zeile 2']);

/** A screenshot of what is on screen (a dialog is fixed to the viewport, so not the full page). */
async function viewShot(page: Page, name: string) {
  const path = join(dirname(fileURLToPath(import.meta.url)), 'screenshots', 'exercises', `${name}.png`);
  mkdirSync(dirname(path), { recursive: true });
  await page.evaluate(() => document.fonts.ready);
  await saveScreenshot(page, { path, animations: 'disabled' });
}

async function openExercises(page: Page) {
  await page.getByRole('link', { name: /^(Übungen|Alıştırmalar)$/ }).first().click();
  await expect(page).toHaveURL(/\/exercises$/);
  await expect(page.getByTestId('exercise-card').first()).toBeVisible();
}

test('a teacher creates an exercise with an image and a PDF, finds and filters it, edits it and removes a file, then deletes it', async ({ page }) => {
  const title = `Bordun-Übung E2E ${uniq()}`;
  await page.setViewportSize(DESKTOP);
  await loginAs(page, DEMO.teacher.email);
  await openExercises(page);
  const countText = await page.getByTestId('exercise-count').innerText();
  const total = Number(/von (\d+)/.exec(countText)?.[1]);
  expect(total).toBeGreaterThanOrEqual(12);
  // Server labels and the difficulty badges of the demo school
  await expect(page.getByTestId('exercise-card').filter({ hasText: 'Makam Hicaz – Seyir' })).toContainText('Fortgeschritten');
  await expect(page.getByTestId('exercise-card').filter({ hasText: 'Makam Hicaz – Seyir' })).toContainText('Makam');
  await expect(page.getByTestId('exercise-card').filter({ hasText: 'Lange Töne auf der Ney' })).toContainText('Atem & Kontrolle');
  await shot(page, 'exercises', 'list-de-desktop');
  await expectNoSeriousAxe(page, 'main');

  // Create
  await page.getByRole('button', { name: 'Neue Übung' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Neue Übung erstellen' });
  await dialog.getByRole('button', { name: 'Übung erstellen' }).click();
  await expect(dialog.getByText('Bitte geben Sie einen Titel ein.')).toBeVisible();
  await dialog.getByLabel('Titel').fill(title);
  await dialog.getByLabel('Beschreibung').fill('Den Bordunton halten und darüber die Melodie spielen.');
  await dialog.getByLabel('Kategorie').selectOption({ label: 'Makam' });
  await dialog.getByLabel('Schwierigkeit').selectOption({ label: 'Mittel' });
  await dialog.getByLabel('Lernziel').fill('Sauberer Bordun über 16 Takte');
  await dialog.getByLabel('Geschätzte Dauer (Minuten)').fill('0');
  await dialog.getByLabel('Priorität').selectOption({ label: '4 – Sehr hoch' });
  await dialog.getByLabel('Tags').fill(' bordun , e2e,, ');
  await dialog.getByRole('checkbox', { name: 'Ney – Grundkurs' }).check();
  const input = dialog.getByTestId('exercise-file-input');
  await input.setInputFiles([
    { name: 'notenbild.png', mimeType: 'image/png', buffer: png },
    { name: 'blatt.pdf', mimeType: 'application/pdf', buffer: pdf },
    { name: 'liesmich.txt', mimeType: 'text/plain', buffer: Buffer.from('hallo') },
  ]);
  await expect(dialog.getByText('Dateityp text/plain wird nicht unterstützt')).toBeVisible();
  // the same name and size again: ignored
  await input.setInputFiles([{ name: 'notenbild.png', mimeType: 'image/png', buffer: png }]);
  const chosen = dialog.getByTestId('chosen-files').getByRole('listitem');
  await expect(chosen).toHaveCount(2);
  await expect(chosen.filter({ hasText: 'notenbild.png' })).toContainText(kb(png.length));
  await expect(chosen.filter({ hasText: 'blatt.pdf' })).toContainText(`${pdf.length} Bytes`);
  await dialog.getByRole('button', { name: 'Übung erstellen' }).click();
  await expect(dialog.getByText('Bitte mindestens 1 Minute angeben.')).toBeVisible();
  await dialog.getByLabel('Geschätzte Dauer (Minuten)').fill('12');
  await expect(dialog.getByText('Bitte mindestens 1 Minute angeben.')).toHaveCount(0);
  await viewShot(page, 'modal-de-desktop');
  await dialog.getByTestId('chosen-files').scrollIntoViewIfNeeded();
  await viewShot(page, 'modal-de-desktop-files');
  await expectNoSeriousAxe(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Übung erstellen' }).click();
  await expect(page.getByText('Übung erfolgreich erstellt')).toBeVisible();
  await expect(dialog).toBeHidden();

  // Find it by search
  await page.getByLabel('Suchen').fill('bordun-übung e2e');
  await expect(page.getByTestId('exercise-count')).toHaveText(`1 von ${total + 1} Übungen`);
  const card = page.getByTestId('exercise-card').filter({ hasText: title });
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('Makam');
  await expect(card).toContainText('Mittel');
  await expect(card).toContainText('12 Min.');
  await expect(card).toContainText('Sauberer Bordun über 16 Takte');
  await expect(card).toContainText('Priorität: Sehr hoch');
  await expect(card).toContainText('2 Dateien');
  await expect(card).toContainText('#bordun');
  await expect(card).toContainText(/Erstellt am \d\d\.\d\d\.\d{4}/);

  // Filter: matching category and difficulty keep it, another difficulty hides it
  await page.getByLabel('Suchen').fill('');
  await page.getByLabel('Kategorie').selectOption({ label: 'Makam' });
  await page.getByLabel('Schwierigkeit').selectOption({ label: 'Mittel' });
  await expect(card).toHaveCount(1);
  await expect(page.getByTestId('exercise-card').filter({ hasText: 'Makam Hicaz – Seyir' })).toHaveCount(0);
  await page.getByLabel('Suchen').fill(title);
  await page.getByLabel('Schwierigkeit').selectOption({ label: 'Leicht' });
  await expect(page.getByText('Keine passenden Übungen')).toBeVisible();
  await page.getByRole('button', { name: 'Filter zurücksetzen' }).click();
  await expect(page.getByTestId('exercise-count')).toHaveText(`${total + 1} von ${total + 1} Übungen`);

  // The uploaded files are served through signed links from the same origin
  const served = await page.evaluate(async (t) => {
    const token = localStorage.getItem('token');
    const h = { Authorization: `Bearer ${token}` };
    const list = await (await fetch('/api/exercises', { headers: h })).json();
    const ex = list.exercises.find((e: { title: string }) => e.title === t);
    const out: Array<{ type: string | null; size: number; filename: string }> = [];
    for (const m of ex.media_files) {
      const { url } = await (await fetch(`/api/media/${encodeURIComponent(m.path)}`, { headers: h })).json();
      const res = await fetch(url);
      out.push({ type: res.headers.get('content-type'), size: (await res.arrayBuffer()).byteLength, filename: m.filename });
    }
    return out;
  }, title);
  expect(served).toEqual([
    { type: 'image/png', size: png.length, filename: 'notenbild.png' },
    { type: 'application/pdf', size: pdf.length, filename: 'blatt.pdf' },
  ]);

  // Edit: change the title, remove the PDF
  await page.getByRole('button', { name: `Übung ${title} bearbeiten` }).click();
  const edit = page.getByRole('dialog', { name: 'Übung bearbeiten' });
  await expect(edit.getByLabel('Titel')).toHaveValue(title);
  await expect(edit.getByLabel('Tags')).toHaveValue('bordun, e2e');
  const existing = edit.getByTestId('existing-files').getByRole('listitem');
  await expect(existing).toHaveCount(2);
  await expect(existing.filter({ hasText: 'blatt.pdf' })).toContainText(`${pdf.length} Bytes`);
  await expect(existing.filter({ hasText: 'notenbild.png' })).toContainText(kb(png.length));
  await edit.getByRole('button', { name: 'blatt.pdf entfernen' }).click();
  await expect(existing.filter({ hasText: 'blatt.pdf' })).toContainText('wird entfernt');
  await edit.getByLabel('Titel').fill(`${title} (neu)`);
  await edit.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Übung erfolgreich aktualisiert')).toBeVisible();
  await expect(edit).toBeHidden();
  const edited = page.getByTestId('exercise-card').filter({ hasText: `${title} (neu)` });
  await expect(edited).toContainText('1 Datei');
  await page.getByRole('button', { name: `Übung ${title} (neu) bearbeiten` }).click();
  await expect(edit.getByTestId('existing-files').getByRole('listitem')).toHaveCount(1);
  await expect(edit.getByTestId('existing-files')).toContainText('notenbild.png');
  await edit.getByRole('button', { name: 'Abbrechen' }).click();

  // Delete after confirmation
  await page.getByRole('button', { name: `Übung ${title} (neu) löschen` }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: 'Sind Sie sicher, dass Sie diese Übung löschen möchten?' });
  await confirm.getByRole('button', { name: 'Löschen' }).click();
  await expect(page.getByText('Übung erfolgreich gelöscht')).toBeVisible();
  await expect(edited).toHaveCount(0);
  await expect(page.getByTestId('exercise-count')).toHaveText(`${total} von ${total} Übungen`);
});

test('the list follows the selected course; screenshots in German and Turkish, desktop and phone', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await loginAs(page, DEMO.teacher.email);
  await openExercises(page);
  const all = Number(/von (\d+)/.exec(await page.getByTestId('exercise-count').innerText())?.[1]);
  await page.locator('aside').getByLabel('Kurs', { exact: true }).selectOption({ label: 'Oud – Mittelstufe' });
  await expect(page.getByTestId('exercise-card').filter({ hasText: 'Usul Sofyan und Düyek' })).toHaveCount(1);
  await expect(page.getByTestId('exercise-card').filter({ hasText: 'Lange Töne auf der Ney' })).toHaveCount(0);
  const inCourse = Number(/von (\d+)/.exec(await page.getByTestId('exercise-count').innerText())?.[1]);
  expect(inCourse).toBeLessThan(all);
  await page.locator('aside').getByLabel('Kurs', { exact: true }).selectOption({ index: 0 });
  await expect(page.getByTestId('exercise-count')).toHaveText(`${all} von ${all} Übungen`);

  await setLanguage(page, 'tr');
  await expect(page.getByRole('heading', { level: 1, name: 'Alıştırmalar' })).toBeVisible();
  await expect(page.getByTestId('exercise-card').filter({ hasText: 'Lange Töne auf der Ney' })).toContainText('Nefes ve Kontrol');
  await expect(page.getByTestId('exercise-card').filter({ hasText: 'Makam Hicaz – Seyir' })).toContainText('İleri');
  await page.getByLabel('Kategori').selectOption({ label: 'Ritim ve Tempo' });
  await expect(page.getByTestId('exercise-card').filter({ hasText: 'Usul Sofyan und Düyek' })).toHaveCount(1);
  await page.getByLabel('Kategori').selectOption({ index: 0 });
  await shot(page, 'exercises', 'list-tr-desktop');
  await page.getByRole('button', { name: 'Makam Rast – Tetrachorde alıştırmasını düzenle' }).click();
  const trDialog = page.getByRole('dialog', { name: 'Alıştırmayı düzenle' });
  await expect(trDialog.getByTestId('existing-files').getByRole('listitem')).toHaveCount(2);
  await viewShot(page, 'modal-tr-desktop');
  await expectNoSeriousAxe(page, '[role="dialog"]');
  await trDialog.getByRole('button', { name: 'İptal' }).click();
  await expect(trDialog).toBeHidden();

  await page.setViewportSize(PHONE);
  await page.goto('/exercises');
  await expect(page.getByTestId('exercise-card').first()).toBeVisible();
  await shot(page, 'exercises', 'list-tr-phone');
  await viewShot(page, 'list-tr-phone-top');
  await page.getByRole('button', { name: 'Yeni alıştırma' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Yeni alıştırma oluştur' }).getByLabel('Başlık')).toBeVisible();
  await viewShot(page, 'modal-tr-phone');

  await setLanguage(page, 'de');
  await page.goto('/exercises');
  await expect(page.getByTestId('exercise-card').first()).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, 'exercises', 'list-de-phone');
  await viewShot(page, 'list-de-phone-top');
  await page.getByRole('button', { name: 'Übung Makam Rast – Tetrachorde bearbeiten' }).click();
  await expect(page.getByRole('dialog', { name: 'Übung bearbeiten' }).getByTestId('existing-files')).toContainText('Makam Rast – Übungsblatt.pdf');
  await viewShot(page, 'modal-de-phone');
  await page.getByRole('dialog', { name: 'Übung bearbeiten' }).getByTestId('existing-files').scrollIntoViewIfNeeded();
  await viewShot(page, 'modal-de-phone-files');
});

/**
 * A dialog whose code cannot be loaded (docs/decisions/first-load-on-a-phone.md, "A part whose
 * chunk cannot be loaded fails in its place"): the message floats over the screen, where the
 * dialog would have shown, and the list stays; 'Erneut versuchen' loads it and the dialog opens.
 */
test("a dialog whose code cannot be loaded says so on screen; 'Erneut versuchen' opens it (phone in German, desktop in Turkish)", async ({ page }) => {
  let refuse = true;
  await page.route(/\/assets\/assignment-dialog-[^/]*\.js$/, (route) => (refuse ? route.abort('internetdisconnected') : route.continue()));
  await loginAs(page, DEMO.teacher.email);
  const text = {
    de: { assign: 'Zuweisen', failed: 'Dieser Teil der Seite konnte nicht geladen werden.', retry: 'Erneut versuchen' },
    tr: { assign: 'Ödev ver', failed: 'Sayfanın bu bölümü yüklenemedi.', retry: 'Tekrar dene' },
  } as const;
  for (const [size, lang] of [
    [PHONE, 'de'],
    [DESKTOP, 'tr'],
  ] as const) {
    refuse = true;
    await page.setViewportSize(size);
    await setLanguage(page, lang);
    await page.goto('/exercises');
    const card = page.getByTestId('exercise-card').first();
    await card.getByRole('button', { name: text[lang].assign }).click();
    const failed = page.getByRole('alert').filter({ hasText: text[lang].failed });
    await expect(failed).toBeInViewport({ ratio: 1 });
    await expect(card).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expectNoSeriousAxe(page);
    await viewShot(page, `assign-dialog-failed-${lang}-${size === PHONE ? 'phone' : 'desktop'}`);
    refuse = false;
    await failed.getByRole('button', { name: text[lang].retry }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expect(failed).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
});
