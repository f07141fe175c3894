import { onlineManager } from '@tanstack/react-query';

/**
 * Whether the server can be reached, as the app sees it (docs/decisions/offline-practice.md). `navigator.onLine` only knows
 * whether a network is attached: a phone in a basement on a Wi-Fi without internet, or a page
 * reloaded without signal, still says online. So a call that gets no answer turns the app offline
 * (TanStack Query pauses its queries, the timer and the outbox work on the device), and from then
 * on a tiny probe of /api/health every few seconds, or the browser's 'online' event, turns it back.
 */
const PROBE_MS = 3000;
let probe: ReturnType<typeof setInterval> | null = null;

async function check(): Promise<void> {
  try {
    await fetch('/api/health', { cache: 'no-store' });
    reportAnswer();
  } catch {
    // still no answer
  }
}

/** A call got no answer at all (not an HTTP error): the app is offline until one comes. */
export function reportNoAnswer(): void {
  if (onlineManager.isOnline()) onlineManager.setOnline(false);
  if (probe === null && typeof window !== 'undefined') {
    probe = setInterval(() => void check(), PROBE_MS);
    window.addEventListener('online', onBrowserOnline);
  }
}

/** Any HTTP answer: the server is reachable. */
export function reportAnswer(): void {
  if (probe !== null) {
    clearInterval(probe);
    probe = null;
    window.removeEventListener('online', onBrowserOnline);
  }
  if (!onlineManager.isOnline()) onlineManager.setOnline(true);
}

function onBrowserOnline() {
  void check();
}

/** Whether the app currently counts as connected. */
export const isConnected = (): boolean => onlineManager.isOnline();
