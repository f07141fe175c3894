import { MAX_SECONDS } from './track';

/** The first `n` samples of each plane (channel), averaged, in an array of their own. */
export function mixToMono(planes: readonly Float32Array[], n: number): Float32Array {
  const out = new Float32Array(n);
  for (const p of planes) for (let i = 0; i < n; i++) out[i] = (out[i] as number) + (p[i] ?? 0) / planes.length;
  return out;
}

/**
 * Decoded audio arriving in chunks (a codec's output), mixed to mono and gathered, cut at
 * `maxSeconds` (the analysis cuts there too). Shared by the CLI's decoders and the browser's
 * analysis Worker (docs/decisions/listening.md).
 */
export class MonoMix {
  private parts: Float32Array[] = [];
  private total = 0;

  constructor(
    readonly rate: number,
    private readonly maxSeconds: number = MAX_SECONDS,
  ) {}

  get samples(): number {
    return this.total;
  }

  get full(): boolean {
    return this.total >= this.maxSeconds * this.rate;
  }

  /** `n` samples of each plane (channel), averaged. */
  add(planes: Float32Array[], n: number): void {
    const take = Math.min(n, this.maxSeconds * this.rate - this.total);
    if (take <= 0 || !planes.length) return;
    this.parts.push(mixToMono(planes, take));
    this.total += take;
  }

  /** All of it as one array (the parts are let go). */
  done(): Float32Array {
    const pcm = new Float32Array(this.total);
    let at = 0;
    for (const p of this.parts) {
      pcm.set(p, at);
      at += p.length;
    }
    this.parts = [];
    return pcm;
  }
}
