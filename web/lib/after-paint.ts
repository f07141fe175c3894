import { useEffect, useState } from 'react';

/**
 * How many items of a long list to draw: `first` with the data, then `step` more after each paint
 * until all `total` are there, and from then on all of them at once (a later page or another tab
 * is drawn in one go, as before). A slow phone gets a few short tasks instead of one long one (the
 * runtime, Preact, draws a render in one go), and the screen's first cards paint sooner.
 */
export function useDrawnCount(ready: boolean, total: number, first: number, step: number): number {
  const [limit, setLimit] = useState(first);
  const done = limit === Number.POSITIVE_INFINITY;
  useEffect(() => {
    if (!ready || done) return;
    let timer: number | undefined;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setLimit((l) => (l + step >= total ? Number.POSITIVE_INFINITY : l + step)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [ready, done, limit, total, step]);
  return limit;
}

/**
 * False until the browser has painted once after `ready` became true, then true for good: a screen
 * draws what leads first and what lies below the fold in the next task.
 */
export function useAfterPaint(ready = true): boolean {
  return useDrawnCount(ready, 1, 0, 1) > 0;
}
