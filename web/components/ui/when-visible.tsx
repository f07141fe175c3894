import { useEffect, useRef, useState, type ReactNode } from 'react';
import { LazySection } from './lazy-section';

/**
 * Renders `children` only once its place comes near the viewport (200 px ahead), `fallback`
 * (a skeleton of the same height) until then: code and data below the fold – a chart, a
 * calendar, the practice tools – do not compete with what the screen shows first. The first Tab
 * on the page renders it too, so that a keyboard user tabbing down finds its controls in their
 * place instead of skipping a skeleton. Without IntersectionObserver (tests, old browsers) the
 * children render at once.
 */
export function WhenVisible({
  children,
  fallback,
  rootMargin = '200px',
  className,
  testId,
}: {
  children: ReactNode;
  fallback: ReactNode;
  rootMargin?: string;
  className?: string;
  testId?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [show, setShow] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (show || !ref.current) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setShow(true);
      },
      { rootMargin },
    );
    io.observe(ref.current);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Tab') setShow(true);
    };
    window.addEventListener('keydown', onKey, true);
    return () => {
      io.disconnect();
      window.removeEventListener('keydown', onKey, true);
    };
  }, [show, rootMargin]);
  return (
    <div ref={ref} className={className} data-testid={testId} data-shown={show || undefined}>
      {show ? <LazySection fallback={fallback}>{children}</LazySection> : fallback}
    </div>
  );
}
