/**
 * 'Neue Version verfügbar – neu laden' (docs/decisions/offline-practice.md): set by the service worker's registration
 * (pwa.ts, loaded after the first paint), read by the banner; kept apart so the banner does not
 * pull Workbox into the first chunk.
 */
type State = { needRefresh: boolean; update: (() => Promise<void>) | null };
let state: State = { needRefresh: false, update: null };
const listeners = new Set<() => void>();

export const updateStore = {
  get: (): State => state,
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  set(next: State): void {
    state = next;
    listeners.forEach((l) => l());
  },
};
