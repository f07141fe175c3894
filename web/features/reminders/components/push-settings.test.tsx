import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '@web/lib/i18n';
import { jsonResponse, renderWithApp, stubFetch } from '@web/test/render';
import { PushSettings } from './push-settings';

vi.setConfig({ testTimeout: 20_000 });

const KEY = `B${'A'.repeat(86)}`;

/**
 * A browser with push: a service worker registration whose push manager hands out one
 * subscription (jsdom has none; the real one is driven in e2e/push.spec.ts).
 */
function browserWithPush(o: { permission: NotificationPermission; grant?: NotificationPermission }) {
  let current: { endpoint: string; options: { applicationServerKey: ArrayBuffer }; unsubscribe: () => Promise<boolean>; toJSON: () => unknown } | null = null;
  const subscribe = vi.fn(async (opts: { applicationServerKey: Uint8Array }) => {
    current = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/dieses-geraet',
      options: { applicationServerKey: opts.applicationServerKey.buffer as ArrayBuffer },
      unsubscribe: async () => {
        current = null;
        return true;
      },
      toJSON: () => ({ endpoint: 'https://fcm.googleapis.com/fcm/send/dieses-geraet', expirationTime: null, keys: { p256dh: KEY, auth: 'A'.repeat(22) } }),
    };
    return current;
  });
  const registration = { pushManager: { subscribe, getSubscription: async () => current } };
  vi.stubGlobal('PushManager', function PushManager() {});
  vi.stubGlobal('Notification', { permission: o.permission, requestPermission: vi.fn(async () => o.grant ?? 'granted') });
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { ready: Promise.resolve(registration) } });
  return { subscribe };
}

beforeEach(async () => {
  await i18n.changeLanguage('de');
});
afterEach(() => {
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

describe('PushSettings', () => {
  it('subscribes this device with the server key and tells the server; off again tells it too', async () => {
    const { subscribe } = browserWithPush({ permission: 'default' });
    let devices = 1; // another device of the student is on already
    const calls = stubFetch((c) => {
      if (c.method === 'PUT') devices++;
      if (c.method === 'DELETE') devices--;
      return jsonResponse(200, { public_key: KEY, devices });
    });
    const u = userEvent.setup();
    renderWithApp(<PushSettings audience="student" />);
    expect(await screen.findByTestId('push-status')).toHaveTextContent('Aus auf diesem Gerät');
    expect(screen.getByTestId('push-other-devices')).toHaveTextContent('Auf einem weiteren Gerät an');
    await u.click(screen.getByRole('button', { name: 'Auf diesem Gerät einschalten' }));
    expect(await screen.findByText('Mitteilungen sind auf diesem Gerät an.')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('push-status')).toHaveTextContent('An auf diesem Gerät'));
    expect(subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }));
    expect(new Uint8Array(subscribe.mock.calls[0]![0].applicationServerKey)[0]).toBe(4); // the key's first byte: an uncompressed point
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      url: '/api/push/subscription',
      method: 'PUT',
      body: { endpoint: 'https://fcm.googleapis.com/fcm/send/dieses-geraet', expirationTime: null, keys: { p256dh: KEY, auth: 'A'.repeat(22) } },
    });

    await u.click(screen.getByRole('button', { name: 'Auf diesem Gerät ausschalten' }));
    expect(await screen.findByText('Mitteilungen sind auf diesem Gerät aus. Es kommt wieder alles per E-Mail.')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'DELETE')).toEqual({ url: '/api/push/subscription', method: 'DELETE', body: { endpoint: 'https://fcm.googleapis.com/fcm/send/dieses-geraet' } });
    await waitFor(() => expect(screen.getByTestId('push-status')).toHaveTextContent('Aus auf diesem Gerät'));
  });

  it('says that mail stays when permission is refused, when the browser has no push, and on an iPhone outside the home screen', async () => {
    browserWithPush({ permission: 'default', grant: 'denied' });
    stubFetch(() => jsonResponse(200, { public_key: KEY, devices: 0 }));
    const u = userEvent.setup();
    const { unmount } = renderWithApp(<PushSettings audience="guardian" />);
    await u.click(await screen.findByRole('button', { name: 'Auf diesem Gerät einschalten' }));
    expect(await screen.findByText(/Erlauben Sie sie in den Einstellungen Ihres Browsers/)).toBeInTheDocument();
    unmount();
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'serviceWorker');

    stubFetch(() => jsonResponse(200, { public_key: KEY, devices: 0 }));
    const second = renderWithApp(<PushSettings audience="student" />);
    expect(await screen.findByTestId('push-unavailable')).toHaveTextContent('Dieser Browser kann keine Mitteilungen empfangen. Erinnerung und Zusammenfassung kommen per E-Mail.');
    expect(screen.queryByRole('button', { name: /einschalten/ })).toBeNull();
    second.unmount();

    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148 Safari/604.1');
    renderWithApp(<PushSettings audience="student" />);
    expect(await screen.findByTestId('push-unavailable')).toHaveTextContent(/nur, wenn die Übungskontrolle auf dem Home-Bildschirm liegt/);
  });

  it('shows a retry when the server does not answer', async () => {
    let fail = true;
    stubFetch(() => (fail ? jsonResponse(500, { message: 'x' }) : jsonResponse(200, { public_key: KEY, devices: 0 })));
    const u = userEvent.setup();
    renderWithApp(<PushSettings audience="student" />);
    expect(await screen.findByText('Die Einstellung für Mitteilungen konnte nicht geladen werden.')).toBeInTheDocument();
    fail = false;
    await u.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByTestId('push-unavailable')).toBeInTheDocument();
  });
});
