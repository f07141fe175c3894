import { CENTS_PER_KOMA, KOMA_PER_OCTAVE, MAKAMS, perdeKoma } from '../../makam';
import { MAKAM_KEYS, type MakamKey } from '../../music-keys';
import type { PitchTrack } from '../track';

/**
 * Generated takes for the listening tests and the bench (docs/decisions/listening.md): no
 * recordings of anyone. A makam's scale walked as a short seyir (starting where its seyir says,
 * resting on the güçlü, ending held on the durak), with known per-perde offsets, vibrato, glides,
 * breaths, pitch-tracker errors; as a pitch track directly, or as audio (ney-like or voice-like
 * harmonic tones with breath noise, white noise to a given SNR).
 */

export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const gauss = (r: () => number) => Math.sqrt(-2 * Math.log(Math.max(1e-12, r()))) * Math.cos(2 * Math.PI * r());

export type Note = { startMs: number; endMs: number; koma: number; degree: number; glideMs: number; breathBefore: boolean };

export type SynthTake = {
  makam: MakamKey;
  tonicHz: number;
  /** Offset in cents per degree index of the scale (0 = durak, always 0). */
  offsets: number[];
  /** The scale's degrees in koma above the durak (one octave, without the octave). */
  degreesKoma: number[];
  notes: Note[];
  vibrato: { cents: number; hz: number };
  durationMs: number;
};

export type SynthOptions = { seed: number; makam?: MakamKey; maxOffset?: number; notes?: number };

/** Plans a take: the tonic anywhere from Kız to Süpürde ahenk (and an octave lower for a voice), offsets, notes. */
export function planTake(opts: SynthOptions): SynthTake {
  const r = rng(opts.seed);
  const makam = opts.makam ?? (MAKAM_KEYS[Math.floor(r() * MAKAM_KEYS.length)] as MakamKey);
  const m = MAKAMS[makam];
  const durakKoma = perdeKoma(m.durak) ?? 0;
  // Dügâh in ahenk −7 … +3 semitones at A4 = 435…445; the durak relative to Dügâh; maybe an octave down.
  const dugah = (435 + 10 * r()) * 2 ** ((-7 + 10 * r()) / 12);
  let tonicHz = dugah * 2 ** ((durakKoma - 9) / KOMA_PER_OCTAVE);
  while (tonicHz > 520) tonicHz /= 2;
  while (tonicHz < 110) tonicHz *= 2;
  if (r() < 0.3 && tonicHz > 220) tonicHz /= 2;

  const degreesKoma: number[] = [];
  let k = 0;
  for (const s of m.steps) {
    degreesKoma.push(k);
    k += s;
  }
  const n = degreesKoma.length;
  const maxOff = opts.maxOffset ?? 12;
  const offsets = degreesKoma.map((_, i) => (i === 0 ? 0 : Math.round((2 * r() - 1) * maxOff * 10) / 10));
  const gucluRel = (((perdeKoma(m.guclu) ?? 0) - durakKoma) % KOMA_PER_OCTAVE + KOMA_PER_OCTAVE) % KOMA_PER_OCTAVE;
  const gucluIdx = gucluRel === 0 ? n : Math.max(0, degreesKoma.indexOf(gucluRel));
  const kom = (idx: number) => (degreesKoma[((idx % n) + n) % n] as number) + KOMA_PER_OCTAVE * Math.floor(idx / n);

  const startIdx = m.seyir === 'cikici' ? (r() < 0.5 ? 0 : 1) : m.seyir === 'inici' ? n : gucluIdx;
  let idx = startIdx;
  const count = opts.notes ?? 36 + Math.floor(r() * 20);
  const path: number[] = [];
  for (let i = 0; i < count; i++) {
    path.push(idx);
    const u = r();
    const stepSize = u < 0.7 ? 1 : u < 0.9 ? 2 : 0;
    // Stay where the seyir starts, then drift towards the güçlü, towards the durak at the end.
    const goal = i < count * 0.25 ? startIdx : i < count * 0.6 ? gucluIdx : 0;
    const dir = r() < 0.65 ? Math.sign(goal - idx) || (r() < 0.5 ? 1 : -1) : r() < 0.5 ? 1 : -1;
    idx = Math.max(-2, Math.min(n + 3, idx + dir * stepSize));
  }
  for (let j = idx; j > 0; j--) path.push(j);
  for (let j = idx; j < 0; j++) path.push(j);
  path.push(0);

  const notes: Note[] = [];
  let t = 200 + r() * 300;
  path.forEach((p, i) => {
    const last = i === path.length - 1;
    const rest = p === gucluIdx || p === n;
    const dur = last ? 1500 + r() * 1000 : rest && r() < 0.5 ? 800 + r() * 700 : 200 + r() * 450;
    const breathBefore = i > 0 && r() < 0.15;
    if (breathBefore) t += 60 + r() * 160;
    notes.push({ startMs: t, endMs: t + dur, koma: kom(p), degree: ((p % n) + n) % n, glideMs: 30 + r() * 60, breathBefore });
    t += dur;
  });
  return { makam, tonicHz, offsets, degreesKoma, notes, vibrato: { cents: 8 + r() * 12, hz: 5 + r() } , durationMs: t + 300 };
}

