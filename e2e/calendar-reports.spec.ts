import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { allDayDate, parseIcs } from '../server/test/ics-check';
import { DEMO, DESKTOP, eachLanguageAndSize, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, test } from './fixtures';

/**
 * docs/decisions/schools-and-roles.md, three parts: the private calendar address (student and teacher) whose file parses with
 * the task on its due date and stops after 'Adresse erneuern'; the course's progress as a CSV
 * download; the printable one-page student report. German and Turkish, desktop and phone, axe
 * clean. Screenshots under e2e/screenshots/calendar-reports/.
 */
const FEATURE = 'calendar-reports';
const TEXT = {
  de: { show: 'Adresse anzeigen', address: 'Private Kalenderadresse', renew: 'Adresse erneuern', print: 'Drucken', report: 'Schülerbericht' },
  tr: { show: 'Adresi göster', address: 'Özel takvim adresi', renew: 'Adresi yenile', print: 'Yazdır', report: 'Öğrenci raporu' },
} as const;

/** A call of the signed-in user's API from the page (the token from local storage). */
async function apiGet<T>(page: Page, path: string): Promise<T> {
  return page.evaluate(async (p) => {
    const res = await fetch(p, { headers: { authorization: `Bearer ${localStorage.getItem('token')}` } });
    return (await res.json()) as unknown;
  }, path) as Promise<T>;
}

/** Opens the subscription section under the dashboard's calendar (it loads when scrolled near). */
async function openSubscription(page: Page, lang: 'de' | 'tr') {
  await page.goto('/');
  const section = page.getByTestId('calendar-subscription');
  for (let i = 0; i < 10 && !(await section.isVisible()); i++) {
    await page.mouse.wheel(0, 1500);
    await page.waitForTimeout(250);
  }
  await section.scrollIntoViewIfNeeded();
  await section.getByRole('button', { name: TEXT[lang].show }).click();
  const input = section.getByLabel(TEXT[lang].address);
  await expect(input).toHaveValue(/\/calendar\/[A-Za-z0-9_-]{43}\.ics/);
  return { section, url: await input.inputValue() };
}

