import { startTransition, useEffect, useState } from 'react';

/*
 * Whether the first screen has drawn with its data (docs/decisions/first-load-on-a-phone.md,
 * "Second things second"). What no one waits for at the start (the navigation's badges, the
 * teacher's course list, the service worker) is asked for after that, so that on a phone's line
 * the screen's own chunks and reads go first.
 */

let settled = false;
const listeners = new Set<() => void>();
let waiting: Promise<void> | null = null;

function settle(): void {
  if (settled) return;
  settled = true;
  for (const listener of listeners) listener();
}

/** How often `isQuiet` is looked at, and how long at most the first screen is waited for. */
export const FIRST_SCREEN_LOOK_MS = 200;
export const FIRST_SCREEN_LIMIT_MS = 10_000;
/** After the reads: at most this long for the browser's first idle moment. */
export const FIRST_SCREEN_IDLE_MS = 1_000;

/**
 * Starts watching for the first screen (once per page): settled at the browser's first idle
 * moment after `isQuiet()` says so (the router's first navigation over, no read under way), or
 * after `FIRST_SCREEN_LIMIT_MS` whatever it says. Looked at on a timer rather than by subscribing to the router: React Router hands the
 * end of its first navigation to a subscriber only while it has none, and an early subscriber of
 * ours could take that from RouterProvider and leave the app on its skeleton.
 */
export function watchFirstScreen(isQuiet: () => boolean): Promise<void> {
  if (waiting) return waiting;
  waiting = new Promise<void>((resolve) => {
    if (settled) return resolve();
    const since = Date.now();
    const done = () => {
      settle();
      resolve();
    };
    const look = setInterval(() => {
      const late = Date.now() - since >= FIRST_SCREEN_LIMIT_MS;
      if (!isQuiet() && !late) return;
      clearInterval(look);
      // The reads have answered; React still draws what they brought (in slices, as a
      // transition). The browser's first idle moment comes after that drawing and its paint.
      if (late || typeof requestIdleCallback !== 'function') done();
      else requestIdleCallback(done, { timeout: FIRST_SCREEN_IDLE_MS });
    }, FIRST_SCREEN_LOOK_MS);
  });
  return waiting;
}

/**
 * True once the first screen has drawn with its data. Where nothing watches (component tests, a
 * screen rendered alone), it is true at once: only the app's start (web/main.tsx) holds it back.
 * The change is a transition, not a store update: React renders what it lets in (the badges' and
 * the course list's reads, the selector) in slices that yield to input, where a store's change is
 * always one blocking render (an 80 ms task at a phone's speed, counted into the page's blocking
 * time; docs/decisions/first-load-on-a-phone.md).
 */
export function useFirstScreenSettled(): boolean {
  const [there, setThere] = useState(() => settled || waiting === null);
  useEffect(() => {
    if (there) return;
    const listener = () => startTransition(() => setThere(true));
    listeners.add(listener);
    // Settled between this component's render and its effect.
    if (settled) listener();
    return () => {
      listeners.delete(listener);
    };
  }, [there]);
  return there;
}

/** Tests only: forget the watch. */
export function resetFirstScreenForTests(): void {
  settled = false;
  waiting = null;
  listeners.clear();
}
