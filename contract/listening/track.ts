import { PitchDetector } from 'pitchy';
import { Fft } from './fft';

/**
 * From decoded audio to what the reports need (docs/decisions/listening.md): a pitch track (one
 * fundamental frequency per hop, 0 = unvoiced) and onsets (ms). Pure: no DOM, no Node APIs, so a
 * Web Worker and the CLI run the same code.
 *
 * - Pitch: the McLeod pitch method (`pitchy`) on a 1024-sample window of the signal low-passed and
 *   decimated to ~11–12 kHz (plenty for fundamentals up to 2 kHz, four times less work), every
 *   HOP_MS; a frame is voiced when its clarity is ≥ CLARITY and its level within 45 dB of the
 *   take's loudest frame (drops breath, noise and silence).
 * - Onsets: spectral flux (half-wave rectified difference of log(1 + 10·|X|), Hann window of 512,
 *   hop 128 at the decimated rate ≈ 11 ms) with Dixon's adaptive threshold ("Onset detection
 *   revisited", DAFx 2006: local maximum over ±w, above the local mean + δ, above a decaying
 *   running maximum); δ = 1.5 standard deviations, chosen on generated tones (no false onsets from
 *   breath or noise at 30 dB SNR): to be tuned on real takes.
 */

export const HOP_MS = 20;
export const CLARITY = 0.8;
export const MIN_HZ = 50;
export const MAX_HZ = 2000;
/** The longest take analysed (a longer one is cut, and says so). */
export const MAX_SECONDS = 60 * 60;

export type PitchTrack = {
  /** Time between pitch frames, ms. Frame i is centred at i · hopMs. */
  hopMs: number;
  /** Fundamental per frame in Hz; 0 where unvoiced. */
  f0: Float32Array;
  /** Onset times in ms, ascending. Empty when not computed (a plain pitch track). */
  onsetsMs: number[];
};

/** `maxSeconds`: where a take is cut (at most MAX_SECONDS). */
export type TrackOptions = { hopMs?: number; clarity?: number; onsets?: boolean; maxSeconds?: number };

/** The low-pass filter of `decimate` (windowed sinc, 8 · factor + 1 taps, normalised). */
function lowPass(factor: number): Float64Array {
  const taps = 8 * factor + 1;
  const half = (taps - 1) / 2;
  const fc = 0.45 / factor; // cycles per input sample
  const h = new Float64Array(taps);
  let sum = 0;
  for (let i = 0; i < taps; i++) {
    const x = i - half;
    const sinc = x === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * x) / (Math.PI * x);
    const w = 0.54 - 0.46 * Math.cos((2 * Math.PI * i) / (taps - 1));
    h[i] = sinc * w;
    sum += sinc * w;
  }
  for (let i = 0; i < taps; i++) h[i] = (h[i] as number) / sum;
  return h;
}

/** Low-passes (windowed sinc) and keeps every `factor`-th sample. */
export function decimate(pcm: Float32Array, factor: number): Float32Array {
  if (factor <= 1) return pcm;
  const h = lowPass(factor);
  const half = (h.length - 1) / 2;
  const n = Math.floor(pcm.length / factor);
  const out = new Float32Array(n);
  for (let o = 0; o < n; o++) {
    const c = o * factor;
    let acc = 0;
    const lo = Math.max(0, c - half);
    const hi = Math.min(pcm.length - 1, c + half);
    for (let j = lo; j <= hi; j++) acc += (pcm[j] as number) * (h[j - c + half] as number);
    out[o] = acc;
  }
  return out;
}

/** A Float32Array that grows (the track's frames, which the builder cannot count in advance). */
class Growing<T extends Float32Array | Float64Array> {
  length = 0;
  constructor(
    private data: T,
    private readonly make: (n: number) => T,
  ) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(Math.max(1024, this.data.length * 2));
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  get(i: number): number {
    return this.data[i] as number;
  }
  set(i: number, v: number): void {
    this.data[i] = v;
  }
  /** The first `n` values in an array of their own. */
  take(n: number): T {
    return this.data.slice(0, Math.min(n, this.length)) as T;
  }
}

