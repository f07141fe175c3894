/**
 * This browser's push subscription (docs/decisions/web-push.md): whether the device can receive
 * notifications at all, and subscribing or unsubscribing it with the server's VAPID key.
 */
export type PushSupport = 'supported' | 'unsupported' | 'ios-not-installed' | 'denied';

type NavigatorWithStandalone = Navigator & { standalone?: boolean };

/** What this browser can do: an iPhone or iPad receives push only as an app on the home screen. */
export function pushSupport(): PushSupport {
  if (typeof window === 'undefined' || typeof navigator === 'undefined') return 'unsupported';
  const ios = /iPad|iPhone|iPod/.test(navigator.userAgent) || (navigator.platform === 'MacIntel' && navigator.maxTouchPoints > 1);
  const standalone = window.matchMedia?.('(display-mode: standalone)').matches === true || (navigator as NavigatorWithStandalone).standalone === true;
  if (ios && !standalone) return 'ios-not-installed';
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  return 'supported';
}

/** The service worker's registration, or null when none takes over within a few seconds. */
async function registration(): Promise<ServiceWorkerRegistration | null> {
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), 8000));
  return Promise.race([navigator.serviceWorker.ready, timeout]);
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
  return out;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a) return false;
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((v, i) => v === b[i]);
}

/** This device's current subscription's endpoint, or null. */
export async function deviceEndpoint(): Promise<string | null> {
  if (pushSupport() !== 'supported') return null;
  const reg = await registration();
  const sub = await reg?.pushManager.getSubscription();
  return sub?.endpoint ?? null;
}

export class PushPermissionError extends Error {}

/**
 * Asks for permission and subscribes this device with the server's key (a subscription made with
 * another key, after the server's secret changed, is replaced). Answers PushSubscription.toJSON().
 */
export async function subscribeDevice(publicKey: string): Promise<PushSubscriptionJSON> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushPermissionError(permission);
  const reg = await registration();
  if (!reg) throw new Error('no service worker');
  const key = keyBytes(publicKey);
  const existing = await reg.pushManager.getSubscription();
  if (existing && !sameKey(existing.options.applicationServerKey, key)) await existing.unsubscribe();
  const sub = existing && sameKey(existing.options.applicationServerKey, key) ? existing : await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return sub.toJSON();
}

/** Unsubscribes this device; answers the endpoint it had (to tell the server), or null. */
export async function unsubscribeDevice(): Promise<string | null> {
  const reg = await registration();
  const sub = await reg?.pushManager.getSubscription();
  if (!sub) return null;
  await sub.unsubscribe();
  return sub.endpoint;
}
