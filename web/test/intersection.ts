import { vi } from 'vitest';

/**
 * A stand-in for the browser's IntersectionObserver that a test drives (jsdom has none): install
 * it with `vi.stubGlobal('IntersectionObserver', FakeObserver)`, then `FakeObserver.last!.enter()`
 * brings the last observed element into view.
 */
export class FakeObserver {
  static last: FakeObserver | null = null;
  constructor(readonly callback: IntersectionObserverCallback) {
    FakeObserver.last = this;
  }
  observe = vi.fn();
  disconnect = vi.fn();
  unobserve = vi.fn();
  takeRecords = () => [];
  enter() {
    this.callback([{ isIntersecting: true } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
  }
}
