/**
 * Counts failures in a sliding window, in memory (one server process holds the data).
 * Used for sign-in: 10 failures per e-mail and address (refused), and per address alone (slowed).
 * At most `max` failures are kept per key.
 */
export class FailureLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => now - t < this.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }

  /** Seconds until another attempt is allowed, or 0 when allowed now. */
  retryAfter(key: string, now = Date.now()): number {
    const list = this.recent(key, now);
    if (list.length < this.max) return 0;
    const oldest = list[list.length - this.max] ?? now;
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000));
  }

  /** Failures within the window (at most `max`). */
  count(key: string, now = Date.now()): number {
    return this.recent(key, now).length;
  }

  fail(key: string, now = Date.now()): void {
    const list = this.recent(key, now);
    list.push(now);
    if (list.length > this.max) list.splice(0, list.length - this.max);
    this.hits.set(key, list);
    if (this.hits.size > 50_000) this.sweep(now);
  }

  reset(key: string): void {
    this.hits.delete(key);
  }

  private sweep(now: number): void {
    for (const key of [...this.hits.keys()]) this.recent(key, now);
  }
}
