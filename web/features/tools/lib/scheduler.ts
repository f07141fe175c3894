import { TEMPO_RANGE } from '@contract/music-keys';

/**
 * The pure core of the Web Audio look-ahead scheduler (web.dev "A Tale of Two Clocks";
 * cwilso/metronome): a timer calls `poll(now)` every ~25 ms with the AudioContext's currentTime;
 * it returns every step due before `now + lookahead` (100 ms), each exactly once, none in the past.
 *
 * - The tempo counts a note value (♪, ♩, ♩. …) and a step is one written beat of the bar:
 *   `stepsPerBeat` says how many steps one counted note lasts (♩. = 60 over eighths: 3, so a step
 *   is 1/3 s; ♪ = 80 over eighths: 1, 0.75 s). See stepsPerUnit in contract/music-keys.ts.
 * - Steps lie on a grid: step n+1 = step n + seconds per step; no drift, as the times are computed
 *   from the previous step's time, not from the timer.
 * - A tempo change takes effect on the next beat: the step after the last one already handed out
 *   comes one NEW step length after it.
 * - When the timer stalled longer than the look-ahead (a frozen tab, a suspended context), the
 *   steps that fell into the past are skipped — the grid keeps its phase and nothing sounds late.
 */

export const LOOKAHEAD_S = 0.1;
export const TICK_MS = 25;

export type ScheduledStep = { step: number; time: number };

/** Seconds one step lasts at `bpm` counted notes a minute, `stepsPerBeat` steps to the note. */
export const stepSeconds = (bpm: number, stepsPerBeat = 1): number => 60 / clampTempo(bpm) / (stepsPerBeat > 0 ? stepsPerBeat : 1);

export const clampTempo = (bpm: number) => Math.min(TEMPO_RANGE.max, Math.max(TEMPO_RANGE.min, Math.round(Number.isFinite(bpm) ? bpm : 60)));

export class LookaheadScheduler {
  private nextTime: number;
  private nextStep = 0;
  private lastTime: number | null = null;
  private spb: number;
  private lookahead: number;
  /** Steps skipped because the timer came too late (for diagnostics). */
  skipped = 0;

  constructor(opts: { startTime: number; bpm: number; stepsPerBeat?: number; lookahead?: number; firstStep?: number }) {
    this.nextTime = opts.startTime;
    this.spb = stepSeconds(opts.bpm, opts.stepsPerBeat);
    this.lookahead = opts.lookahead ?? LOOKAHEAD_S;
    this.nextStep = opts.firstStep ?? 0;
  }

  get secondsPerStep(): number {
    return this.spb;
  }

  /** Changes how far ahead steps are handed out (seconds). */
  setLookahead(seconds: number): void {
    this.lookahead = seconds;
  }

  /** Changes the tempo (and the note it counts) from the next beat on. */
  setTempo(bpm: number, now: number, stepsPerBeat = 1): void {
    this.spb = stepSeconds(bpm, stepsPerBeat);
    if (this.lastTime !== null) this.nextTime = Math.max(this.lastTime + this.spb, now);
  }

  /** The steps to schedule now (ascending, each once, none before `now`). */
  poll(now: number): ScheduledStep[] {
    if (this.nextTime < now) {
      const missed = Math.ceil((now - this.nextTime) / this.spb - 1e-9);
      this.nextStep += missed;
      this.skipped += missed;
      this.nextTime += missed * this.spb;
    }
    const out: ScheduledStep[] = [];
    while (this.nextTime < now + this.lookahead) {
      out.push({ step: this.nextStep, time: this.nextTime });
      this.lastTime = this.nextTime;
      this.nextStep += 1;
      this.nextTime += this.spb;
    }
    return out;
  }
}

/**
 * Tap tempo: the tempo of the last taps (ms timestamps, ascending), from the mean of up to the last
 * 4 intervals; a pause of more than 2 s starts a new series. Null until two taps.
 */
export function tempoFromTaps(taps: readonly number[]): number | null {
  let start = taps.length - 1;
  while (start > 0 && (taps[start] ?? 0) - (taps[start - 1] ?? 0) <= 2000 && taps.length - start < 5) start--;
  const series = taps.slice(start);
  if (series.length < 2) return null;
  const first = series[0] ?? 0;
  const last = series[series.length - 1] ?? 0;
  const mean = (last - first) / (series.length - 1);
  return mean > 0 ? clampTempo(60_000 / mean) : null;
}
