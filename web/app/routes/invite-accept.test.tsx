import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import type { InvitePublic } from '@contract/school';
import i18n from '@web/lib/i18n';
import { createQueryClient } from '@web/lib/query-client';
import { authStore } from '@web/lib/auth/auth-store';
import { jsonResponse, stubFetch } from '@web/test/render';
import Root from '../root';
import InviteAcceptScreen from './invite-accept';

vi.mock('@web/lib/navigation', () => ({ reloadTo: vi.fn() }));
const { reloadTo } = await import('@web/lib/navigation');
vi.setConfig({ testTimeout: 20_000 });

const TOKEN = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const teacherInvite: InvitePublic = {
  kind: 'teacher',
  name: 'Anna Roth',
  email: 'anna@example.com',
  school: 'Musikschule Klangwelt',
  students: [],
  expires_at: '2026-12-04T09:00:00.000Z',
};
const user = { id: 12, name: 'Anna Roth', email: 'anna@example.com', role: { name: 'teacher' } };

const server = stubFetch;

function renderAt(token = TOKEN) {
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  const router = createMemoryRouter(
    [{ element: <Root />, children: [{ path: '/einladung/:token', element: <InviteAcceptScreen /> }, { path: '/login', element: <p>Anmeldeseite</p> }] }],
    { initialEntries: [`/einladung/${token}`] },
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

const field = (label: string) => screen.getByLabelText(label, { exact: false, selector: 'input' });

beforeEach(async () => {
  localStorage.clear();
  sessionStorage.clear();
  authStore.clear();
  vi.mocked(reloadTo).mockClear();
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

describe('invitation page', () => {
  it('greets with name, school and role and checks the password before sending', async () => {
    const calls = server((c) => (c.method === 'GET' ? jsonResponse(200, teacherInvite) : jsonResponse(500, {})));
    const u = userEvent.setup();
    renderAt();
    expect(await screen.findByRole('heading', { name: 'Hallo Anna Roth!' })).toBeInTheDocument();
    expect(calls[0]!.url).toBe(`/api/invites/${TOKEN}`);
    expect(screen.getByTestId('invite-school')).toHaveTextContent('Musikschule Klangwelt');
    expect(screen.getByTestId('invite-role')).toHaveTextContent('Lehrkraft');
    expect(field('Neues Passwort')).toHaveAccessibleDescription('Mindestens 8 Zeichen');
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();

    await u.click(screen.getByRole('button', { name: 'Passwort festlegen und anmelden' }));
    expect(await screen.findByText('Bitte geben Sie ein Passwort ein.')).toBeInTheDocument();
    await u.type(field('Neues Passwort'), 'kurz');
    await u.click(screen.getByRole('button', { name: 'Passwort festlegen und anmelden' }));
    expect(await screen.findByText('Das Passwort muss mindestens 8 Zeichen lang sein.')).toBeInTheDocument();
    await u.type(field('Neues Passwort'), '-genug');
    await u.type(field('Passwort wiederholen'), 'kurz-anders');
    await u.click(screen.getByRole('button', { name: 'Passwort festlegen und anmelden' }));
    expect(await screen.findByText('Die Passwörter stimmen nicht überein.')).toBeInTheDocument();
    expect(field('Passwort wiederholen')).toHaveFocus();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('accepts: signs in with the answer and reloads at /', async () => {
    const calls = server((c) => (c.method === 'GET' ? jsonResponse(200, teacherInvite) : jsonResponse(200, { token: 'new-token', user })));
    const u = userEvent.setup();
    renderAt();
    await u.type(await screen.findByLabelText('Neues Passwort', { exact: false, selector: 'input' }), 'geheim-1234');
    await u.type(field('Passwort wiederholen'), 'geheim-1234');
    await u.click(screen.getByRole('button', { name: 'Passwort festlegen und anmelden' }));
    await waitFor(() => expect(reloadTo).toHaveBeenCalledWith('/'));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.url).toBe(`/api/invites/${TOKEN}/accept`);
    expect(post.body).toEqual({ password: 'geheim-1234' });
    expect(localStorage.getItem('token')).toBe('new-token');
    expect(authStore.get().user).toEqual(user);
    expect(sessionStorage.getItem('flashToast')).toContain('Willkommen!');
  });

  it('greets a parent with the children', async () => {
    server(() => jsonResponse(200, { ...teacherInvite, kind: 'guardian', name: 'Fatma Demir', students: ['Ayşe Demir', 'Can Demir'] }));
    renderAt();
    expect(await screen.findByTestId('invite-role')).toHaveTextContent('Eltern von Ayşe Demir, Can Demir');
  });

  it('says clearly when the link is unknown, used or expired, with a way to sign in', async () => {
    server(() => jsonResponse(404, { message: 'Nicht gefunden' }));
    const u = userEvent.setup();
    const router = renderAt();
    expect(await screen.findByRole('heading', { name: 'Dieser Einladungslink gilt nicht mehr' })).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('wurde schon benutzt, widerrufen oder ist abgelaufen');
    await u.click(screen.getByRole('link', { name: 'Zur Anmeldung' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
  });

  it('does not ask the server for a malformed link', async () => {
    const calls = server(() => jsonResponse(200, teacherInvite));
    renderAt('kaputt');
    expect(await screen.findByRole('heading', { name: 'Dieser Einladungslink gilt nicht mehr' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('offers to sign out first when someone is signed in, then shows the invitation', async () => {
    authStore.setSession('old-token', { id: 1, name: 'Mehmet Yılmaz', email: 'lehrer@example.com', role: { name: 'teacher' } });
    const calls = server((c) => (c.url === '/api/logout' ? new Response(null, { status: 204 }) : jsonResponse(200, teacherInvite)));
    const u = userEvent.setup();
    renderAt();
    expect(await screen.findByText(/In diesem Browser ist Mehmet Yılmaz angemeldet\./)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await u.click(screen.getByRole('button', { name: 'Abmelden und Einladung öffnen' }));
    expect(await screen.findByRole('heading', { name: 'Hallo Anna Roth!' })).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST /api/logout', `GET /api/invites/${TOKEN}`]);
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('is translated to Turkish', async () => {
    await i18n.changeLanguage('tr');
    server(() => jsonResponse(200, teacherInvite));
    renderAt();
    expect(await screen.findByRole('heading', { name: 'Merhaba Anna Roth!' })).toBeInTheDocument();
    expect(screen.getByTestId('invite-role')).toHaveTextContent('Öğretmen');
    expect(field('Yeni şifre')).toHaveAccessibleDescription('En az 8 karakter');
    expect(screen.getByRole('button', { name: 'Şifreyi belirle ve giriş yap' })).toBeInTheDocument();
  });
});
