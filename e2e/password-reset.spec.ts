import type { APIRequestContext } from '@playwright/test';
import { DEMO, PHONE, expect, expectNoSeriousAxe, loginAs, setLanguage, shot, test } from './fixtures';
import { linkPath, mailScreenshot, mailsTo } from './mail';

/**
 * "Passwort vergessen?" end to end (docs/decisions/password-reset.md): from the sign-in page to a
 * real mail (the app sends it to the tests' SMTP server, e2e/mail-sink.ts), its link followed in
 * the browser, the new password set; the other device's session ends, the link works once. In
 * German and in Turkish, on a phone.
 */


async function freshStudent(request: APIRequestContext, tag: string) {
  const login = await request.post('/api/login', { data: { email: DEMO.teacher.email, password: DEMO.teacher.password } });
  const auth = { Authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const student = { email: `vergessen-${tag}-${Date.now()}@example.com`, name: `Lina ${tag}`, password: 'alt-passwort-1' };
  const made = await request.post('/api/students', { headers: auth, data: student });
  expect(made.status(), await made.text()).toBe(201);
  return student;
}

test('a student who forgot the password gets a mail, follows its link, sets a new one and is signed in; the other device is signed out', async ({ page, browser, request }) => {
  const student = await freshStudent(request, 'de');
  // another device, signed in with the old password
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await loginAs(otherPage, student.email, student.password);

  await page.setViewportSize(PHONE);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
  await expect(page).toHaveURL(/\/passwort-vergessen$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Passwort vergessen?' })).toBeVisible();
  await expect(page.getByTestId('student-hint')).toContainText('Schülerinnen und Schüler fragen bitte ihre Lehrkraft');
  await expectNoSeriousAxe(page);
  await shot(page, 'password-reset', 'forgot-de-phone');

  // by keyboard: the field, then Enter
  await page.getByLabel('E-Mail-Adresse').fill(student.email.toUpperCase());
  await page.getByLabel('E-Mail-Adresse').press('Enter');
  // the answer takes the focus (checked in the document: with a second browser window open, this one need not be the active window)
  await expect(page.getByRole('heading', { name: 'Bitte ins Postfach schauen' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Bitte ins Postfach schauen');
  await expect(page.getByTestId('reset-requested-message')).toContainText('ist ein Link zum Festlegen eines neuen Passworts unterwegs');
  await shot(page, 'password-reset', 'requested-de-phone');

  const [mail] = await mailsTo(request, student.email);
  expect(mail!.subject).toBe('Übungskontrolle: Neues Passwort festlegen');
  expect(mail!.from).toBe('post@example.test');
  expect(mail!.headers['content-language']).toBe('de');
  expect(mail!.text).toContain(`Hallo ${student.name},`);
  await mailScreenshot(page, mail!, 'password-reset', 'mail-de');

  const path = linkPath(mail!, '/passwort-neu/');
  await page.goto(path);
  await expect(page.getByRole('heading', { name: `Hallo ${student.name}!` })).toBeVisible();
  await expect(page.getByTestId('reset-account')).toHaveText(student.email);
  await expectNoSeriousAxe(page);
  await shot(page, 'password-reset', 'reset-de-phone');
  await page.getByLabel('Neues Passwort', { exact: true }).fill('neu-gesetzt-2026');
  await page.getByLabel('Neues Passwort wiederholen').fill('neu-gesetzt-2026');
  await page.getByRole('button', { name: 'Passwort speichern' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  await expect(page.getByTestId('user-name').first()).toHaveText(student.name);
  await expect(page.getByText('Das neue Passwort ist gespeichert.')).toBeVisible();

  // the other device's session has ended: its next call is answered 401 and it lands at the sign-in page
  await otherPage.reload();
  await otherPage.waitForURL((url) => url.pathname === '/login');
  await other.close();

  // the old password no longer works, the new one does
  expect((await request.post('/api/login', { data: { email: student.email, password: student.password } })).status()).toBe(401);
  expect((await request.post('/api/login', { data: { email: student.email, password: 'neu-gesetzt-2026' } })).status()).toBe(200);

  // the link works once
  const fresh = await browser.newContext({ viewport: PHONE });
  const again = await fresh.newPage();
  await again.goto(path);
  await expect(again.getByRole('heading', { name: 'Link ungültig oder abgelaufen' })).toBeVisible();
  await again.getByRole('link', { name: 'Neuen Link anfordern' }).click();
  await expect(again).toHaveURL(/\/passwort-vergessen$/);
  await fresh.close();
});

test('in Turkish: the page, the answer and the mail', async ({ page, request }) => {
  const student = await freshStudent(request, 'tr');
  await page.setViewportSize(PHONE);
  await setLanguage(page, 'tr');
  await page.getByRole('link', { name: 'Şifremi unuttum' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Şifremi unuttum' })).toBeVisible();
  await expectNoSeriousAxe(page);
  await shot(page, 'password-reset', 'forgot-tr-phone');
  await page.getByLabel('E-posta adresi').fill(student.email);
  await page.getByRole('button', { name: 'Bağlantıyı gönder' }).click();
  await expect(page.getByRole('heading', { name: 'Bağlantı yolda olabilir' })).toBeVisible();

  const [mail] = await mailsTo(request, student.email);
  expect(mail!.subject).toBe('Übungskontrolle: yeni şifre belirleyin');
  expect(mail!.headers['content-language']).toBe('tr');
  expect(mail!.text).toContain(`Merhaba ${student.name},`);
  await mailScreenshot(page, mail!, 'password-reset', 'mail-tr');

  await page.goto(linkPath(mail!, '/passwort-neu/'));
  await expect(page.getByRole('heading', { name: `Merhaba ${student.name}!` })).toBeVisible();
  await shot(page, 'password-reset', 'reset-tr-phone');
  await page.getByLabel('Yeni şifre', { exact: true }).fill('kisa');
  await page.getByRole('button', { name: 'Şifreyi kaydet' }).click();
  await expect(page.getByText('Şifre en az 8 karakter olmalıdır.')).toBeVisible();
  await expect(page.getByLabel('Yeni şifre', { exact: true })).toBeFocused();
});
