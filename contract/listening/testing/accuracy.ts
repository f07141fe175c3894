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
