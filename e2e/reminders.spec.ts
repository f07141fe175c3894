import { createHmac } from 'node:crypto';
import { feedbackDigestMailContent, reminderMailContent, weeklyNoteMailContent } from '../server/lib/mail';
import { DEMO, DESKTOP, PHONE, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, test } from './fixtures';
import { linkPath, mailScreenshot } from './mail';

/**
 * The daily practice reminder in the browser (docs/decisions/reminders.md): the student sets a
 * time behind the bell (the night is not offered), the choice stays; the page of a reminder mail's
 * "Abbestellen" link ends it with one button. (What the mail says and when the job sends it is
 * tested with a real mail server and a moved clock in server/modules/reminders/reminders.test.ts.)
 */

/** The server's APP_SECRET in the browser tests (playwright.config.ts), with which the unsubscribe links are signed. */
const APP_SECRET = 'e2e-app-secret-0123456789abcdefghijklmnop';
const unsubscribeToken = (userId: number) => `${userId}.practice.${createHmac('sha256', APP_SECRET).update(`unsubscribe:${userId}:practice`).digest('base64url')}`;

test('a student sets a daily reminder (the night is not offered) that stays; the unsubscribe page of the mail ends it', async ({ page, request, browser }) => {
  const login = await request.post('/api/login', { data: { email: DEMO.teacher.email, password: DEMO.teacher.password } });
  const auth = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const student = { email: `erinnerung-${Date.now()}@example.com`, name: 'Nele Erinnerung', password: 'erinnern-123' };
  const made = await request.post('/api/students', { headers: auth, data: student });
  expect(made.status(), await made.text()).toBe(201);
  const { id } = (await made.json()) as { id: number };

  await page.setViewportSize(DESKTOP);
  await loginAs(page, student.email, student.password);
  await page.getByTestId('notifications-link').click();
  await expect(page).toHaveURL(/\/benachrichtigungen$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Benachrichtigungen' })).toBeVisible();
  const card = page.getByTestId('reminder-settings');
  await expect(card.getByTestId('reminder-status')).toHaveText('Aus');
  await expect(card).toContainText(`E-Mail an ${student.email}`);

  const time = card.getByLabel('Uhrzeit', { exact: true });
  await expect(time).toBeDisabled();
  await card.getByLabel('Erinnerung per E-Mail').check();
  // the night is not offered
  await expect(time.locator('option[value="22:30"]')).toHaveCount(0);
  await expect(time.locator('option').first()).toHaveText('07:00');
  await time.selectOption('16:45');
  await card.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Gespeichert: Erinnerung täglich um 16:45 Uhr.')).toBeVisible();
  await expect(card.getByTestId('reminder-status')).toHaveText('Aktiv: täglich um 16:45 Uhr');
  await expectNoSeriousAxe(page);
  await shot(page, 'reminders', 'settings-de-desktop');

  // the feedback digest beside it
  const digest = page.getByTestId('feedback-digest-settings');
  await digest.getByLabel('Feedback-Zusammenfassung per E-Mail').check();
  await digest.getByRole('button', { name: 'Speichern' }).click();
  await expect(digest.getByTestId('feedback-digest-status')).toHaveText('Aktiv: täglich um 18:00 Uhr');

  await page.reload();
  await expect(page.getByTestId('feedback-digest-status')).toHaveText('Aktiv: täglich um 18:00 Uhr');
  await expect(page.getByTestId('reminder-status')).toHaveText('Aktiv: täglich um 16:45 Uhr');
  await expect(page.getByLabel('Uhrzeit', { exact: true })).toHaveValue('16:45');

  await page.setViewportSize(PHONE);
  await setLanguage(page, 'tr');
  await expect(page.getByRole('heading', { level: 1, name: 'Bildirimler' })).toBeVisible();
  await expect(page.getByTestId('reminder-status')).toHaveText('Açık: her gün saat 16:45');
  await expectNoSeriousAxe(page);
  await shot(page, 'reminders', 'settings-tr-phone');

  // the reminder as the server writes it (server/lib/mail.ts), with this student's link, as the mail program shows it
  const origin = new URL(page.url()).origin;
  const reminderFor = (lang: 'de' | 'tr') => ({
    from: 'post@example.test',
    to: [student.email],
    ...reminderMailContent({
      to: student.email,
      name: student.name,
      lang,
      audience: 'student',
      tasks: [
        { title: 'Tonleiter in G-Dur', dueDate: '2026-11-27', url: `${origin}/submissions/1`, child: null },
        { title: 'Hicaz Peşrev, erste Hane', dueDate: '2026-11-25', url: `${origin}/submissions/2`, child: null },
      ],
      listUrl: `${origin}/submissions`,
      more: lang === 'tr' ? 2 : 0,
      reminderTime: '16:45',
      today: '2026-11-27',
      unsubscribePage: `${origin}/abmelden/${unsubscribeToken(id)}`,
      unsubscribeUrl: `${origin}/api/unsubscribe/${unsubscribeToken(id)}`,
    }),
  });
  const reminder = reminderFor('de');
  await mailScreenshot(page, reminder, 'reminders', 'mail-reminder-de');
  await mailScreenshot(page, reminderFor('tr'), 'reminders', 'mail-reminder-tr');
  // the daily digest of feedback and messages, as the server writes it
  for (const lang of ['de', 'tr'] as const) {
    const digestToken = `${id}.digest.${createHmac('sha256', APP_SECRET).update(`unsubscribe:${id}:digest`).digest('base64url')}`;
    await mailScreenshot(
      page,
      {
        from: 'post@example.test',
        to: [student.email],
        ...feedbackDigestMailContent({
          to: student.email,
          name: student.name,
          lang,
          audience: 'student',
          items: [{ child: null, task: 'Hicaz Peşrev, erste Hane', teacher: 'Mehmet Yılmaz', url: `${origin}/submissions/2?take=7&t=12500#comment-3` }],
          more: 0,
          messages: [{ child: null, count: 2, url: `${origin}/nachrichten/${id}` }],
          time: '18:00',
          unsubscribePage: `${origin}/abmelden/${digestToken}`,
          unsubscribeUrl: `${origin}/api/unsubscribe/${digestToken}`,
        }),
      },
      'reminders',
      `mail-digest-${lang}`,
    );
  }

  // its "Abbestellen" link, opened on another device without signing in
  const other = await browser.newContext({ viewport: PHONE, locale: 'de-DE' });
  const mailPage = await other.newPage();
  await mailPage.goto(linkPath(reminder, '/abmelden/'));
  await expect(mailPage.getByRole('heading', { name: `Keine Übungserinnerungen mehr für ${student.name}?` })).toBeVisible();
  await expectNoSeriousAxe(mailPage);
  await shot(mailPage, 'reminders', 'unsubscribe-de-phone');
  await mailPage.getByRole('button', { name: 'Erinnerungen abbestellen' }).click();
  await expect(mailPage.getByText(`${student.name} bekommt keine Übungserinnerungen mehr.`)).toBeVisible();
  await shot(mailPage, 'reminders', 'unsubscribed-de-phone');
  // a forged link says so
  await mailPage.goto(`/abmelden/${id}.practice.${'A'.repeat(43)}`);
  await expect(mailPage.getByRole('heading', { name: 'Link ungültig' })).toBeVisible();
  await other.close();

  await page.reload();
  await expect(page.getByTestId('reminder-status')).toHaveText('Kapalı');
});

test('a parent turns the weekly note on from the phone menu; its unsubscribe link turns it off', async ({ page, request, browser }) => {
  const login = await request.post('/api/login', { data: { email: 'eltern@example.com', password: DEMO.teacher.password } });
  const { user } = (await login.json()) as { user: { id: number; name: string } };

  await page.setViewportSize(PHONE);
  await loginAs(page, 'eltern@example.com');
  await page.getByRole('button', { name: 'Menü öffnen' }).click();
  await page.getByRole('dialog').getByTestId('notifications-link').click();
  await expect(page).toHaveURL(/\/benachrichtigungen$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Benachrichtigungen' })).toBeVisible();
  const card = page.getByTestId('weekly-note-settings');
  await expect(card.getByTestId('weekly-note-status')).toHaveText('Aus');
  await card.getByLabel('Wochenbericht per E-Mail erhalten').check();
  await card.getByRole('button', { name: 'Speichern' }).click();
  await expect(page.getByText('Gespeichert: Der Wochenbericht kommt jeden Sonntag.')).toBeVisible();
  await expect(card.getByTestId('weekly-note-status')).toHaveText('Aktiv: sonntags um 17:00 Uhr');
  await expectNoSeriousAxe(page);
  await shot(page, 'reminders', 'weekly-de-phone');
  await setLanguage(page, 'tr');
  await expect(page.getByTestId('weekly-note-status')).toHaveText('Açık: pazar günleri saat 17:00');
  await shot(page, 'reminders', 'weekly-tr-phone');

  const token = `${user.id}.weekly.${createHmac('sha256', APP_SECRET).update(`unsubscribe:${user.id}:weekly`).digest('base64url')}`;
  const origin = new URL(page.url()).origin;
  const children = [
    { name: 'Ayşe Demir', teacher: 'Mehmet Yılmaz', minutes: 95, plannedMinutes: 120, done: 4, open: 1, newFeedback: 1, url: `${origin}/children/2`,
      lessonNote: { text: 'Heute am Rast-Taksim gearbeitet: Segâh ruhiger anspielen, bis Dienstag täglich 10 Minuten lange Töne.', date: '2026-11-26' } },
    { name: 'Can Demir', teacher: 'Mehmet Yılmaz', minutes: 0, plannedMinutes: 0, done: 0, open: 0, newFeedback: 0, url: `${origin}/children/3`, lessonNote: null },
  ];
  const note = (lang: 'de' | 'tr') => ({
    from: 'post@example.test',
    to: ['eltern@example.com'],
    ...weeklyNoteMailContent({
      to: 'eltern@example.com',
      name: user.name,
      lang,
      from: '2026-11-23',
      until: '2026-11-29',
      children,
      time: '17:00',
      unsubscribePage: `${origin}/abmelden/${token}`,
      unsubscribeUrl: `${origin}/api/unsubscribe/${token}`,
    }),
  });
  // the parent's practice reminder, as the server writes it: each child who has not practised, linked to the child's page
  const practiceToken = `${user.id}.practice.${createHmac('sha256', APP_SECRET).update(`unsubscribe:${user.id}:practice`).digest('base64url')}`;
  for (const lang of ['de', 'tr'] as const) {
    await mailScreenshot(
      page,
      {
        from: 'post@example.test',
        to: ['eltern@example.com'],
        ...reminderMailContent({
          to: 'eltern@example.com',
          name: user.name,
          lang,
          audience: 'guardian',
          tasks: [{ title: 'Rast-Taksim', dueDate: '2026-11-27', url: `${origin}/children/2`, child: 'Ayşe Demir' }],
          listUrl: `${origin}/`,
          more: 0,
          reminderTime: '18:00',
          today: '2026-11-27',
          unsubscribePage: `${origin}/abmelden/${practiceToken}`,
          unsubscribeUrl: `${origin}/api/unsubscribe/${practiceToken}`,
        }),
      },
      'reminders',
      `mail-reminder-parent-${lang}`,
    );
  }
  await mailScreenshot(page, note('de'), 'reminders', 'mail-weekly-de');
  await mailScreenshot(page, note('tr'), 'reminders', 'mail-weekly-tr');
  const other = await browser.newContext({ viewport: PHONE, locale: 'de-DE' });
  const mailPage = await other.newPage();
  await mailPage.goto(linkPath(note('de'), '/abmelden/'));
  await expect(mailPage.getByRole('heading', { name: `Keinen Wochenbericht mehr an ${user.name}?` })).toBeVisible();
  await mailPage.getByRole('button', { name: 'Wochenbericht abbestellen' }).click();
  await expect(mailPage.getByText(`${user.name} bekommt keinen Wochenbericht mehr.`)).toBeVisible();
  await other.close();
  await page.reload();
  await expect(page.getByTestId('weekly-note-status')).toHaveText('Kapalı');
});
