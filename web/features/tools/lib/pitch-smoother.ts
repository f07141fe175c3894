/**
 * Steadies the tuner's reading: a pitch counts only with enough clarity (McLeod's NSDF peak, 0..1)
 * and level; the shown pitch is the median of the last few readings (in log frequency, so an
 * octave error or a stray reading does not pull it); on silence the last reading is held (marked
 * stale) instead of flickering away, until `holdMs` passes.
 *
 * A new note shows only once `settle` readings agree: the first analysis window of a tone holds
 * its onset (part silence, part attack) and reads a few cents off, and a median of three outvotes
 * it. Until then the previous note stays on screen, marked stale.
 */
export class PitchSmoother {
  private readings: Array<{ at: number; log: number }> = [];
  private lastShown: { at: number; hz: number } | null = null;

  constructor(
    private readonly size = 5,
    private readonly minClarity = 0.9,
    private readonly holdMs = 2500,
    private readonly settle = 3,
  ) {}

  push(at: number, hz: number, clarity: number, rms: number): { hz: number; stale: boolean } | null {
    const ok = clarity >= this.minClarity && rms > 0.003 && hz > 40 && hz < 2500;
    if (ok) {
      // A jump of more than ~a semitone from the median starts over: a new note.
      const med = this.median();
      if (med !== null && Math.abs(Math.log2(hz) - med) > 1 / 12) this.readings = [];
      this.readings.push({ at, log: Math.log2(hz) });
      if (this.readings.length > this.size) this.readings.shift();
      if (this.readings.length < this.settle) return this.held(at);
      const m = this.median() as number;
      this.lastShown = { at, hz: 2 ** m };
      return { hz: this.lastShown.hz, stale: false };
    }
    this.readings = this.readings.filter((r) => at - r.at < 300);
    return this.held(at);
  }

  private held(at: number): { hz: number; stale: boolean } | null {
    if (this.lastShown && at - this.lastShown.at < this.holdMs) return { hz: this.lastShown.hz, stale: true };
    this.lastShown = null;
    return null;
  }

  private median(): number | null {
    if (!this.readings.length) return null;
    const v = this.readings.map((r) => r.log).sort((a, b) => a - b);
    const mid = v.length >> 1;
    return v.length % 2 ? (v[mid] as number) : ((v[mid - 1] as number) + (v[mid] as number)) / 2;
  }
}
