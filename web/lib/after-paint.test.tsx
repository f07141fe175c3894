import { describe, expect, it } from 'vitest';
import { renderHook, waitFor } from '@testing-library/react';
import { useDrawnCount } from './after-paint';

describe('useDrawnCount', () => {
  it('draws the first items, then a step per paint, then everything for good', async () => {
    const seen: number[] = [];
    const { result, rerender } = renderHook(({ total }) => {
      const n = useDrawnCount(true, total, 8, 8);
      if (seen.at(-1) !== n) seen.push(n);
      return n;
    }, { initialProps: { total: 30 } });
    await waitFor(() => expect(result.current).toBe(Number.POSITIVE_INFINITY));
    expect(seen).toEqual([8, 16, 24, Number.POSITIVE_INFINITY]);
    // A later page (the list grows) is drawn at once.
    rerender({ total: 80 });
    expect(result.current).toBe(Number.POSITIVE_INFINITY);
  });

  it('waits for the data', async () => {
    const { result, rerender } = renderHook(({ ready }) => useDrawnCount(ready, 30, 8, 8), { initialProps: { ready: false } });
    await new Promise((r) => setTimeout(r, 50));
    expect(result.current).toBe(8);
    rerender({ ready: true });
    await waitFor(() => expect(result.current).toBe(Number.POSITIVE_INFINITY));
  });
});
