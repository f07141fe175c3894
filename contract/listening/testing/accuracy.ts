import { CENTS_PER_KOMA } from '../../makam';
import { MAKAM_KEYS, type MakamKey } from '../../music-keys';
import { framesOf, hzToCents, mod } from '../pitch-frames';
import { makamReport, rankMakams } from '../intonation';
import { median } from '../stats';
import { planRhythm, planTake, synthAudio, synthRhythmAudio, synthTrack, type Timbre } from './synth';
import { detectOnsets, trackFromPcm, type PitchTrack } from '../track';
import { tempoReport } from '../tempo';

/**
 * The accuracy figures of the listening analysis on generated takes, shared by the unit tests
 * and the bench (docs/decisions/listening.md).
 */

export type Accuracy = {
  takes: number;
  tonicWithin10: number;
  tonicErrors: number[];
  deviationErrorMedian: number;
  makamRight: number;
  makamRightSameScale: number;
  confusions: Array<{ truth: MakamKey; got: MakamKey }>;
};

const foldedError = (a: number, b: number) => {
  const d = mod(hzToCents(a) - hzToCents(b) + 600, 1200) - 600;
  return Math.abs(d);
};

const sameScale = (a: MakamKey, b: MakamKey) => {
  const s = (k: MakamKey) => planTake({ seed: 1, makam: k }).degreesKoma.join(',');
  return s(a) === s(b);
};

/** Tonic, per-perde deviation and makam recognition over `count` takes (each makam in turn). */
export function measure(count: number, track: (seed: number, makam: MakamKey) => { take: ReturnType<typeof planTake>; track: PitchTrack }, seed0 = 1000): Accuracy {
  const tonicErrors: number[] = [];
  const devErrors: number[] = [];
  let right = 0;
  let rightScale = 0;
  const confusions: Accuracy['confusions'] = [];
  for (let i = 0; i < count; i++) {
    const makam = MAKAM_KEYS[i % MAKAM_KEYS.length] as MakamKey;
    const { take, track: tr } = track(seed0 + i, makam);
    const rep = makamReport(tr, makam);
    if (!rep) {
      tonicErrors.push(Infinity);
      continue;
    }
    tonicErrors.push(foldedError(rep.tonic_hz, take.tonicHz));
    rep.degrees.forEach((d) => {
      if (d.role === 'durak' || d.role === 'extra' || d.deviation_cents === null) return;
      const idx = take.degreesKoma.indexOf(d.aeu_koma);
      if (idx > 0) devErrors.push(Math.abs(d.deviation_cents - (take.offsets[idx] as number)));
    });
    // Makam with the tonic known.
    const fr = framesOf(tr);
    const octaveCents = hzToCents(take.tonicHz);
    const best = rankMakams(fr, octaveCents)[0]?.makam ?? makam;
    if (best === makam) right++;
    else confusions.push({ truth: makam, got: best });
    if (best === makam || sameScale(best, makam)) rightScale++;
  }
  return {
    takes: count,
    tonicWithin10: tonicErrors.filter((e) => e <= 10).length / count,
    tonicErrors,
    deviationErrorMedian: median(devErrors),
    makamRight: right / count,
    makamRightSameScale: rightScale / count,
    confusions,
  };
}

/** A pitch track generated directly (vibrato, glides, jitter, dropouts, octave errors). */
export const directTrack = (seed: number, makam: MakamKey) => {
  const take = planTake({ seed, makam });
  return { take, track: synthTrack(take, seed) };
};

/** A take through audio (harmonic tone, breath, 20 dB SNR) and the real pitch tracker. */
export const audioTrack = (seed: number, makam: MakamKey) => {
  const take = planTake({ seed, makam, notes: 28 });
  const timbre: Timbre = seed % 2 ? 'ney' : 'voice';
  const sr = 22050;
  return { take, track: trackFromPcm(synthAudio(take, seed, sr, timbre, 20), sr, { onsets: false }) };
};

export type TempoAccuracy = { cases: Array<{ bpm: number; drift: number; meanErrPct: number; driftErr: number; spread: number }> };

