import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { PasswordResetPublic } from '@contract/password-reset';
import i18n from '@web/lib/i18n';
import { createQueryClient } from '@web/lib/query-client';
import { authStore } from '@web/lib/auth/auth-store';
import { jsonResponse, stubFetch } from '@web/test/render';
import Root from '../root';
import ForgotPasswordScreen from './forgot-password';
import ResetPasswordScreen from './reset-password';

vi.mock('@web/lib/navigation', () => ({ reloadTo: vi.fn() }));
const { reloadTo } = await import('@web/lib/navigation');
vi.setConfig({ testTimeout: 20_000 });

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const link: PasswordResetPublic = { name: 'Lina Sommer', email: 'lina@example.com', expires_at: '2026-12-04T09:30:00.000Z' };
const user = { id: 7, name: 'Lina Sommer', email: 'lina@example.com', role: { name: 'student' } };
const SENT = 'Wenn es zu dieser E-Mail-Adresse ein Konto gibt, ist ein Link zum Festlegen eines neuen Passworts unterwegs. Er ist eine Stunde gültig.';

const server = stubFetch;

function renderAt(path: string) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  const router = createMemoryRouter(
    [
      {
        element: <Root />,
        children: [
          { path: '/passwort-vergessen', element: <ForgotPasswordScreen /> },
          { path: '/passwort-neu/:token', element: <ResetPasswordScreen /> },
          { path: '/login', element: <p>Anmeldeseite</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return router;
}

/** The input labelled exactly so (a required field's label may carry a mark after the text). */
const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}\\W*$`), { selector: 'input' });

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  authStore.clear();
  vi.mocked(reloadTo).mockClear();
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('Passwort vergessen?', () => {
  it('checks the address, sends it, and shows the answer with the focus on it', async () => {
    // a window that draws no frames (a background tab, a second window) still moves the focus
    vi.stubGlobal('requestAnimationFrame', () => 0);
    const calls = server(() => jsonResponse(200, { message: SENT, mailed: true }));
    const u = userEvent.setup();
    renderAt('/passwort-vergessen');
    expect(await screen.findByRole('heading', { level: 1, name: 'Passwort vergessen?' })).toBeInTheDocument();
    expect(screen.getByTestId('student-hint')).toHaveTextContent('Schülerinnen und Schüler fragen bitte ihre Lehrkraft');

    await u.click(screen.getByRole('button', { name: 'Link senden' }));
    expect(await screen.findByText('Bitte die E-Mail-Adresse eingeben.')).toBeInTheDocument();
    expect(field('E-Mail-Adresse')).toHaveFocus();
    await u.type(field('E-Mail-Adresse'), 'keine-adresse');
    await u.click(screen.getByRole('button', { name: 'Link senden' }));
    expect(await screen.findByText('Bitte eine gültige E-Mail-Adresse eingeben.')).toBeInTheDocument();
    expect(calls).toHaveLength(0);

    await u.clear(field('E-Mail-Adresse'));
    await u.type(field('E-Mail-Adresse'), ' lina@example.com ');
    await u.click(screen.getByRole('button', { name: 'Link senden' }));
    const heading = await screen.findByRole('heading', { name: 'Bitte ins Postfach schauen' });
    await waitFor(() => expect(heading).toHaveFocus());
    expect(screen.getByTestId('reset-requested-message')).toHaveTextContent(SENT);
    expect(calls).toEqual([{ url: '/api/password-reset', method: 'POST', body: { email: 'lina@example.com' } }]);

    await u.click(screen.getByRole('button', { name: 'Andere Adresse eingeben' }));
    await waitFor(() => expect(field('E-Mail-Adresse')).toHaveFocus());
  });

  it('says so when the school sends no e-mails, and shows the server refusing (429) in place', async () => {
    let answer = jsonResponse(429, { message: 'Zu viele Versuche. Bitte warten Sie einen Moment.' });
    server(() => answer);
    const u = userEvent.setup();
    renderAt('/passwort-vergessen');
    await u.type(await screen.findByLabelText('E-Mail-Adresse', { exact: false, selector: 'input' }), 'lina@example.com');
    await u.click(screen.getByRole('button', { name: 'Link senden' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Zu viele Versuche. Bitte warten Sie einen Moment.');
    answer = jsonResponse(200, { message: 'Diese Schule verschickt keine E-Mails. Bitte wenden Sie sich an Ihre Lehrkraft.', mailed: false });
    await u.click(screen.getByRole('button', { name: 'Link senden' }));
    expect(await screen.findByRole('heading', { name: 'Kein Versand per E-Mail' })).toBeInTheDocument();
    expect(screen.getByTestId('reset-requested-message')).toHaveTextContent('Diese Schule verschickt keine E-Mails.');
    expect(screen.queryByRole('button', { name: 'Andere Adresse eingeben' })).not.toBeInTheDocument();
  });

  it('is translated to Turkish', async () => {
    await i18n.changeLanguage('tr');
    server(() => jsonResponse(200, { message: 'x', mailed: true }));
    renderAt('/passwort-vergessen');
    expect(await screen.findByRole('heading', { level: 1, name: 'Şifremi unuttum' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Bağlantıyı gönder' })).toBeInTheDocument();
    expect(screen.getByTestId('student-hint')).toHaveTextContent('öğrenciler öğretmenlerine sorabilir');
  });
});

describe('the link of the mail', () => {
  it('greets by name, checks the password twice, signs in with the answer and reloads at /', async () => {
    const calls = server((c) => (c.method === 'GET' ? jsonResponse(200, link) : jsonResponse(200, { token: 'fresh-token', user })));
    const u = userEvent.setup();
    renderAt(`/passwort-neu/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Hallo Lina Sommer!' })).toBeInTheDocument();
    expect(screen.getByTestId('reset-account')).toHaveTextContent('lina@example.com');
    expect(field('Neues Passwort')).toHaveAccessibleDescription('Mindestens 8 Zeichen.');

    await u.type(field('Neues Passwort'), 'kurz');
    await u.click(screen.getByRole('button', { name: 'Passwort speichern' }));
    expect(await screen.findByText('Das Passwort muss mindestens 8 Zeichen lang sein.')).toBeInTheDocument();
    await u.type(field('Neues Passwort'), '-genug');
    await u.type(field('Neues Passwort wiederholen'), 'anders-1234');
    await u.click(screen.getByRole('button', { name: 'Passwort speichern' }));
    expect(await screen.findByText('Die Passwörter stimmen nicht überein.')).toBeInTheDocument();
    expect(field('Neues Passwort wiederholen')).toHaveFocus();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await u.clear(field('Neues Passwort wiederholen'));
    await u.type(field('Neues Passwort wiederholen'), 'kurz-genug');
    await u.click(screen.getByRole('button', { name: 'Passwort speichern' }));
    await waitFor(() => expect(reloadTo).toHaveBeenCalledWith('/'));
    expect(calls.find((c) => c.method === 'POST')).toEqual({ url: `/api/password-reset/${TOKEN}`, method: 'POST', body: { password: 'kurz-genug' } });
    expect(localStorage.getItem('token')).toBe('fresh-token');
    expect(authStore.get().user).toEqual(user);
    expect(sessionStorage.getItem('flashToast')).toContain('Das neue Passwort ist gespeichert.');
  });

  it('says when the link is used or expired and offers a new one; a malformed link asks nothing', async () => {
    server(() => jsonResponse(404, { message: 'Dieser Link ist ungültig oder abgelaufen.' }));
    const u = userEvent.setup();
    const router = renderAt(`/passwort-neu/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Link ungültig oder abgelaufen' })).toBeInTheDocument();
    await u.click(screen.getByRole('link', { name: 'Neuen Link anfordern' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/passwort-vergessen'));

    vi.unstubAllGlobals();
    const calls = server(() => jsonResponse(200, link));
    renderAt('/passwort-neu/kaputt');
    expect(await screen.findAllByRole('heading', { name: 'Link ungültig oder abgelaufen' })).not.toHaveLength(0);
    expect(calls).toHaveLength(0);
  });

  it('a link used up meanwhile says so on saving; a failed check can be retried', async () => {
    let get = jsonResponse(500, { message: 'Serverfehler' });
    server((c) => (c.method === 'GET' ? get : jsonResponse(404, { message: 'weg' })));
    const u = userEvent.setup();
    renderAt(`/passwort-neu/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Der Link konnte nicht geprüft werden' })).toBeInTheDocument();
    get = jsonResponse(200, link);
    await u.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    await u.type(await screen.findByLabelText(/^Neues Passwort\W*$/, { selector: 'input' }), 'geheim-1234');
    await u.type(field('Neues Passwort wiederholen'), 'geheim-1234');
    await u.click(screen.getByRole('button', { name: 'Passwort speichern' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Dieser Link ist ungültig oder abgelaufen. Ein neuer lässt sich einfach anfordern.');
    expect(reloadTo).not.toHaveBeenCalled();
  });

  it('asks a signed-in browser to sign out first', async () => {
    authStore.setSession('old-token', { id: 1, name: 'Mehmet Yılmaz', email: 'lehrer@example.com', role: { name: 'teacher' } });
    const calls = server((c) => (c.url === '/api/logout' ? new Response(null, { status: 204 }) : jsonResponse(200, link)));
    const u = userEvent.setup();
    renderAt(`/passwort-neu/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'In diesem Browser ist schon jemand angemeldet' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await u.click(screen.getByRole('button', { name: 'Abmelden und fortfahren' }));
    expect(await screen.findByRole('heading', { name: 'Hallo Lina Sommer!' })).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/logout', `GET /api/password-reset/${TOKEN}`]);
  });

  it('is translated to Turkish', async () => {
    await i18n.changeLanguage('tr');
    server(() => jsonResponse(200, link));
    renderAt(`/passwort-neu/${TOKEN}`);
    expect(await screen.findByRole('heading', { name: 'Merhaba Lina Sommer!' })).toBeInTheDocument();
    expect(field('Yeni şifre')).toHaveAccessibleDescription('En az 8 karakter.');
    expect(screen.getByRole('button', { name: 'Şifreyi kaydet' })).toBeInTheDocument();
  });
});