/** The pitch at time t (ms) of a planned take, 0 where silent; vibrato and glides included. */
export function pitchAt(take: SynthTake, tMs: number, noteIdx: { i: number }): number {
  const ns = take.notes;
  while (noteIdx.i < ns.length - 1 && tMs >= (ns[noteIdx.i + 1] as Note).startMs) noteIdx.i++;
  const note = ns[noteIdx.i] as Note;
  if (tMs < note.startMs || tMs >= note.endMs) return 0;
  const cents = (nt: Note) => nt.koma * CENTS_PER_KOMA + (take.offsets[nt.degree] ?? 0);
  let c = cents(note);
  const prev = noteIdx.i > 0 ? ns[noteIdx.i - 1] : undefined;
  const into = tMs - note.startMs;
  if (prev && !note.breathBefore && into < note.glideMs) c = cents(prev) + (c - cents(prev)) * (into / note.glideMs);
  if (note.endMs - note.startMs > 300 && into > 120) c += take.vibrato.cents * Math.sin((2 * Math.PI * take.vibrato.hz * (tMs - note.startMs - 120)) / 1000);
  return take.tonicHz * 2 ** (c / 1200);
}

/** The take as a pitch track: per-frame jitter (σ 3 cents), 2 % dropouts, 1 % octave errors. */
export function synthTrack(take: SynthTake, seed: number, hopMs = 20): PitchTrack {
  const r = rng(seed ^ 0x5bd1e995);
  const frames = Math.floor(take.durationMs / hopMs);
  const f0 = new Float32Array(frames);
  const at = { i: 0 };
  for (let i = 0; i < frames; i++) {
    let f = pitchAt(take, i * hopMs, at);
    if (f > 0) {
      f *= 2 ** ((3 * gauss(r)) / 1200);
      const u = r();
      if (u < 0.02) f = 0;
      else if (u < 0.03) f *= r() < 0.5 ? 2 : 0.5;
    }
    f0[i] = f;
  }
  return { hopMs, f0, onsetsMs: [] };
}

export type Timbre = 'ney' | 'voice';

