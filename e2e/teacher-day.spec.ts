import type { Page } from '@playwright/test';
import { DEMO, DESKTOP, PHONE, eachLanguageAndSize, expect, expectNoSeriousAxe, loginAs, settle, shot, showTeacherCalendar, test } from './fixtures';

/**
 * The teacher's day (docs/decisions/first-load-on-a-phone.md): the agenda beside the calendar, the task panel from the calendar and
 * the agenda (with the review), the calendar by keyboard, the students list with progress, the
 * assignment dialog on a phone. Screenshots: e2e/screenshots/teacher-day/.
 */
const FEATURE = 'teacher-day';

function berlinToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
}
const addDays = (date: string, n: number) => {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

async function calendarReady(page: Page) {
  await showTeacherCalendar(page);
  await expect(page.locator('.uk-ev').first()).toBeVisible();
}

test.describe('the teacher opens tasks into the side panel', () => {
  test('from the calendar and from the agenda; a review is written in the panel', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await loginAs(page, DEMO.teacher.email);
    await calendarReady(page);

    // Calendar: an entry opens the panel with that task.
    const entry = page.locator('.uk-ev:visible').first();
    const id = await entry.getAttribute('data-submission-id');
    await entry.click();
    const panel = page.getByTestId('task-panel');
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('link', { name: 'Aufgabe öffnen' })).toHaveAttribute('href', `/submissions/${id}`);
    await expect(panel.getByTestId('review-form')).toBeVisible();
    await settle(page);
    await expectNoSeriousAxe(page, '[data-testid="task-panel"]');
    await shot(page, FEATURE, 'panel-from-calendar-de-desktop', { fullPage: false });
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();

    // Agenda: a done task of the week (the demo school has completed ones today or earlier this week,
    // else any), opened by its student button; the review is saved there.
    const agenda = page.getByTestId('teacher-agenda');
    await expect(agenda.getByTestId('agenda-entry').first()).toBeVisible();
    await agenda.getByTestId('agenda-entry').first().click();
    await expect(panel).toBeVisible();
    const form = panel.getByTestId('review-form');
    await form.getByLabel('Genauigkeit (%)').fill('88');
    await form.getByLabel('Kompetenzniveau').selectOption('advanced');
    await form.getByLabel('Rückmeldung').fill('Schön gleichmäßig, weiter so.');
    await form.getByRole('button', { name: /Bewertung speichern|Speichern/ }).click();
    // The toast lies outside the modal panel (hidden from the accessibility tree meanwhile): by its text.
    await expect(page.getByText('Bewertung gespeichert')).toBeVisible();
    await expect(panel).toContainText('88 %');
    await panel.getByRole('link', { name: 'Aufgabe öffnen' }).click();
    await expect(page).toHaveURL(/\/submissions\/\d+$/);
    // The teacher's task view leads with the review; deleting is not its filled button.
    await expect(page.getByTestId('teacher-review')).toBeVisible();
    await expect(page.getByTestId('teacher-review').getByLabel('Genauigkeit (%)')).toHaveValue('88');
    await expect(page.getByRole('button', { name: 'Serie ab hier löschen' })).toBeVisible();
    await expectNoSeriousAxe(page, 'main');
    await shot(page, FEATURE, 'teacher-task-view-de-desktop');
  });

  test("a day's '+N' opens that day's agenda, not a popover", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await loginAs(page, DEMO.teacher.email);
    await calendarReady(page);
    const more = page.locator('.uk-more:visible').first();
    test.skip((await more.count()) === 0, 'no day with more than three tasks this month');
    const date = await more.locator('xpath=ancestor::*[@data-date][1]').getAttribute('data-date');
    await more.click();
    await expect(page.locator('.uk-popover')).toHaveCount(0);
    const agenda = page.getByTestId('teacher-agenda');
    await expect(agenda.getByRole('heading', { name: new RegExp(`^Aufgaben am .*${date!.slice(8, 10)}\\.${date!.slice(5, 7)}\\.${date!.slice(0, 4)}$`) })).toBeFocused();
    const count = await page.locator(`.uk-day[data-date="${date}"] .uk-ev`).count();
    await expect(agenda.getByTestId('agenda-entry')).toHaveCount(Math.max(count, await agenda.getByTestId('agenda-entry').count()));
    await agenda.getByTestId('agenda-entry').last().click();
    await expect(page.getByTestId('task-panel')).toBeVisible();
  });
});