test("a student's calendar address: the file parses with the task on its due date; renewing stops the old address", async ({ page }) => {
  await loginAs(page, DEMO.students[0].email);
  await eachLanguageAndSize(page, async (lang, size) => {
    const { section } = await openSubscription(page, lang);
    await expectNoSeriousAxe(page, '[data-testid="calendar-subscription"]');
    await section.scrollIntoViewIfNeeded();
    await shot(page, FEATURE, `student-subscription-${lang}-${size}`, { fullPage: false });
  });

  await setLanguage(page, 'de');
  await page.setViewportSize(DESKTOP);
  const { section, url } = await openSubscription(page, 'de');
  expect(url.startsWith(new URL(page.url()).origin)).toBe(true);
  await expect(section.getByRole('link', { name: 'Im Kalender öffnen' })).toHaveAttribute('href', url.replace(/^http:/, 'webcal:'));

  // The file, fetched the way a calendar app does: no token.
  const res = await page.request.get(url);
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toBe('text/calendar; charset=utf-8');
  const ics = parseIcs(await res.text());
  const tasks = await apiGet<Array<{ exercise_title: string; due_date: string; status: string }>>(page, '/api/submissions');
  const task = tasks.find((t) => t.status === 'open');
  expect(task, 'the demo student has an open task').toBeDefined();
  const onItsDate = ics.events.filter((e) => e.props.get('SUMMARY')?.value === task!.exercise_title && allDayDate(e, 'DTSTART') === task!.due_date);
  expect(onItsDate.length).toBeGreaterThan(0);
  expect(onItsDate[0]!.props.get('DESCRIPTION')!.value).toContain('Status: Offen');

  // Renewing asks first; then the old address answers 404 and the new one works.
  await section.getByRole('button', { name: TEXT.de.renew }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Die bisherige Adresse funktioniert danach nicht mehr');
  await shot(page, FEATURE, 'student-renew-confirm-de-desktop', { fullPage: false });
  await dialog.getByRole('button', { name: TEXT.de.renew }).click();
  await expect(section.getByLabel(TEXT.de.address)).not.toHaveValue(url);
  const renewed = await section.getByLabel(TEXT.de.address).inputValue();
  expect((await page.request.get(url)).status()).toBe(404);
  expect((await page.request.get(renewed)).status()).toBe(200);
});

test("the teacher's calendar address, the course progress CSV and the printable student report", async ({ page }) => {
  await loginAs(page, DEMO.teacher.email);

  // Calendar: one event per exercise and date, the students' status in it.
  await eachLanguageAndSize(page, async (lang, size) => {
    const { url } = await openSubscription(page, lang);
    await expectNoSeriousAxe(page, '[data-testid="calendar-subscription"]');
    await shot(page, FEATURE, `teacher-subscription-${lang}-${size}`, { fullPage: false });
    if (lang === 'de' && size === 'desktop') {
      const ics = parseIcs(await (await page.request.get(url)).text());
      expect(ics.events.length).toBeGreaterThan(0);
      expect(ics.events.every((e) => /\(\d+\/\d+\)$/.test(e.props.get('SUMMARY')!.value))).toBe(true);
    }
  });

  // CSV: the first course's file downloads with BOM, header and the enrolled demo students.
  await setLanguage(page, 'de');
  await page.setViewportSize(DESKTOP);
  await page.goto('/courses');
  const card = page.getByTestId('course-card').first();
  const courseName = (await card.getByRole('heading').textContent())!.trim();
  const [download] = await Promise.all([page.waitForEvent('download'), card.getByTestId('course-progress-csv').click()]);
  expect(download.suggestedFilename()).toMatch(/^kursfortschritt-\d+-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).split('\r\n').filter(Boolean);
  expect(lines[0]).toBe('Name;E-Mail;Übungszeit diese Woche (min);Übungszeit diesen Monat (min);Erledigte Aufgaben;Abschlussquote (%);Durchschnittliche Genauigkeit (%);Zuletzt geübt');
  const students = await apiGet<{ data: Array<{ name: string; email: string; courses: Array<{ name: string }> }> }>(page, '/api/students');
  const enrolled = students.data.filter((s) => s.courses.some((c) => c.name === courseName));
  expect(lines.length - 1).toBe(enrolled.length);
  for (const s of enrolled) expect(lines.some((l) => l.startsWith(`${s.name};${s.email};`))).toBe(true);
  await shot(page, FEATURE, 'courses-csv-de-desktop', { fullPage: false });

  // The report: from the student's page, in both languages and sizes.
  const student = students.data[0]!;
  const { id } = (await apiGet<{ data: Array<{ id: number; name: string }> }>(page, '/api/students')).data.find((s) => s.name === student.name)!;
  await page.goto(`/students/${id}`);
  await page.getByTestId('student-report-link').click();
  await expect(page).toHaveURL(new RegExp(`/students/${id}/report$`));
  await eachLanguageAndSize(page, async (lang, size) => {
    await page.goto(`/students/${id}/report`);
    await expect(page.getByRole('heading', { level: 1, name: student.name })).toBeVisible();
    await expect(page.getByText(TEXT[lang].report, { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: TEXT[lang].print })).toBeEnabled();
    await expectNoSeriousAxe(page);
    await shot(page, FEATURE, `report-${lang}-${size}`);
  });

  // Print: no navigation, no buttons, and the sheet fits one A4 page.
  await setLanguage(page, 'de');
  await page.setViewportSize(DESKTOP);
  await page.goto(`/students/${id}/report`);
  await expect(page.getByRole('heading', { level: 1, name: student.name })).toBeVisible();
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => void ((window as unknown as { printed: number }).printed += 1);
  });
  await page.getByRole('button', { name: TEXT.de.print }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: TEXT.de.print })).toBeHidden();
  await expect(page.getByRole('navigation')).toHaveCount(0);
  await shot(page, FEATURE, 'report-print-de');
  const pdf = await page.pdf({ format: 'A4', preferCSSPageSize: true });
  const pages = pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? [];
  expect(pages.length, 'the report prints on one A4 page').toBe(1);
});