/** Tempo and drift on generated rhythms rendered as tones and run through the onset detector. */
export function measureTempo(cases: Array<{ seed: number; bpm: number; drift: number; seconds: number }>): TempoAccuracy {
  return {
    cases: cases.map((c) => {
      const take = planRhythm(c.seed, c.bpm, c.drift, c.seconds);
      const sr = 11025;
      const onsets = detectOnsets(synthRhythmAudio(take, c.seed, sr), sr);
      const rep = tempoReport(onsets, 'quarter', Math.round(c.bpm + (c.drift * c.seconds) / 120));
      const trueMean = (60000 * beatsBetween(take)) / ((take.onsetsMs.at(-1) ?? 0) - (take.onsetsMs[0] ?? 0));
      return {
        bpm: c.bpm,
        drift: c.drift,
        meanErrPct: rep ? (Math.abs(rep.mean_bpm - trueMean) / trueMean) * 100 : Infinity,
        driftErr: rep ? Math.abs(rep.drift_bpm_per_min - c.drift) : Infinity,
        spread: rep?.ioi_spread_ms ?? NaN,
      };
    }),
  };
}

function beatsBetween(take: ReturnType<typeof planRhythm>): number {
  // Integrate bpm over the span of onsets.
  const a = take.onsetsMs[0] ?? 0;
  const b = take.onsetsMs.at(-1) ?? 0;
  let beats = 0;
  for (let t = a; t < b; t += 10) beats += (take.bpmAt(t) * Math.min(10, b - t)) / 60000;
  return beats;
}

export const KOMA_CENTS = CENTS_PER_KOMA;

/** Second-order sections (RBJ cookbook) for the "old recording" band. */
function biquad(x: Float32Array, sr: number, type: 'lowpass' | 'highpass', f0: number): void {
  const w = (2 * Math.PI * f0) / sr;
  const alpha = Math.sin(w) / (2 * Math.SQRT1_2);
  const c = Math.cos(w);
  const b0 = type === 'lowpass' ? (1 - c) / 2 : (1 + c) / 2;
  const b1 = type === 'lowpass' ? 1 - c : -(1 + c);
  const a0 = 1 + alpha;
  const [nb0, nb1, nb2, na1, na2] = [b0 / a0, b1 / a0, b0 / a0, (-2 * c) / a0, (1 - alpha) / a0];
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < x.length; i++) {
    const x0 = x[i] as number;
    const y0 = nb0 * x0 + nb1 * x1 + nb2 * x2 - na1 * y1 - na2 * y2;
    x2 = x1;
    x1 = x0;
    y2 = y1;
    y1 = y0;
    x[i] = y0;
  }
}

export type Hardship = 'ensemble' | 'old-recording' | 'no-final';

/**
 * Takes harder than a student's, towards what real performances are (docs/decisions/listening.md,
 * "Real performances"): `ensemble` — the seyir played together by a ney and a voice an octave
 * below, 35 ms apart (heterophony), over a drone on the durak; `old-recording` — a voice through a
 * 300–3,400 Hz band (a shellac or radio transfer) at 15 dB SNR; `no-final` — a take cut before its
 * final durak (a fragment, or a piece that ends elsewhere).
 */
export const hardAudioTrack =
  (hardship: Hardship) =>
  (seed: number, makam: MakamKey): { take: ReturnType<typeof planTake>; track: PitchTrack } => {
    const take = planTake({ seed, makam, notes: 28 });
    const sr = 22050;
    let pcm: Float32Array;
    if (hardship === 'ensemble') {
      const lead = synthAudio(take, seed, sr, 'ney', 40);
      const low = synthAudio({ ...take, tonicHz: take.tonicHz / 2 }, seed + 1, sr, 'voice', 40);
      const lag = Math.round(0.035 * sr);
      pcm = new Float32Array(lead.length);
      for (let i = 0; i < pcm.length; i++) {
        const drone = 0.03 * Math.sin((2 * Math.PI * take.tonicHz * i) / sr) + 0.015 * Math.sin((4 * Math.PI * take.tonicHz * i) / sr);
        pcm[i] = (lead[i] as number) + 0.6 * ((low[i - lag] as number | undefined) ?? 0) + drone;
      }
    } else if (hardship === 'old-recording') {
      pcm = synthAudio(take, seed, sr, 'voice', 15);
      biquad(pcm, sr, 'highpass', 300);
      biquad(pcm, sr, 'highpass', 300);
      biquad(pcm, sr, 'lowpass', 3400);
      biquad(pcm, sr, 'lowpass', 3400);
    } else {
      const full = synthAudio(take, seed, sr, seed % 2 ? 'ney' : 'voice', 20);
      const lastStart = take.notes[take.notes.length - 1]?.startMs ?? take.durationMs;
      pcm = full.subarray(0, Math.floor((lastStart / 1000) * sr));
    }
    return { take, track: trackFromPcm(pcm, sr, { onsets: false }) };
  };