/** How many students the teacher has now: other specs on the same database add some. */
async function studentCount(page: Page): Promise<number> {
  return page.evaluate(async () => {
    const res = await fetch('/api/students', { headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` } });
    return ((await res.json()) as { data: unknown[] }).data.length;
  });
}

test('the calendar by keyboard: one tab stop, arrows move the day, Enter opens the dialog, Tab leaves', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await loginAs(page, DEMO.teacher.email);
  await calendarReady(page);
  const today = berlinToday();
  const grid = page.getByTestId('task-calendar');
  // Exactly one day is a tab stop; entries and '+N' are not.
  await expect(grid.locator('.uk-day[tabindex="0"]')).toHaveCount(1);
  await expect(grid.locator('.uk-day[tabindex="0"]')).toHaveAttribute('data-date', today);
  expect(await grid.locator('.uk-ev[tabindex="0"], .uk-more[tabindex="0"], .uk-day-button').count()).toBe(0);

  // From the toolbar's 'next' button one Tab reaches the grid (today).
  await grid.locator('.uk-cal-btn--next').focus();
  await page.keyboard.press('Tab');
  await expect(page.locator(`.uk-day[data-date="${today}"]`)).toBeFocused();
  // The day is named by its date in words and its count, once, then its entries.
  const year = today.slice(0, 4);
  const named = page.locator(`.uk-day[data-date="${today}"]`);
  await expect(named).toHaveAccessibleName(new RegExp(`^[A-Za-zäöüß]+, \\d{1,2}\\. [A-Za-zä]+ ${year}, (keine Aufgaben|\\d+ Aufgaben?)`));
  // (entries name their due date as dd.mm.yyyy: a second ' <year>' would be FullCalendar's own date text)
  await expect(named).not.toHaveAccessibleName(new RegExp(` ${year}.* ${year}`));
  await page.keyboard.press('ArrowRight');
  await expect(page.locator(`.uk-day[data-date="${addDays(today, 1)}"]`)).toBeFocused();
  await page.keyboard.press('ArrowDown');
  const target = addDays(today, 8);
  await expect(page.locator(`.uk-day[data-date="${target}"]`)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator(`.uk-day[data-date="${today}"]`)).toBeFocused();
  // Across months: PageDown goes to the same day next month (the grid turns the page).
  await page.keyboard.press('PageDown');
  await expect(page.locator('.uk-day:focus')).toHaveCount(1);
  const next = await page.locator('.uk-day:focus').getAttribute('data-date');
  expect(next!.slice(0, 7)).not.toBe(today.slice(0, 7));
  await page.keyboard.press('PageUp');
  await expect(page.locator(`.uk-day[data-date="${today}"]`)).toBeFocused();

  // Enter opens the assignment dialog for the focused day (SPEC.md: a day click does).
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  const long = new Intl.DateTimeFormat('de-DE', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${addDays(today, 1)}T12:00:00Z`),
  );
  await expect(dialog.getByRole('heading', { name: `Aufgabe für ${long}` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Abbrechen' }).click();
  await expect(dialog).toBeHidden();

  // Focus back in the grid; one Tab leaves it for the button naming the focused day, which opens its agenda.
  await page.locator(`.uk-day[data-date="${addDays(today, 1)}"]`).focus();
  await page.keyboard.press('Tab');
  const showDay = page.getByTestId('calendar-show-day');
  await expect(showDay).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('teacher-agenda').getByRole('heading', { level: 2 })).toBeFocused();
  // The rest of the page is reachable: a few more Tabs reach the recent students.
  let reached = false;
  for (let i = 0; i < 60 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="recent-students"]')));
  }
  expect(reached).toBe(true);
});

test('the students list shows progress figures and sorts by them', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await loginAs(page, DEMO.teacher.email);
  await page.goto('/students');
  const rows = page.getByTestId('student-card');
  const students = await studentCount(page);
  expect(students).toBeGreaterThanOrEqual(DEMO.students.length);
  await expect(rows).toHaveCount(students);
  // The figures match the API answer.
  const progress = (await page.evaluate(async () => {
    const res = await fetch('/api/students/progress', { headers: { authorization: `Bearer ${localStorage.getItem('token') ?? ''}` } });
    return res.json();
  })) as { data: Array<{ student_id: number; week_minutes: number; open_count: number; overdue_count: number; last_practice_at: string | null }> };
  expect(progress.data).toHaveLength(students);
  for (const p of progress.data) {
    const row = page.locator(`[data-testid="student-card"][data-student-id="${p.student_id}"]`);
    await expect(row.getByTestId('progress-open')).toHaveText(String(p.open_count));
    await expect(row.getByTestId('progress-overdue')).toHaveText(String(p.overdue_count));
    const m = Math.round(p.week_minutes);
    await expect(row.getByTestId('progress-week')).toHaveText(m < 60 ? `${m} min` : `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')} h`);
  }
  const ids = async () => (await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-student-id')))));
  const expected = (key: 'open_count' | 'overdue_count' | 'week_minutes', dir: 1 | -1) =>
    [...progress.data].sort((a, b) => dir * (a[key] - b[key])).map((p) => p[key]);
  const valuesOf = async (key: 'open_count' | 'overdue_count' | 'week_minutes') => {
    const byId = new Map(progress.data.map((p) => [p.student_id, p[key]]));
    return (await ids()).map((id) => byId.get(id));
  };

  await page.getByTestId('sort-overdue').click();
  await expect(page.getByRole('columnheader', { name: /Überfällig/ })).toHaveAttribute('aria-sort', 'descending');
  expect(await valuesOf('overdue_count')).toEqual(expected('overdue_count', -1));
  await page.getByTestId('sort-overdue').click();
  await expect(page.getByRole('columnheader', { name: /Überfällig/ })).toHaveAttribute('aria-sort', 'ascending');
  expect(await valuesOf('overdue_count')).toEqual(expected('overdue_count', 1));
  await page.getByTestId('sort-week').click();
  expect(await valuesOf('week_minutes')).toEqual(expected('week_minutes', 1));
  await page.getByTestId('sort-open').click();
  expect(await valuesOf('open_count')).toEqual(expected('open_count', -1));

  // Phone: the sort is a select.
  await page.setViewportSize(PHONE);
  await page.getByTestId('sort-select').selectOption('overdue');
  expect(await valuesOf('overdue_count')).toEqual(expected('overdue_count', -1));
});

test('the assignment dialog on a phone: the footer covers no student, the search filters', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await loginAs(page, DEMO.teacher.email);
  await calendarReady(page);
  const today = berlinToday();
  await page.locator(`.uk-day[data-date="${today}"]`).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  const students = await studentCount(page);
  await expect(dialog.getByTestId('student-list').getByRole('listitem')).toHaveCount(students);
  await settle(page);

  // The footer sits at the dialog's bottom edge: no content shows below it.
  const footer = dialog.getByTestId('assignment-footer');
  const scroller = footer.locator('xpath=ancestor::div[contains(@class,"overflow-y-auto")][1]');
  const gap = await footer.evaluate((el) => {
    const panel = el.closest('[id^="headlessui-dialog-panel"]') ?? el.parentElement!.parentElement!.parentElement!;
    return panel.getBoundingClientRect().bottom - el.getBoundingClientRect().bottom;
  });
  expect(Math.abs(gap)).toBeLessThanOrEqual(1);
  // Scrolled to the end (dialog and list): the last student row is fully above the footer.
  await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  const list = dialog.getByTestId('student-list');
  await list.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  const last = list.getByRole('listitem').last();
  const lastBox = (await last.boundingBox())!;
  const footerBox = (await footer.boundingBox())!;
  expect(lastBox.y + lastBox.height).toBeLessThanOrEqual(footerBox.y + 0.5);
  await expect(last.getByRole('checkbox')).toBeVisible();
  await last.getByRole('checkbox').check();
  await expect(dialog.getByTestId('selected-count')).toHaveText('1 Schüler ausgewählt');
  await shot(page, FEATURE, 'assignment-dialog-end-de-phone', { fullPage: false });

  // The search filters the list (labelled field).
  const search = dialog.getByLabel('Schüler suchen');
  await search.fill('kaya');
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(list).toContainText('Elif Kaya');
  await search.fill('niemand');
  await expect(list).toContainText('Kein Schüler passt zu „niemand“.');
  await search.fill('');
  await expect(list.getByRole('listitem')).toHaveCount(students);
  await expectNoSeriousAxe(page, '[role="dialog"]');
});

test('screens of the teacher day, German and Turkish, desktop and phone', async ({ page }) => {
  test.setTimeout(300_000);
  await loginAs(page, DEMO.teacher.email);
  await eachLanguageAndSize(page, async (lang, size) => {
    await page.goto('/');
    await calendarReady(page);
    await expect(page.getByTestId('teacher-agenda').getByTestId('agenda-day').first()).toBeVisible();
    await expectNoSeriousAxe(page, 'main');
    await shot(page, FEATURE, `dashboard-${lang}-${size}`);
    await page.getByTestId('teacher-agenda').getByTestId('agenda-entry').first().click();
    await expect(page.getByTestId('task-panel').getByTestId('review-form')).toBeVisible();
    await settle(page);
    await expectNoSeriousAxe(page, '[data-testid="task-panel"]');
    await shot(page, FEATURE, `panel-${lang}-${size}`, { fullPage: false });
    await page.keyboard.press('Escape');

    await page.goto('/students');
    await expect(page.getByTestId('student-card').first().getByTestId('progress-open')).not.toBeEmpty();
    await expectNoSeriousAxe(page, 'main');
    await shot(page, FEATURE, `students-${lang}-${size}`);

    await page.getByTestId('student-card').first().getByRole('link').first().click();
    await expect(page.getByTestId('student-name')).toBeVisible();
    await expect(page.getByTestId('recent-submissions')).toBeVisible();
    await expectNoSeriousAxe(page, 'main');
    await shot(page, FEATURE, `student-detail-${lang}-${size}`);
    const open = page.locator('[data-testid$="-open"][data-testid^="recent-"]').first();
    if ((await open.count()) > 0) {
      await open.click();
      await expect(page.getByTestId('task-panel')).toBeVisible();
      await page.keyboard.press('Escape');
    }

    await page.goto('/');
    await calendarReady(page);
    const today = berlinToday();
    await page.locator(`.uk-day[data-date="${today}"]`).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog').getByTestId('student-list')).toBeVisible();
    await settle(page);
    await shot(page, FEATURE, `assignment-dialog-${lang}-${size}`, { fullPage: false });
    await page.keyboard.press('Escape');
  });
});

test('the calendar takes its placeholder’s place: nothing below it moves when it arrives (phone and desktop)', async ({ page }) => {
  await loginAs(page, DEMO.teacher.email);
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    // The calendar's chunk is held back until the placeholder has been measured.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/TaskCalendar-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    // In view, as a teacher scrolls to it (on a phone the calendar loads only when it is seen); the
    // placeholder measured once its height stays the same (the page may swap one for another).
    const place = '[data-testid="task-calendar"], [data-testid="calendar-skeleton"]';
    const toPlace = () => page.evaluate((sel) => document.querySelector(sel)?.scrollIntoView({ block: 'center' }), place);
    const skeleton = page.getByTestId('calendar-skeleton');
    let last = -1;
    const before = { height: 0 };
    await expect
      .poll(async () => {
        await toPlace();
        const h = (await skeleton.boundingBox())?.height ?? 0;
        const stable = h > 200 && h === last;
        last = h;
        before.height = h;
        return stable;
      })
      .toBe(true);
    release();
    await toPlace();
    const grid = page.getByTestId('task-calendar');
    await expect(grid.locator('.uk-day[data-date]').first(), `${size.width} px`).toBeVisible();
    // the grid itself (toolbar, header, six weeks), without the day button below it
    const after = await grid.evaluate((el) => {
      const fc = el.querySelector('.uk-fc')!.getBoundingClientRect();
      return { height: fc.height };
    });
    expect(Math.abs(after.height - before.height), `${size.width} px: placeholder ${before.height} px, calendar ${after.height} px`).toBeLessThanOrEqual(1);
    await page.unroute(/\/assets\/TaskCalendar-[^/]+\.js$/);
  }
});
