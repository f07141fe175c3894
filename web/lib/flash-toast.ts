/**
 * A toast kept across a full page reload ('Erfolgreich angemeldet' after sign-in): queued in
 * session storage by whoever reloads (the session in web/lib/auth), shown by the toast area
 * (web/components/ui/toast.tsx) when the page is back. No UI here, so lib and components import
 * it alike and never each other (docs/decisions/feature-boundaries.md).
 */
export type FlashType = 'success' | 'error' | 'info';

const FLASH_KEY = 'flashToast';

/** Keeps a toast across a full page reload. */
export function queueFlashToast(type: FlashType, message: string): void {
  try {
    sessionStorage.setItem(FLASH_KEY, JSON.stringify({ type, message }));
  } catch {
    // no session storage: the toast is lost, nothing else
  }
}

/** The queued toast, once (it is removed). */
export function takeFlashToast(): { type: FlashType; message: string } | null {
  try {
    const raw = sessionStorage.getItem(FLASH_KEY);
    if (!raw) return null;
    sessionStorage.removeItem(FLASH_KEY);
    const v = JSON.parse(raw) as { type?: unknown; message?: unknown };
    if ((v.type === 'success' || v.type === 'error' || v.type === 'info') && typeof v.message === 'string') return { type: v.type, message: v.message };
  } catch {
    // ignore a broken entry
  }
  return null;
}
