import { useEffect } from 'react';

/**
 * Keeps the screen on while `active` (the practice timer or the metronome runs; docs/decisions/offline-practice.md): a phone
 * on the music stand must not go dark mid-piece. The browser drops the lock whenever the page is
 * hidden, so it is asked for again when the page becomes visible; it is released when `active`
 * ends or the component goes. Where the Screen Wake Lock API is missing nothing happens.
 */
export function useWakeLock(active: boolean): void {
  useEffect(() => {
    if (!active || typeof navigator === 'undefined' || !('wakeLock' in navigator)) return;
    let lock: WakeLockSentinel | null = null;
    let alive = true;
    const acquire = async () => {
      if (document.visibilityState !== 'visible' || (lock && !lock.released)) return;
      try {
        const next = await navigator.wakeLock.request('screen');
        if (alive) lock = next;
        else void next.release();
      } catch {
        // refused (battery saver, no user activation yet): the timer works on without it
      }
    };
    const onVisible = () => void acquire();
    void acquire();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      alive = false;
      document.removeEventListener('visibilitychange', onVisible);
      if (lock && !lock.released) void lock.release();
    };
  }, [active]);
}