/** Samples from an absolute index on: what a stage still needs of a stream it reads in pieces. */
class Window {
  buf: Float32Array = new Float32Array(0);
  /** Absolute index of buf[0]. */
  start = 0;
  get end(): number {
    return this.start + this.buf.length;
  }
  append(more: Float32Array): void {
    if (!this.buf.length) {
      this.buf = more;
      return;
    }
    const joined = new Float32Array(this.buf.length + more.length);
    joined.set(this.buf);
    joined.set(more, this.buf.length);
    this.buf = joined;
  }
  /** Lets go of everything before absolute index `from` (kept in an array of its own). */
  dropBefore(from: number): void {
    const cut = Math.min(this.buf.length, Math.max(0, from - this.start));
    if (cut === 0) return;
    this.buf = this.buf.slice(cut);
    this.start += cut;
  }
}

/** The spectral flux of one onset frame after another (Hann 512; the first frame's flux is 0). */
class Flux {
  static readonly N = 512;
  static readonly HOP = 128;
  private readonly fft = new Fft(Flux.N);
  private readonly hann = new Float64Array(Flux.N);
  private readonly re = new Float64Array(Flux.N);
  private readonly im = new Float64Array(Flux.N);
  private prev = new Float64Array(Flux.N / 2);
  private cur = new Float64Array(Flux.N / 2);
  private first = true;

  constructor(private readonly compression = 10) {
    for (let i = 0; i < Flux.N; i++) this.hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / Flux.N);
  }

  /** The flux of the frame of `x` starting at `s` (all N samples must be there). */
  next(x: Float32Array, s: number): number {
    const { re, im, hann } = this;
    for (let i = 0; i < Flux.N; i++) {
      re[i] = (x[s + i] as number) * (hann[i] as number);
      im[i] = 0;
    }
    this.fft.transform(re, im);
    let sf = 0;
    for (let k = 0; k < Flux.N / 2; k++) {
      const mag = Math.log1p(this.compression * Math.hypot(re[k] as number, im[k] as number));
      this.cur[k] = mag;
      const d = mag - (this.prev[k] as number);
      if (!this.first && d > 0) sf += d;
    }
    this.first = false;
    const t = this.prev;
    this.prev = this.cur;
    this.cur = t;
    return sf;
  }
}

/**
 * The pitch track of mono PCM that arrives in pieces (a decoder's chunks, a WAV read slice by
 * slice): each piece is low-passed and decimated as it comes, and every pitch frame and onset
 * frame is computed as soon as its samples are there, so only a few thousand samples are held
 * whatever the take's length (the CLI, docs/decisions/listening.md "CLI"). The result is the one
 * `trackFromPcm` gives for the whole take at once; more than MAX_SECONDS is cut.
 */
export class TrackBuilder {
  readonly hopMs: number;
  private readonly clarityMin: number;
  private readonly onsets: boolean;
  private readonly factor: number;
  private readonly sr: number;
  private readonly h: Float64Array;
  private readonly half: number;
  private readonly maxInput: number;
  private inputSeen = 0;
  /** Input samples not yet used up by the decimator. */
  private readonly input = new Window();
  private nextOut = 0;
  /** Decimated samples the pitch and onset frames still need. */
  private readonly x = new Window();
  private readonly win = 1024;
  private readonly hop: number;
  private nextFrame = 0;
  private readonly f0 = new Growing(new Float32Array(0), (n) => new Float32Array(n));
  private readonly rms = new Growing(new Float32Array(0), (n) => new Float32Array(n));
  private loudest = 0;
  private readonly buf: Float32Array;
  private readonly detector: PitchDetector<Float32Array>;
  private readonly flux = new Growing(new Float64Array(0), (n) => new Float64Array(n));
  private readonly fluxer = new Flux();
  private finished = false;

