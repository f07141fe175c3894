import type { PitchTrack } from './track';

/** Cents above C0 (16.3516 Hz): the analysis' absolute pitch scale. */
export const C0_HZ = 16.351597831287414;
export const hzToCents = (hz: number) => 1200 * Math.log2(hz / C0_HZ);
export const centsToHz = (c: number) => C0_HZ * 2 ** (c / 1200);

export type Frames = {
  hopMs: number;
  /** Cents above C0 per frame; NaN where unvoiced. */
  cents: Float64Array;
  /** Indices of the frames steady enough to count (voiced, not in a fast glide, not isolated). */
  stable: number[];
};

/**
 * The frames that say where a note was played: voiced, in a run of ≥ 3 voiced frames, and not
 * moving faster than GLIDE cents over two hops (a vibrato of ±20 cents at 6 Hz moves ≤ 30 cents
 * over 40 ms; a glide between notes moves more).
 */
export function framesOf(track: PitchTrack, glidePer20ms = 45): Frames {
  // Scaled to the hop: a plain track at 3 ms moves less between frames than one at 20 ms.
  const glide = Math.max(20, (glidePer20ms * track.hopMs) / 20);
  const n = track.f0.length;
  const cents = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const f = track.f0[i] as number;
    cents[i] = f > 0 ? hzToCents(f) : NaN;
  }
  const stable: number[] = [];
  for (let i = 1; i < n - 1; i++) {
    const a = cents[i - 1] as number;
    const b = cents[i] as number;
    const c = cents[i + 1] as number;
    if (Number.isNaN(a) || Number.isNaN(b) || Number.isNaN(c)) continue;
    if (Math.abs(c - a) > glide || Math.abs(b - a) > glide || Math.abs(c - b) > glide) continue;
    stable.push(i);
  }
  return { hopMs: track.hopMs, cents, stable };
}

/** ((x mod m) + m) mod m */
export const mod = (x: number, m: number) => ((x % m) + m) % m;

/** The signed distance from a to b around a circle of `m`, in −m/2…m/2. */
export const circDiff = (a: number, b: number, m = 1200) => mod(b - a + m / 2, m) - m / 2;
