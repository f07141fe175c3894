/// <reference types="vite-plugin-pwa/client" />
import { registerSW } from 'virtual:pwa-register';
import { updateStore } from './update-store';

/**
 * Registers the service worker (web/sw.ts) once the page has painted. A new version installs in
 * the background and waits; the banner offers to reload into it, so a student mid-practice is
 * never reloaded unasked. Checked again every hour for long-open tabs.
 */
export function registerServiceWorker(): void {
  const update = registerSW({
    immediate: true,
    onNeedRefresh() {
      updateStore.set({ needRefresh: true, update: () => update(true) });
    },
    onRegisteredSW(_url, registration) {
      if (registration) setInterval(() => void registration.update().catch(() => undefined), 60 * 60 * 1000);
    },
    onRegisterError(err: unknown) {
      console.warn('Service Worker konnte nicht registriert werden', err);
    },
  });
}