/** The take as audio: a harmonic tone (ney: few harmonics and breath; voice: formant-shaped) plus white noise at `snrDb`. */
export function synthAudio(take: SynthTake, seed: number, sampleRate = 22050, timbre: Timbre = 'ney', snrDb = 20): Float32Array {
  const r = rng(seed ^ 0x1234567);
  const n = Math.floor((take.durationMs / 1000) * sampleRate);
  const out = new Float32Array(n);
  const at = { i: 0 };
  let phase = 0;
  let env = 0;
  let breath = 0;
  const harmonics = timbre === 'ney' ? [1, 0.35, 0.18, 0.08] : Array.from({ length: 12 }, (_, h) => h + 1);
  const amps = (f: number) =>
    timbre === 'ney'
      ? harmonics
      : harmonics.map((h) => {
          const fh = f * h;
          return 0.3 / h + Math.exp(-(((fh - 650) / 200) ** 2)) + 0.6 * Math.exp(-(((fh - 1150) / 250) ** 2)) + 0.3 * Math.exp(-(((fh - 2600) / 400) ** 2));
        });
  let cached = amps(take.tonicHz);
  let cachedFor = take.tonicHz;
  const attack = 1 / (0.02 * sampleRate);
  for (let s = 0; s < n; s++) {
    const tMs = (s / sampleRate) * 1000;
    const f = pitchAt(take, tMs, at);
    const target = f > 0 ? 1 : 0;
    env += (target - env) * attack * 3;
    if (f > 0) {
      if (Math.abs(f - cachedFor) > 5) {
        cached = amps(f);
        cachedFor = f;
      }
      phase += (2 * Math.PI * f) / sampleRate;
      if (phase > 2 * Math.PI * 1000) phase -= 2 * Math.PI * 1000;
    }
    let v = 0;
    for (let h = 0; h < cached.length; h++) if (f * (h + 1) < sampleRate / 2) v += (cached[h] as number) * Math.sin((h + 1) * phase);
    breath = 0.9 * breath + 0.1 * (r() * 2 - 1);
    out[s] = env * (0.25 * v / (timbre === 'ney' ? 1.6 : 3) + (timbre === 'ney' ? 0.02 : 0.005) * breath);
  }
  addNoise(out, snrDb, r);
  return out;
}

/** Adds white noise `snrDb` below the signal's RMS. */
export function addNoise(x: Float32Array, snrDb: number, r: () => number): void {
  let e = 0;
  for (const v of x) e += v * v;
  const rms = Math.sqrt(e / Math.max(1, x.length));
  const noise = rms * 10 ** (-snrDb / 20) * Math.sqrt(3);
  for (let i = 0; i < x.length; i++) x[i] = (x[i] as number) + noise * (2 * r() - 1);
}

export type RhythmTake = { onsetsMs: number[]; bpmAt: (ms: number) => number; durationMs: number };

/**
 * A rhythm in beats of the counted unit: halves, quarters, eighths of the beat (and a dotted one)
 * at a tempo that moves linearly from `startBpm` by `driftPerMin`, with ±`jitterMs` of timing noise.
 */
export function planRhythm(seed: number, startBpm: number, driftPerMin: number, seconds: number, jitterMs = 8): RhythmTake {
  const r = rng(seed);
  const bpmAt = (ms: number) => startBpm + (driftPerMin * ms) / 60000;
  const onsetsMs: number[] = [];
  let t = 300;
  const lengths = [0.5, 0.5, 1, 1, 1, 2, 1.5];
  while (t < seconds * 1000 - 1500) {
    onsetsMs.push(t + jitterMs * (2 * r() - 1));
    const beats = lengths[Math.floor(r() * lengths.length)] as number;
    // Integrate the tempo over the note: dt = beats · 60000 / bpm(t), in small steps.
    let left = beats;
    while (left > 0) {
      const d = Math.min(left, 0.125);
      t += (d * 60000) / bpmAt(t);
      left -= d;
    }
  }
  return { onsetsMs, bpmAt, durationMs: t + 1000 };
}

/** A rhythm as audio: each note a tone (soft 10 ms attack, no click) with a short gap before the next. */
export function synthRhythmAudio(take: RhythmTake, seed: number, sampleRate = 11025, snrDb = 30): Float32Array {
  const r = rng(seed ^ 0x9e3779b9);
  const n = Math.floor((take.durationMs / 1000) * sampleRate);
  const out = new Float32Array(n);
  const on = take.onsetsMs;
  for (let i = 0; i < on.length; i++) {
    const start = Math.floor(((on[i] as number) / 1000) * sampleRate);
    const end = Math.min(n, Math.floor((((on[i + 1] ?? (on[i] as number) + 500) - 40) / 1000) * sampleRate));
    const f = 220 * 2 ** (Math.floor(r() * 8) / 12);
    for (let s = start; s < end; s++) {
      const t = (s - start) / sampleRate;
      const a = Math.min(1, t / 0.01) * Math.exp(-t * 2) * Math.min(1, (end - s) / (0.015 * sampleRate));
      out[s] = 0.3 * a * (Math.sin(2 * Math.PI * f * t) + 0.4 * Math.sin(4 * Math.PI * f * t) + 0.2 * Math.sin(6 * Math.PI * f * t));
    }
  }
  addNoise(out, snrDb, r);
  return out;
}