  constructor(
    readonly sampleRate: number,
    opts: TrackOptions = {},
  ) {
    if (!Number.isFinite(sampleRate) || sampleRate < 8000 || sampleRate > 384000) throw new RangeError(`sample rate ${sampleRate} is not in 8000…384000`);
    this.hopMs = opts.hopMs ?? HOP_MS;
    this.clarityMin = opts.clarity ?? CLARITY;
    this.onsets = opts.onsets !== false;
    this.maxInput = Math.floor(Math.min(MAX_SECONDS, opts.maxSeconds ?? MAX_SECONDS) * sampleRate);
    this.factor = Math.max(1, Math.floor(sampleRate / 11025));
    this.sr = sampleRate / this.factor;
    this.h = lowPass(this.factor);
    this.half = (this.h.length - 1) / 2;
    this.hop = (this.sr * this.hopMs) / 1000;
    this.buf = new Float32Array(this.win);
    this.detector = PitchDetector.forFloat32Array(this.win);
    this.detector.minVolumeDecibels = -70;
  }

  /** Whether MAX_SECONDS (or the option's `maxSeconds`) of input arrived (what comes after is cut). */
  get full(): boolean {
    return this.inputSeen >= this.maxInput;
  }

  /** Input samples taken (at most MAX_SECONDS of them). */
  get samples(): number {
    return this.inputSeen;
  }

  /** The next piece of mono PCM (samples in −1…1). The builder keeps it: do not change it afterwards. */
  push(pcm: Float32Array): void {
    if (this.finished) throw new Error('the track is finished');
    const room = this.maxInput - this.inputSeen;
    if (room <= 0 || !pcm.length) return;
    const piece = pcm.length > room ? pcm.subarray(0, room) : pcm;
    this.inputSeen += piece.length;
    if (this.factor <= 1) {
      this.x.append(piece);
    } else {
      this.input.append(piece);
      this.decimateUpTo(false);
    }
    this.frames(false);
  }

  /** The track of everything pushed. */
  finish(): PitchTrack {
    if (this.finished) throw new Error('the track is finished');
    if (this.factor > 1) this.decimateUpTo(true);
    this.frames(true);
    this.finished = true;
    const xLength = this.x.end;
    const frames = Math.max(0, Math.floor((xLength / this.sr) * (1000 / this.hopMs)));
    const f0 = this.f0.take(frames);
    const gate = this.loudest * 10 ** (-45 / 20);
    for (let i = 0; i < f0.length; i++) if (this.rms.get(i) < gate) f0[i] = 0;
    const flux = this.flux.take(this.flux.length);
    return { hopMs: this.hopMs, f0, onsetsMs: this.onsets ? onsetsFromFlux(flux, this.sr) : [] };
  }

  /** Decimated samples for every output whose filter has its input (all of them at the end). */
  private decimateUpTo(end: boolean): void {
    const { factor, half, h, input } = this;
    const seen = this.inputSeen;
    const total = end ? Math.floor(seen / factor) : Math.max(0, Math.floor((seen - 1 - half) / factor) + 1);
    const limit = Math.min(total, Math.floor(seen / factor));
    if (limit <= this.nextOut) return;
    const out = new Float32Array(limit - this.nextOut);
    const b = input.buf;
    const base = input.start;
    for (let o = this.nextOut; o < limit; o++) {
      const c = o * factor;
      let acc = 0;
      const lo = Math.max(0, c - half);
      const hi = Math.min(seen - 1, c + half);
      for (let j = lo; j <= hi; j++) acc += (b[j - base] as number) * (h[j - c + half] as number);
      out[o - this.nextOut] = acc;
    }
    this.nextOut = limit;
    input.dropBefore(limit * factor - half);
    this.x.append(out);
  }

