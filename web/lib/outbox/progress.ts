import { useSyncExternalStore } from 'react';

/**
 * Uploads of outbox entries under way in this tab (recorded takes), by entry id, outside React:
 * leaving the task screen does not stop one, and coming back shows its progress instead of
 * offering it a second time.
 */
type Inflight = { progress: number; controller: AbortController };
const inflight = new Map<string, Inflight>();
/**
 * What the screens show, each upload's progress by take id: a new map on every change, so that a
 * render (and the React Compiler's memoised output) sees the change, which reading the mutable
 * `inflight` while rendering hides (docs/decisions/compiler-ready-components.md).
 */
const NONE: ReadonlyMap<string, number> = new Map();
let shown: ReadonlyMap<string, number> = NONE;
const listeners = new Set<() => void>();
const emit = () => {
  shown = new Map([...inflight].map(([id, u]) => [id, u.progress]));
  listeners.forEach((l) => l());
};

export const uploads = {
  begin(id: string): AbortController {
    const controller = new AbortController();
    inflight.set(id, { progress: 0, controller });
    emit();
    return controller;
  },
  progress(id: string, fraction: number) {
    const u = inflight.get(id);
    if (!u) return;
    u.progress = fraction;
    emit();
  },
  end(id: string) {
    inflight.delete(id);
    emit();
  },
  cancel(id: string) {
    inflight.get(id)?.controller.abort();
  },
  get(id: string): Inflight | undefined {
    return inflight.get(id);
  },
};

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The progress (0..1) of the uploads under way, by entry id; re-renders on every step of any upload. */
export function useUploadProgress(): ReadonlyMap<string, number> {
  return useSyncExternalStore(
    subscribe,
    () => shown,
    () => NONE,
  );
}
