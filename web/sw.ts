/// <reference lib="webworker" />
/**
 * The service worker (docs/decisions/offline-practice.md, decision "offline-practice"): built by vite-plugin-pwa
 * (injectManifest), served as /sw.js with `Cache-Control: no-cache`, scope '/'.
 * - The app shell and every lazy chunk are precached (Workbox's precache manifest), so a reload
 *   without a connection opens the app and each screen.
 * - Every page address answers with the precached index.html; /api/ never does.
 * - Exercise media the student opened are cached by PATH, not by the signed address (its
 *   signature expires after an hour): an opened score plays in a room without signal.
 * - The API itself is not cached here: the app keeps its data in its own persisted query cache.
 * - A new version waits until the page asks it to take over ('Neue Version verfügbar – neu laden').
 */
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { createPartialResponse } from 'workbox-range-requests';
import { appPath } from './lib/app-path';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

/** The cache of opened exercise media (also cleared by the app on sign-out). */
const MEDIA_CACHE = 'uebungskontrolle-media-v1';
/** Files up to this size are kept for offline use; larger videos stream from the server only. */
const MEDIA_MAX_BYTES = 60 * 1024 * 1024;
/** At most this many files; the oldest goes first. */
const MEDIA_MAX_ENTRIES = 60;
const MEDIA_PREFIX = '/api/media-file/exercises/';

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
clientsClaim();

registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api\//, /^\/sw\.js$/, /\.[a-z0-9]+$/i] }));

self.addEventListener('message', (event) => {
  const data = event.data as { type?: string } | null;
  if (data?.type === 'SKIP_WAITING') void self.skipWaiting();
});

const mediaKey = (url: URL) => `${url.origin}${url.pathname}`;

async function trimMediaCache(cache: Cache): Promise<void> {
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MEDIA_MAX_ENTRIES))) await cache.delete(old);
}

/** The whole file into the cache (no Range), when the server still says yes and it is not too big. */
async function storeWhole(url: URL, response?: Response): Promise<void> {
  const res = response ?? (await fetch(url.href, { credentials: 'same-origin' }));
  const length = Number(res.headers.get('content-length') ?? 0);
  if (res.status !== 200 || length > MEDIA_MAX_BYTES) return;
  const cache = await caches.open(MEDIA_CACHE);
  await cache.put(mediaKey(url), res);
  await trimMediaCache(cache);
}

/** The size a 206's Content-Range names ('bytes 0-1023/4096' → 4096), or null. */
function totalOf(res: Response): number | null {
  const m = /\/(\d+)$/.exec(res.headers.get('content-range') ?? '');
  return m ? Number(m[1]) : null;
}

async function media(event: FetchEvent, url: URL): Promise<Response> {
  const request = event.request;
  // A download keeps its own answer headers (Content-Disposition): always the server's.
  if (url.searchParams.has('download')) return fetch(request);
  const cache = await caches.open(MEDIA_CACHE);
  const cached = await cache.match(mediaKey(url));
  if (cached) return request.headers.has('range') ? createPartialResponse(request, cached) : cached;
  const network = await fetch(request);
  if (network.status === 200) {
    event.waitUntil(storeWhole(url, network.clone()).catch(() => undefined));
  } else if (network.status === 206) {
    // a player asks for ranges: play from the network now, keep the whole file in the background
    const total = totalOf(network);
    if (total !== null && total <= MEDIA_MAX_BYTES) event.waitUntil(storeWhole(url).catch(() => undefined));
  }
  return network;
}

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin || !url.pathname.startsWith(MEDIA_PREFIX)) return;
  event.respondWith(media(event, url));
});

// Web Push (docs/decisions/web-push.md): the server's reminder or digest, shown as a notification;
// a tap opens its address in the app (a window of the app if one is open, else a new one).

type PushPayload = { title: string; body: string; url: string; tag: string };

/** Only an address of this app (a path), never another site, whatever a payload says. */
const ownPath = (url: unknown): string => appPath(url, self.location.origin);

self.addEventListener('push', (event) => {
  let data: Partial<PushPayload> = {};
  try {
    data = (event.data?.json() ?? {}) as Partial<PushPayload>;
  } catch {
    data = {};
  }
  const shown = self.registration.showNotification(typeof data.title === 'string' ? data.title : 'Übungskontrolle', {
    body: typeof data.body === 'string' ? data.body : '',
    tag: typeof data.tag === 'string' ? data.tag : undefined,
    icon: '/icons/icon-192.png',
    badge: '/icons/icon-192.png',
    data: { url: ownPath(data.url) },
  });
  event.waitUntil(shown);
});

/** Opens `path` in a window of the app: an open one navigates there and comes to the front; otherwise a new one. */
async function openInApp(path: string): Promise<void> {
  const target = new URL(path, self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((c) => new URL(c.url).origin === self.location.origin);
  if (open) {
    const navigated = await open.navigate(target).catch(() => null);
    await (navigated ?? open).focus().catch(() => undefined);
    return;
  }
  await self.clients.openWindow(target);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const data = event.notification.data as { url?: unknown } | null;
  const opened = openInApp(ownPath(data?.url));
  // a click the browser delivers keeps the worker alive until the window is there
  if (event.isTrusted) event.waitUntil(opened);
});