  /** Every pitch and onset frame whose samples are there; at the end, the pitch frames up to the take's length. */
  private frames(end: boolean): void {
    const { x, win, hop } = this;
    const xEnd = x.end;
    const last = end ? Math.max(0, Math.floor((xEnd / this.sr) * (1000 / this.hopMs))) : Infinity;
    for (let i = this.nextFrame; i < last; i++) {
      const start = Math.round(i * hop) - win / 2;
      if (!end && start + win > xEnd) break;
      let e = 0;
      for (let j = 0; j < win; j++) {
        const k = start + j;
        const v = k >= 0 && k < xEnd ? (x.buf[k - x.start] as number) : 0;
        this.buf[j] = v;
        e += v * v;
      }
      const r = Math.sqrt(e / win);
      this.rms.push(r);
      if (r > this.loudest) this.loudest = r;
      let f = 0;
      if (r >= 1e-5) {
        const [hz, clarity] = this.detector.findPitch(this.buf, this.sr);
        if (clarity >= this.clarityMin && hz >= MIN_HZ && hz <= MAX_HZ) f = hz;
      }
      this.f0.push(f);
      this.nextFrame = i + 1;
    }
    let nextFlux = this.flux.length;
    if (this.onsets) {
      for (let s = nextFlux * Flux.HOP; s + Flux.N <= xEnd; s += Flux.HOP) {
        this.flux.push(this.fluxer.next(x.buf, s - x.start));
        nextFlux++;
      }
    }
    x.dropBefore(Math.min(Math.round(this.nextFrame * hop) - win / 2, this.onsets ? nextFlux * Flux.HOP : Infinity));
  }
}

/** The pitch track and onsets of mono PCM (samples in −1…1). */
export function trackFromPcm(input: Float32Array, sampleRate: number, opts: TrackOptions = {}): PitchTrack {
  const builder = new TrackBuilder(sampleRate, opts);
  builder.push(input);
  return builder.finish();
}

/** Onset times (ms) by spectral flux with Dixon's adaptive threshold. */
export type OnsetOptions = { delta?: number; compression?: number };

export function detectOnsets(x: Float32Array, sr: number, o: OnsetOptions = {}): number[] {
  const fluxer = new Flux(o.compression ?? 10);
  const frames = Math.max(0, Math.floor((x.length - Flux.N) / Flux.HOP) + 1);
  const flux = new Float64Array(frames);
  for (let f = 0; f < frames; f++) flux[f] = fluxer.next(x, f * Flux.HOP);
  return onsetsFromFlux(flux, sr, o);
}

/** Dixon's adaptive threshold over the spectral flux of frames `Flux.HOP` apart (changes `flux`). */
function onsetsFromFlux(flux: Float64Array, sr: number, o: OnsetOptions = {}): number[] {
  const n = Flux.N;
  const hop = Flux.HOP;
  const frames = flux.length;
  if (frames < 3) return [];
  // Normalise to mean 0, standard deviation 1 (Dixon 2006, §3).
  let mean = 0;
  for (let f = 0; f < frames; f++) mean += flux[f] as number;
  mean /= frames;
  let v = 0;
  for (let f = 0; f < frames; f++) v += ((flux[f] as number) - mean) ** 2;
  const sd = Math.sqrt(v / frames) || 1;
  for (let f = 0; f < frames; f++) flux[f] = ((flux[f] as number) - mean) / sd;

  const w = 3;
  const m = 3;
  const delta = o.delta ?? 1.5;
  const alpha = 0.9;
  const minGapMs = 50;
  const out: number[] = [];
  let g = 0;
  for (let f = 0; f < frames; f++) {
    const val = flux[f] as number;
    let isMax = true;
    for (let k = Math.max(0, f - w); k <= Math.min(frames - 1, f + w); k++) if ((flux[k] as number) > val) isMax = false;
    let local = 0;
    let cnt = 0;
    for (let k = Math.max(0, f - m * w); k <= Math.min(frames - 1, f + w); k++) {
      local += flux[k] as number;
      cnt++;
    }
    local /= cnt;
    const above = val >= local + delta && val >= g;
    g = Math.max(val, alpha * g + (1 - alpha) * val);
    if (isMax && above) {
      const ms = ((f * hop + n / 2) / sr) * 1000;
      const last = out[out.length - 1];
      if (last === undefined || ms - last >= minGapMs) out.push(Math.round(ms));
    }
  }
  return out;
}

/** A track from a plain list of frequencies (Hz, 0 = silence) at a fixed hop. */
export function trackFromHz(hz: ArrayLike<number>, hopMs: number): PitchTrack {
  const f0 = new Float32Array(hz.length);
  for (let i = 0; i < hz.length; i++) {
    const v = Number(hz[i]);
    f0[i] = Number.isFinite(v) && v >= MIN_HZ / 2 && v <= MAX_HZ * 2 ? v : 0;
  }
  return { hopMs, f0, onsetsMs: [] };
}
