import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { LazySection } from './lazy-section';

/**
 * True once `ref`'s element comes near the viewport (`rootMargin` ahead), and from then on; the
 * returned `reveal` makes it true at once (a click, a focus, a link that lands on it). With
 * `onTab`, the first Tab on the page reveals it too; with `onScroll`, the first scroll of the page
 * (someone on their way down finds it drawn when they arrive). Without IntersectionObserver (tests, old
 * browsers) it is true from the start. One way for the whole app to leave work below the fold
 * until it is needed (docs/decisions/first-load-on-a-phone.md).
 */
export function useNearViewport(
  ref: RefObject<Element | null>,
  { rootMargin = '200px', onTab = false, onScroll = false }: { rootMargin?: string; onTab?: boolean; onScroll?: boolean } = {},
) {
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (near || !ref.current) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setNear(true);
      },
      { rootMargin },
    );
    io.observe(ref.current);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Tab') setNear(true);
    };
    const onScrolled = () => setNear(true);
    if (onTab) window.addEventListener('keydown', onKey, true);
    if (onScroll) window.addEventListener('scroll', onScrolled, { passive: true, once: true });
    return () => {
      io.disconnect();
      if (onTab) window.removeEventListener('keydown', onKey, true);
      if (onScroll) window.removeEventListener('scroll', onScrolled);
    };
  }, [near, rootMargin, onTab, onScroll, ref]);
  const reveal = useCallback(() => setNear(true), []);
  return [near, reveal] as const;
}

/**
 * Renders `children` only once its place comes near the viewport (200 px ahead), `fallback`
 * (a skeleton of the same height) until then: code and data below the fold – a chart, a
 * calendar, the practice tools – do not compete with what the screen shows first. The first Tab
 * on the page renders it too, so that a keyboard user tabbing down finds its controls in their
 * place instead of skipping a skeleton. With `eager` (a link that lands inside it) it renders
 * at once. Without IntersectionObserver (tests, old browsers) the children render at once.
 */
export function WhenVisible({
  children,
  fallback,
  rootMargin = '200px',
  onScroll = false,
  eager = false,
  className,
  testId,
}: {
  children: ReactNode;
  fallback: ReactNode;
  rootMargin?: string;
  /** Rendered on the page's first scroll as well, wherever it is. */
  onScroll?: boolean;
  eager?: boolean;
  className?: string;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, reveal] = useNearViewport(ref, { rootMargin, onTab: true, onScroll });
  // once asked for, it stays: a link that lands and leaves again does not take it away
  useEffect(() => {
    if (eager) reveal();
  }, [eager, reveal]);
  const show = near || eager;
  return (
    <div ref={ref} className={className} data-testid={testId} data-shown={show || undefined}>
      {show ? <LazySection fallback={fallback}>{children}</LazySection> : fallback}
    </div>
  );
}
