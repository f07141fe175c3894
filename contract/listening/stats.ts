/** Small statistics shared by the reports (docs/decisions/listening.md). */

export function quantile(sorted: ArrayLike<number>, q: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(n - 1, lo + 1);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
}

export function median(xs: readonly number[]): number {
  return quantile([...xs].sort((a, b) => a - b), 0.5);
}

/** Median and interquartile range. */
export function medianIqr(xs: readonly number[]): { median: number; iqr: number } {
  const s = [...xs].sort((a, b) => a - b);
  return { median: quantile(s, 0.5), iqr: quantile(s, 0.75) - quantile(s, 0.25) };
}

export const round1 = (v: number) => Math.round(v * 10) / 10;
export const round2 = (v: number) => Math.round(v * 100) / 100;

export type Moment = { start_ms: number; end_ms: number };

/**
 * Runs of frames (indices ascending) as moments: frames closer than `gapFrames` join, runs shorter
 * than `minMs` are dropped; at most `cap`, the longest, in time order.
 */
export function runsToMoments(frames: readonly number[], hopMs: number, minMs = 100, gapFrames = 3, cap = 12): Moment[] {
  const runs: Moment[] = [];
  let start = -1;
  let prev = -1;
  const flush = () => {
    if (start < 0) return;
    const m = { start_ms: Math.round(start * hopMs), end_ms: Math.round((prev + 1) * hopMs) };
    if (m.end_ms - m.start_ms >= minMs) runs.push(m);
  };
  for (const f of frames) {
    if (start < 0) start = f;
    else if (f - prev > gapFrames) {
      flush();
      start = f;
    }
    prev = f;
  }
  flush();
  if (runs.length <= cap) return runs;
  return [...runs]
    .sort((a, b) => b.end_ms - b.start_ms - (a.end_ms - a.start_ms))
    .slice(0, cap)
    .sort((a, b) => a.start_ms - b.start_ms);
}
