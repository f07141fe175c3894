import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { CalendarSubscription } from './calendar-subscription';

const first = { url: 'https://schule.example/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics', webcal_url: 'webcal://schule.example/calendar/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.ics', created_at: '2026-11-01T10:00:00.000Z' };
const second = { url: first.url.replace(/A{43}/, 'B'.repeat(43)), webcal_url: first.webcal_url.replace(/A{43}/, 'B'.repeat(43)), created_at: '2026-11-23T10:00:00.000Z' };

function serve(route: (path: string, method: string) => Response) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`);
      return route(url.pathname, init?.method ?? 'GET');
    }),
  );
  return calls;
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CalendarSubscription', { timeout: 20_000 }, () => {
  it('asks for the address only when shown; copies it; renews it after a confirmation', async () => {
    let current = first;
    const calls = serve((path, method) => {
      if (path === '/api/calendar-subscription' && method === 'GET') return jsonResponse(200, current);
      if (path === '/api/calendar-subscription/renew' && method === 'POST') {
        current = second;
        return jsonResponse(200, second);
      }
      return jsonResponse(404, { message: 'Nicht gefunden.' });
    });
    const user = userEvent.setup(); // puts a clipboard of its own on navigator
    renderWithApp(<CalendarSubscription audience="student" />);

    expect(screen.getByRole('heading', { name: 'Kalender abonnieren' })).toBeInTheDocument();
    expect(screen.getByText(/Deine Aufgaben als ganztägige Termine/)).toBeInTheDocument();
    expect(calls).toEqual([]); // nothing made before it is asked for
    const show = screen.getByRole('button', { name: 'Adresse anzeigen' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await user.click(show);
    const input = await screen.findByLabelText('Private Kalenderadresse');
    expect(input).toHaveValue(first.url);
    expect(calls).toEqual(['GET /api/calendar-subscription?language=de']);
    expect(screen.getByRole('link', { name: 'Im Kalender öffnen' })).toHaveAttribute('href', first.webcal_url);
    expect(screen.getByRole('button', { name: 'Ausblenden' })).toHaveAttribute('aria-expanded', 'true');

    await user.click(screen.getByRole('button', { name: 'Kopieren' }));
    expect(await screen.findByText('Adresse kopiert')).toBeInTheDocument();
    expect(await navigator.clipboard.readText()).toBe(first.url);

    // renewing asks first; cancelling changes nothing
    await user.click(screen.getByRole('button', { name: 'Adresse erneuern' }));
    expect(await screen.findByText(/Die bisherige Adresse funktioniert danach nicht mehr/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByText(/Die bisherige Adresse funktioniert danach nicht mehr/)).not.toBeInTheDocument());
    expect(calls.filter((c) => c.startsWith('POST'))).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Adresse erneuern' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Adresse erneuern' }));
    await waitFor(() => expect(screen.getByLabelText('Private Kalenderadresse')).toHaveValue(second.url));
    expect(calls).toContain('POST /api/calendar-subscription/renew?language=de');
    expect(await screen.findByText('Neue Kalenderadresse erstellt')).toBeInTheDocument();
  });

  it('says so when the address cannot be loaded, and tries again', async () => {
    let fail = true;
    serve(() => (fail ? jsonResponse(500, { message: 'Interner Fehler' }) : jsonResponse(200, first)));
    const user = userEvent.setup();
    renderWithApp(<CalendarSubscription audience="teacher" />);
    expect(screen.getByText(/ein Termin pro Übung und Tag/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Adresse anzeigen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Die Kalenderadresse konnte nicht geladen werden.');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByLabelText('Private Kalenderadresse')).toHaveValue(first.url);
  });

  it('speaks Turkish', async () => {
    await i18n.changeLanguage('tr');
    serve(() => jsonResponse(200, first));
    const user = userEvent.setup();
    renderWithApp(<CalendarSubscription audience="student" />);
    expect(screen.getByRole('heading', { name: 'Takvime abone ol' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Adresi göster' }));
    expect(await screen.findByRole('button', { name: 'Adresi yenile' })).toBeInTheDocument();
  });
});
