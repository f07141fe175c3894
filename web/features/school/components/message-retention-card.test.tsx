import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp } from '@web/test/render';
import { stubServer } from '../test/fetch-stub';
import { MessageRetentionCard } from './message-retention-card';

vi.setConfig({ testTimeout: 20_000 });

beforeEach(async () => {
  localStorage.clear();
  await i18n.changeLanguage('de');
});
afterEach(() => vi.unstubAllGlobals());

const field = () => screen.getByLabelText('Aufbewahrungsdauer (Tage)');

describe('MessageRetentionCard (the administrator)', () => {
  it('shows the days messages are kept and saves a new number; refuses one out of range before asking', async () => {
    let days = 365;
    const server = stubServer({
      'GET /api/school/message-retention': () => jsonResponse(200, { retention_days: days }),
      'PUT /api/school/message-retention': (c) => {
        days = (c.body as { retention_days: number }).retention_days;
        return jsonResponse(200, { retention_days: days });
      },
    });
    const u = userEvent.setup();
    renderWithApp(<MessageRetentionCard />);
    expect(screen.getByRole('heading', { name: 'Nachrichten aufbewahren' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Wird geladen...' })).toBeInTheDocument();
    await waitFor(() => expect(field()).toHaveValue(365));
    expect(field()).toHaveAccessibleDescription('30 bis 3650 Tage; Standard: 365 Tage.');

    await u.clear(field());
    await u.type(field(), '20');
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Bitte eine ganze Zahl von 30 bis 3650 Tagen eingeben.')).toBeInTheDocument();
    expect(field()).toHaveFocus();
    expect(server.writes()).toEqual([]);

    await u.clear(field());
    await u.type(field(), '90');
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Die Aufbewahrungsdauer wurde gespeichert.')).toBeInTheDocument();
    expect(server.writes().map((c) => c.body)).toEqual([{ retention_days: 90 }]);
    expect(field()).toHaveValue(90);
  });

  it('shows the server’s field message, and a retry when loading fails', async () => {
    let fail = true;
    stubServer({
      'GET /api/school/message-retention': () => (fail ? jsonResponse(503, { message: 'weg' }) : jsonResponse(200, { retention_days: 365 })),
      'PUT /api/school/message-retention': () => jsonResponse(422, { message: 'x', errors: { retention_days: ['Vom Server abgelehnt.'] } }),
    });
    const u = userEvent.setup();
    renderWithApp(<MessageRetentionCard />);
    expect(await screen.findByText('Die Aufbewahrungsdauer konnte nicht geladen werden.')).toBeInTheDocument();
    fail = false;
    await u.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    await waitFor(() => expect(field()).toHaveValue(365));
    await u.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Vom Server abgelehnt.')).toBeInTheDocument();
  });
});
