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

export type TrackOptions = { hopMs?: number; clarity?: number; onsets?: boolean };

/** Low-passes (windowed sinc) and keeps every `factor`-th sample. */
export function decimate(pcm: Float32Array, factor: number): Float32Array {
  if (factor <= 1) return pcm;
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

/** The pitch track and onsets of mono PCM (samples in −1…1). */
export function trackFromPcm(input: Float32Array, sampleRate: number, opts: TrackOptions = {}): PitchTrack {
  if (!Number.isFinite(sampleRate) || sampleRate < 8000 || sampleRate > 384000) throw new RangeError(`sample rate ${sampleRate} is not in 8000…384000`);
  const hopMs = opts.hopMs ?? HOP_MS;
  const clarityMin = opts.clarity ?? CLARITY;
  const pcm = input.length > MAX_SECONDS * sampleRate ? input.subarray(0, MAX_SECONDS * sampleRate) : input;
  const factor = Math.max(1, Math.floor(sampleRate / 11025));
  const x = decimate(pcm, factor);
  const sr = sampleRate / factor;

  const win = 1024;
  const hop = (sr * hopMs) / 1000;
  const frames = Math.max(0, Math.floor((x.length / sr) * (1000 / hopMs)));
  const f0 = new Float32Array(frames);
  const rms = new Float32Array(frames);
  const buf = new Float32Array(win);
  const detector = PitchDetector.forFloat32Array(win);
  detector.minVolumeDecibels = -70;
  let loudest = 0;
  for (let i = 0; i < frames; i++) {
    const start = Math.round(i * hop) - win / 2;
    let e = 0;
    for (let j = 0; j < win; j++) {
      const k = start + j;
      const v = k >= 0 && k < x.length ? (x[k] as number) : 0;
      buf[j] = v;
      e += v * v;
    }
    const r = Math.sqrt(e / win);
    rms[i] = r;
    if (r > loudest) loudest = r;
    if (r < 1e-5) continue;
    const [hz, clarity] = detector.findPitch(buf, sr);
    if (clarity >= clarityMin && hz >= MIN_HZ && hz <= MAX_HZ) f0[i] = hz;
  }
  const gate = loudest * 10 ** (-45 / 20);
  for (let i = 0; i < frames; i++) if ((rms[i] as number) < gate) f0[i] = 0;
  return { hopMs, f0, onsetsMs: opts.onsets === false ? [] : detectOnsets(x, sr) };
}

/** Onset times (ms) by spectral flux with Dixon's adaptive threshold. */
export type OnsetOptions = { delta?: number; compression?: number };

export function detectOnsets(x: Float32Array, sr: number, o: OnsetOptions = {}): number[] {
  const n = 512;
  const hop = 128;
  const fft = new Fft(n);
  const hann = new Float64Array(n);
  for (let i = 0; i < n; i++) hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / n);
  const frames = Math.max(0, Math.floor((x.length - n) / hop) + 1);
  const flux = new Float64Array(frames);
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  let prev = new Float64Array(n / 2);
  let cur = new Float64Array(n / 2);
  for (let f = 0; f < frames; f++) {
    const s = f * hop;
    for (let i = 0; i < n; i++) {
      re[i] = (x[s + i] as number) * (hann[i] as number);
      im[i] = 0;
    }
    fft.transform(re, im);
    let sf = 0;
    for (let k = 0; k < n / 2; k++) {
      const mag = Math.log1p((o.compression ?? 10) * Math.hypot(re[k] as number, im[k] as number));
      cur[k] = mag;
      const d = mag - (prev[k] as number);
      if (f > 0 && d > 0) sf += d;
    }
    flux[f] = sf;
    const t = prev;
    prev = cur;
    cur = t;
  }
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
