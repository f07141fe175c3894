import { useEffect, useState } from 'react';

/**
 * False until the browser has painted once after `ready` became true, then true for good: a screen
 * draws what leads first and the rest in the next task (two shorter tasks on a slow phone instead
 * of one long one; the runtime, Preact, draws a render in one go).
 */
export function useAfterPaint(ready = true): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    let timer: number | undefined;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => setPainted(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [ready, painted]);
  return painted;
}
