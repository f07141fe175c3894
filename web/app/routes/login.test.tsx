import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, act } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { authStore } from '@web/lib/auth/auth-store';
import { jsonResponse, renderWithApp } from '@web/test/render';
import LoginScreen from './login';

vi.mock('@web/lib/navigation', () => ({ reloadTo: vi.fn() }));
const { reloadTo } = await import('@web/lib/navigation');

const user = { id: 1, name: 'Mehmet Yılmaz', email: 'lehrer@example.com', role: { name: 'teacher' } };

/** A fetch that answers once the test releases it, so the busy state can be seen. */
function deferredFetch() {
  let release!: (r: Response) => void;
  const calls: { url: string; init: RequestInit }[] = [];
  const fn = vi.fn((url: string, init: RequestInit) => {
    calls.push({ url, init });
    return new Promise<Response>((resolve) => (release = resolve));
  });
  return { fn, calls, release: (r: Response) => release(r) };
}

async function fillAndSubmit(email = 'lehrer@example.com', password = 'demo1234') {
  const u = userEvent.setup();
  await u.type(screen.getByLabelText('E-Mail-Adresse'), email);
  await u.type(screen.getByLabelText('Passwort'), password);
  await u.click(screen.getByRole('button', { name: 'Anmelden' }));
}

describe('sign-in page', () => {
  beforeEach(async () => {
    localStorage.clear();
    sessionStorage.clear();
    authStore.clear();
    await i18n.changeLanguage('de');
    vi.mocked(reloadTo).mockClear();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows title, subtitle and the two required fields with labels', () => {
    renderWithApp(<LoginScreen />, { path: '/login' });
    expect(screen.getByRole('heading', { level: 1, name: 'Übungskontrolle' })).toBeInTheDocument();
    expect(screen.getByText('Aufgaben, Übungen und Übungszeit an einem Ort.')).toBeInTheDocument();
    const email = screen.getByLabelText('E-Mail-Adresse');
    const password = screen.getByLabelText('Passwort');
    expect(email).toBeRequired();
    expect(email).toHaveAttribute('type', 'email');
    expect(password).toBeRequired();
    expect(password).toHaveAttribute('type', 'password');
    expect(screen.getByRole('button', { name: 'Anmelden' })).toBeEnabled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("shows 'Anmeldung...' disabled while signing in, stores the token and reloads at /", async () => {
    const f = deferredFetch();
    vi.stubGlobal('fetch', f.fn);
    renderWithApp(<LoginScreen />, { path: '/login' });
    await fillAndSubmit();

    const busy = await screen.findByRole('button', { name: 'Anmeldung...' });
    expect(busy).toBeDisabled();
    expect(f.calls).toHaveLength(1);
    expect(f.calls[0]!.url).toBe('/api/login');
    expect(f.calls[0]!.init.method).toBe('POST');
    expect(JSON.parse(String(f.calls[0]!.init.body))).toEqual({ email: 'lehrer@example.com', password: 'demo1234' });
    expect((f.calls[0]!.init.headers as Record<string, string>)['Accept-Language']).toBe('de');

    await act(async () => f.release(jsonResponse(200, { token: 'secret-token', user })));
    await waitFor(() => expect(reloadTo).toHaveBeenCalledWith('/'));
    expect(localStorage.getItem('token')).toBe('secret-token');
    expect(authStore.get().user).toEqual(user);
    // The success toast survives the reload.
    expect(sessionStorage.getItem('flashToast')).toContain('Erfolgreich angemeldet');
  });

  it("shows the server's message in an error box under the form and enables the button again", async () => {
    const f = deferredFetch();
    vi.stubGlobal('fetch', f.fn);
    renderWithApp(<LoginScreen />, { path: '/login' });
    await fillAndSubmit('lehrer@example.com', 'wrong');
    await act(async () => f.release(jsonResponse(401, { message: 'E-Mail oder Passwort ist falsch.' })));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('E-Mail oder Passwort ist falsch.');
    expect(screen.getByRole('button', { name: 'Anmelden' })).toBeEnabled();
    expect(localStorage.getItem('token')).toBeNull();
    expect(reloadTo).not.toHaveBeenCalled();
    // Under the form
    const form = screen.getByRole('button', { name: 'Anmelden' }).closest('form')!;
    expect(form.compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it("falls back to 'Anmeldung fehlgeschlagen' when the server sends no message", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response('upstream down', { status: 502 })));
    renderWithApp(<LoginScreen />, { path: '/login' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Anmeldung fehlgeschlagen');
  });

  it("falls back to 'Anmeldung fehlgeschlagen' when the server cannot be reached", async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    renderWithApp(<LoginScreen />, { path: '/login' });
    await fillAndSubmit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Anmeldung fehlgeschlagen');
  });

  it('a 401 on sign-in does not count as a lost session (no redirect)', async () => {
    const assign = vi.fn();
    const { setUnauthorizedHandler } = await import('@web/lib/api');
    setUnauthorizedHandler(assign);
    vi.stubGlobal('fetch', vi.fn(async () => jsonResponse(401, { message: 'E-Mail oder Passwort ist falsch.' })));
    renderWithApp(<LoginScreen />, { path: '/login' });
    await fillAndSubmit();
    await screen.findByRole('alert');
    expect(assign).not.toHaveBeenCalled();
  });

  it('is translated to Turkish', async () => {
    await i18n.changeLanguage('tr');
    vi.stubGlobal('fetch', vi.fn(async () => new Response('', { status: 500 })));
    renderWithApp(<LoginScreen />, { path: '/login' });
    expect(screen.getByLabelText('E-posta adresi')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.type(screen.getByLabelText('E-posta adresi'), 'a@b.de');
    await u.type(screen.getByLabelText('Şifre'), 'x');
    await u.click(screen.getByRole('button', { name: 'Giriş yap' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Giriş başarısız');
  });
});
