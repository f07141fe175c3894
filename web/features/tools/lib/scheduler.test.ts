import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stepsPerUnit } from '@contract/music-keys';
import { LOOKAHEAD_S, LookaheadScheduler, TICK_MS, tempoFromTaps } from './scheduler';

/** Drives a scheduler with a fake clock: ticks every 25 ms ± jitter; returns all scheduled steps. */
function run(s: LookaheadScheduler, until: number, jitter: () => number, onTick?: (now: number) => void) {
  const out: Array<{ step: number; time: number; at: number }> = [];
  let now = 0;
  while (now < until) {
    onTick?.(now);
    for (const x of s.poll(now)) out.push({ ...x, at: now });
    now += TICK_MS / 1000 + jitter();
  }
  return out;
}

describe('look-ahead scheduler', () => {
  it('exactly one click per step over 10,000 steps, never late, on the grid', () => {
    const s = new LookaheadScheduler({ startTime: 0.05, bpm: 300 });
    let seed = 1;
    const rand = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 0.02; // ±10 ms
    const out = run(s, 0.05 + 10_000 * 0.2, rand);
    const steps = out.filter((x) => x.step < 10_000);
    expect(steps).toHaveLength(10_000);
    steps.forEach((x, i) => {
      expect(x.step).toBe(i);
      expect(x.time).toBeGreaterThanOrEqual(x.at); // never in the past
      expect(x.time - x.at).toBeLessThanOrEqual(LOOKAHEAD_S + 1e-9);
      expect(Math.abs(x.time - (0.05 + i * 0.2))).toBeLessThan(1e-6); // no drift
    });
    expect(s.skipped).toBe(0);
  });

  it('never schedules in the past or twice, whatever the timer does (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 300 }), fc.array(fc.double({ min: 0, max: 0.5, noNaN: true }), { minLength: 10, maxLength: 300 }), (bpm, gaps) => {
        const s = new LookaheadScheduler({ startTime: 0.01, bpm });
        let now = 0;
        let last = -1;
        let lastTime = -Infinity;
        for (const g of gaps) {
          now += g;
          for (const x of s.poll(now)) {
            if (x.time < now) return false;
            if (x.step <= last || x.time <= lastTime) return false;
            last = x.step;
            lastTime = x.time;
          }
        }
        return true;
      }),
    );
  });

  it('a tempo change takes effect on the next beat', () => {
    const s = new LookaheadScheduler({ startTime: 0, bpm: 120 });
    const out = run(s, 3, () => 0, (now) => {
      if (Math.abs(now - 1.3) < 0.0125) s.setTempo(60, now);
    });
    const times = out.map((x) => x.time);
    // Until the change: 0.5 s apart; already handed out steps stay; then 1 s apart.
    const gaps = times.slice(1).map((t, i) => +(t - (times[i] ?? 0)).toFixed(6));
    const change = gaps.findIndex((g) => g === 1);
    expect(change).toBeGreaterThan(0);
    expect(gaps.slice(0, change).every((g) => g === 0.5)).toBe(true);
    expect(gaps.slice(change).every((g) => g === 1)).toBe(true);
    // The first long gap starts at the last beat handed out before the change (≤ 1.3 + look-ahead).
    expect(times[change]).toBeLessThanOrEqual(1.3 + LOOKAHEAD_S);
    expect(times[change]).toBeGreaterThan(1.3 - 0.5);
  });

  it('skips steps a stalled timer missed instead of playing them late, keeping the grid', () => {
    const s = new LookaheadScheduler({ startTime: 0, bpm: 120 });
    s.poll(0);
    const after = s.poll(2.45);
    expect(after[0]!.time).toBeGreaterThanOrEqual(2.45);
    expect(after[0]!.time % 0.5).toBeCloseTo(0, 9);
    expect(after[0]!.step).toBe(5);
  });
});

describe('the tempo counts the unit the music is written in', () => {
  /** The first `n` click times of a scheduler started at 0, driven by a punctual 25 ms timer. */
  const clicks = (bpm: number, stepsPerBeat: number, n: number) => {
    const s = new LookaheadScheduler({ startTime: 0, bpm, stepsPerBeat });
    return run(s, 12, () => 0)
      .map((x) => x.time)
      .slice(0, n);
  };
  const gaps = (times: number[]) => times.slice(1).map((t, i) => t - (times[i] ?? 0));

  it('9/8 at ♪ = 80: the eighths are 0.75 s apart', () => {
    const spb = stepsPerUnit('eighth', 8);
    expect(spb).toBe(1);
    const times = clicks(80, spb, 10);
    expect(times).toHaveLength(10);
    for (const g of gaps(times)) expect(g).toBeCloseTo(0.75, 9);
    expect(times[9]).toBeCloseTo(9 * 0.75, 9); // a whole 9/8 bar lasts 6.75 s
  });

  it('4/4 at ♩ = 80: the quarters are 0.75 s apart', () => {
    const times = clicks(80, stepsPerUnit('quarter', 4), 5);
    for (const g of gaps(times)) expect(g).toBeCloseTo(0.75, 9);
  });

  it('6/8 at ♩. = 60: the dotted quarter lasts 1 s, the eighths 1/3 s', () => {
    const spb = stepsPerUnit('dotted-quarter', 8);
    expect(spb).toBe(3);
    const times = clicks(60, spb, 7);
    for (const g of gaps(times)) expect(g).toBeCloseTo(1 / 3, 9);
    expect(times[3]).toBeCloseTo(1, 9); // the second dotted quarter starts after 1 s
    expect(times[6]).toBeCloseTo(2, 9); // a 6/8 bar lasts 2 s
  });

  it('the same number counted in quarters over eighths is twice as fast, and a unit change takes effect on the next beat', () => {
    const times = clicks(80, stepsPerUnit('quarter', 8), 4);
    for (const g of gaps(times)) expect(g).toBeCloseTo(0.375, 9);
    const s = new LookaheadScheduler({ startTime: 0, bpm: 180, stepsPerBeat: 1 }); // 6/8 ♪ = 180
    const out = run(s, 3, () => 0, (now) => {
      if (Math.abs(now - 1) < 0.0125) s.setTempo(60, now, 3); // the same pulse written ♩. = 60
    });
    for (const g of gaps(out.map((x) => x.time))) expect(g).toBeCloseTo(1 / 3, 9);
  });
});

describe('tap tempo', () => {
  it('averages the last intervals and restarts after a pause', () => {
    expect(tempoFromTaps([0])).toBeNull();
    expect(tempoFromTaps([0, 500, 1000, 1500])).toBe(120);
    expect(tempoFromTaps([0, 1000, 5000, 5500])).toBe(120);
    expect(tempoFromTaps([0, 100])).toBe(300);
    expect(tempoFromTaps([0, 2000])).toBe(30);
    expect(tempoFromTaps([0, 2001])).toBeNull();
  });
});
