/**
 * Steadies the tuner's reading: a pitch counts only with enough clarity (McLeod's NSDF peak, 0..1)
 * and level; the shown pitch is the median of the last few readings (in log frequency, so an
 * octave error or a stray reading does not pull it); on silence the last reading is held (marked
 * stale) instead of flickering away, until `holdMs` passes.
 *
 * A new note shows only once it has settled: readings in its first `onsetMs` are left out (the
 * analysis window still holds the attack and the silence before it, and reads a few cents off),
 * and `settle` readings after them are needed. Until then the previous note stays on screen,
 * marked stale.
 */
export class PitchSmoother {
  private readings: Array<{ at: number; log: number }> = [];
  private lastShown: { at: number; hz: number } | null = null;
  /** The note being heard: when it began, its first reading (log2 Hz), when it was last heard. */
  private note: { start: number; log: number; last: number } | null = null;

  constructor(
    private readonly size = 5,
    private readonly minClarity = 0.9,
    private readonly holdMs = 2500,
    private readonly settle = 3,
    private readonly onsetMs = 100,
  ) {}

  push(at: number, hz: number, clarity: number, rms: number): { hz: number; stale: boolean } | null {
    // 300 ms without a clear reading end the note: the next tone starts with its onset again.
    if (this.note && at - this.note.last >= 300) {
      this.note = null;
      this.readings = [];
    }
    const ok = clarity >= this.minClarity && rms > 0.003 && hz > 40 && hz < 2500;
    if (!ok) return this.held(at);
    const log = Math.log2(hz);
    // A jump of more than ~a semitone from the note starts a new one.
    const ref = this.median() ?? this.note?.log;
    if (!this.note || ref === undefined || Math.abs(log - ref) > 1 / 12) {
      this.note = { start: at, log, last: at };
      this.readings = [];
    }
    this.note.last = at;
    if (at - this.note.start < this.onsetMs) return this.held(at);
    this.readings.push({ at, log });
    if (this.readings.length > this.size) this.readings.shift();
    if (this.readings.length < this.settle) return this.held(at);
    const m = this.median() as number;
    this.lastShown = { at, hz: 2 ** m };
    return { hz: this.lastShown.hz, stale: false };
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
