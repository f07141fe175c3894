import { Suspense, useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * Renders `children` only once its place comes near the viewport (200 px ahead), `fallback`
 * (a skeleton of the same height) until then: code and data below the fold – a chart, a
 * calendar – do not compete with what the screen shows first. Without IntersectionObserver
 * (tests, old browsers) the children render at once.
 */
export function WhenVisible({ children, fallback, rootMargin = '200px', className }: { children: ReactNode; fallback: ReactNode; rootMargin?: string; className?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [show, setShow] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    if (show || !ref.current) return;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setShow(true);
          io.disconnect();
        }
      },
      { rootMargin },
    );
    io.observe(ref.current);
    return () => io.disconnect();
  }, [show, rootMargin]);
  return (
    <div ref={ref} className={className}>
      {show ? <Suspense fallback={fallback}>{children}</Suspense> : fallback}
    </div>
  );
}
