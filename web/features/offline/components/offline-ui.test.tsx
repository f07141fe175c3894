import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { onlineManager } from '@tanstack/react-query';
import { renderWithApp } from '@web/test/render';
import { outbox, type OutboxEntry } from '@web/lib/outbox/store';
import { writes } from '@web/lib/outbox/writes';
import { updateStore } from '../lib/update-store';
import { OutboxIndicator } from './outbox-indicator';
import { OfflineNotice } from '@web/components/offline-notice';

afterEach(async () => {
  act(() => onlineManager.setOnline(true));
  for (const e of await outbox.list(5)) await outbox.remove(e.id);
  updateStore.set({ needRefresh: false, update: null });
});

describe('the outbox indicator (docs/decisions/offline-practice.md)', () => {
  it('shows nothing online with an empty outbox', async () => {
    renderWithApp(<OutboxIndicator userId={5} placement="bar" />);
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.queryByTestId('outbox')).toBeNull();
  });

  it('offline: counts the waiting changes, lists them in order with their state, and keeps a refused one with the reason until discarded', async () => {
    act(() => onlineManager.setOnline(false));
    await writes.add({
      userId: 5,
      kind: 'practice-session',
      submissionId: 3,
      title: 'Tonleiter',
      method: 'POST',
      path: '/api/submissions/3/practice-sessions/offline',
      body: { started_at: '2026-11-23T10:00:00.000Z', ended_at: '2026-11-23T10:05:00.000Z' },
    });
    const done = await writes.add({ userId: 5, kind: 'complete', submissionId: 3, title: 'Tonleiter', method: 'PATCH', path: '/api/submissions/3/complete' });
    await writes.update(done.id, { state: 'refused', error: 'Diese Aufgabe ist verfallen.' });
    // another user's change is not shown
    const foreign = await writes.add({ userId: 6, kind: 'complete', submissionId: 4, title: 'Fremd', method: 'PATCH', path: '/api/submissions/4/complete' });

    renderWithApp(<OutboxIndicator userId={5} placement="bar" />);
    const button = await screen.findByRole('button', { name: /Offline · 2 warten/ });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(button);
    const items = await screen.findAllByTestId('outbox-item');
    expect(items.map((i) => i.getAttribute('data-state'))).toEqual(['waiting', 'refused']);
    expect(items[0]).toHaveTextContent('Übungszeit – Tonleiter');
    expect(items[0]).toHaveTextContent('5 min');
    expect(items[1]).toHaveTextContent('Vom Server abgelehnt: Diese Aufgabe ist verfallen.');
    expect(screen.queryByText(/Fremd/)).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Verwerfen' }));
    await waitFor(() => expect(screen.getAllByTestId('outbox-item')).toHaveLength(1));
    expect((await writes.list(5)).map((w) => w.kind)).toEqual(['practice-session']);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByTestId('outbox-panel')).toBeNull();
    await writes.remove(foreign.id);
  });

  it('lists every kind of the one outbox in order: a take refused for want of room with what to do, and a kind it has no label for as a change', async () => {
    await writes.add({ userId: 5, kind: 'complete', submissionId: 3, title: 'Tonleiter', method: 'PATCH', path: '/api/submissions/3/complete' });
    const take = await outbox.add<OutboxEntry & { take: object }>({ userId: 5, kind: 'take', submissionId: 3, title: 'Etüde', take: {} });
    await outbox.update(take.id, { state: 'refused', error: 'voll', refusal: { code: 'storage_quota_student', used_bytes: 52_428_800, quota_bytes: 52_428_800 } });
    await outbox.add({ userId: 5, kind: 'message', submissionId: 3, title: 'Frage' });

    renderWithApp(<OutboxIndicator userId={5} placement="sidebar" />);
    await userEvent.click(await screen.findByRole('button', { name: /3 Änderungen warten/ }));
    const items = await screen.findAllByTestId('outbox-item');
    expect(items.map((i) => i.getAttribute('data-state'))).toEqual(['waiting', 'refused', 'waiting']);
    expect(items[0]).toHaveTextContent('Als erledigt markiert – Tonleiter');
    expect(items[1]).toHaveTextContent('Aufnahme – Etüde');
    expect(items[1]).toHaveTextContent(/Vom Server abgelehnt: Dein Speicher für Aufnahmen ist voll/);
    expect(items[2]).toHaveTextContent('Änderung – Frage');
    await userEvent.click(screen.getByRole('button', { name: 'Verwerfen' }));
    await waitFor(() => expect(screen.getAllByTestId('outbox-item')).toHaveLength(2));
    expect((await outbox.list(5)).map((e) => e.kind)).toEqual(['complete', 'message']);
  });
});

describe('the offline notice', () => {
  it("says when what is shown was last updated, only without a connection", () => {
    const when = Date.parse('2026-11-23T09:30:00.000Z');
    const { rerender } = renderWithApp(<OfflineNotice updatedAt={when} />);
    expect(screen.queryByTestId('offline-notice')).toBeNull();
    act(() => onlineManager.setOnline(false));
    rerender(<OfflineNotice updatedAt={when} />);
    expect(screen.getByTestId('offline-notice')).toHaveTextContent(/^Offline – zuletzt aktualisiert 23\.11\.2026/);
  });
});

describe('the update banner (part of every page: the app root renders it)', () => {
  it("offers 'Neue Version verfügbar – neu laden' when a new version waits, and reloads into it on a click", async () => {
    renderWithApp(<p>Seite</p>);
    expect(screen.queryByTestId('update-banner')).toBeNull();
    const update = vi.fn(() => Promise.resolve());
    act(() => updateStore.set({ needRefresh: true, update }));
    await userEvent.click(await screen.findByRole('button', { name: 'Neue Version verfügbar – neu laden' }));
    expect(update).toHaveBeenCalledTimes(1);
  });

  it("'Später' hides it", async () => {
    renderWithApp(<p>Seite</p>);
    act(() => updateStore.set({ needRefresh: true, update: () => Promise.resolve() }));
    await userEvent.click(await screen.findByRole('button', { name: 'Später' }));
    expect(screen.queryByTestId('update-banner')).toBeNull();
  });
});
