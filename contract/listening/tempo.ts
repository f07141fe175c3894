import type { TempoUnit } from '../music-keys';
import { median, round1, round2 } from './stats';

/**
 * The tempo report (docs/decisions/listening.md): inter-onset intervals folded to the beat
 * (an IOI of half, one, one and a half, two … beats counts as that many beats), a local tempo per
 * IOI, a linear fit for the drift, the spread of the IOIs around the fitted beat, and the stretches
 * where the smoothed tempo ran away from the reference.
 */

const MULTIPLES = [1 / 4, 1 / 3, 1 / 2, 2 / 3, 3 / 4, 1, 3 / 2, 2, 3, 4];
const MAX_IOI_MS = 3000;
const MIN_IOI_MS = 40;
const RUNAWAY = 0.06;
const RUNAWAY_MS = 2000;

export type TempoPoint = { t_ms: number; bpm: number };
export type TempoMoment = { start_ms: number; end_ms: number; bpm: number; direction: 'faster' | 'slower' };

export type TempoReport = {
  unit: TempoUnit;
  target_bpm: number | null;
  mean_bpm: number;
  drift_bpm_per_min: number;
  ioi_spread_ms: number;
  onsets: number;
  curve: TempoPoint[];
  moments: TempoMoment[];
};

function nearestMultiple(r: number): { k: number; err: number } {
  let best = { k: 1, err: Infinity };
  for (const k of MULTIPLES) {
    const err = Math.abs(Math.log(r / k));
    if (err < best.err) best = { k, err };
  }
  return best;
}

/** Tempo from onsets (ms), in beats of `unit`; `targetBpm` (in that unit) seeds the beat. Null under 8 onsets. */
export function tempoReport(onsetsMs: readonly number[], unit: TempoUnit = 'quarter', targetBpm: number | null = null): TempoReport | null {
  if (onsetsMs.length < 8) return null;
  const iois: Array<{ t: number; ioi: number }> = [];
  for (let i = 1; i < onsetsMs.length; i++) {
    const ioi = (onsetsMs[i] as number) - (onsetsMs[i - 1] as number);
    if (ioi >= MIN_IOI_MS && ioi <= MAX_IOI_MS) iois.push({ t: ((onsetsMs[i] as number) + (onsetsMs[i - 1] as number)) / 2, ioi });
  }
  if (iois.length < 6) return null;
  // The beat: the target's, else the most common IOI; then the take's own from a first fold.
  let beat = targetBpm && targetBpm > 0 ? 60000 / targetBpm : median(iois.map((x) => x.ioi));
  beat = median(iois.map((x) => x.ioi / nearestMultiple(x.ioi / beat).k));
  // Second pass: fold each IOI against the running local beat (follows a drifting tempo).
  const pts: Array<{ t: number; ioi: number; k: number; local: number }> = [];
  const recent: number[] = [];
  let ref = beat;
  for (const x of iois) {
    const { k, err } = nearestMultiple(x.ioi / ref);
    if (err > 0.12) continue;
    const local = x.ioi / k;
    pts.push({ t: x.t, ioi: x.ioi, k, local });
    recent.push(local);
    if (recent.length > 8) recent.shift();
    ref = median(recent);
  }
  if (pts.length < 6) return null;
  // Weighted linear fit of the local tempo against time (minutes); weights: the IOI's length.
  let sw = 0;
  let sx = 0;
  let sy = 0;
  for (const p of pts) {
    const w = p.ioi;
    sw += w;
    sx += w * (p.t / 60000);
    sy += w * (60000 / p.local);
  }
  const mx = sx / sw;
  const my = sy / sw;
  let sxy = 0;
  let sxx = 0;
  for (const p of pts) {
    const w = p.ioi;
    const dx = p.t / 60000 - mx;
    sxy += w * dx * (60000 / p.local - my);
    sxx += w * dx * dx;
  }
  const slope = sxx > 1e-12 ? sxy / sxx : 0;
  const fitBeat = (t: number) => 60000 / (my + slope * (t / 60000 - mx));
  const totalBeats = pts.reduce((a, p) => a + p.k, 0);
  const totalMs = pts.reduce((a, p) => a + p.ioi, 0);
  const residuals = pts.map((p) => p.ioi - p.k * fitBeat(p.t));
  const mid = median(residuals);
  const mad = median(residuals.map((r) => Math.abs(r - mid))) * 1.4826;

  // The curve: the median local tempo within ±2 s, every second.
  const curve: TempoPoint[] = [];
  const first = pts[0]?.t ?? 0;
  const lastT = pts[pts.length - 1]?.t ?? 0;
  const step = Math.max(1000, Math.ceil((lastT - first) / 600 / 1000) * 1000);
  let lo = 0;
  for (let t = first; t <= lastT; t += step) {
    while (lo < pts.length && (pts[lo] as { t: number }).t < t - 2000) lo++;
    const win: number[] = [];
    for (let j = lo; j < pts.length && (pts[j] as { t: number }).t <= t + 2000; j++) win.push(60000 / (pts[j] as { local: number }).local);
    if (win.length >= 3) curve.push({ t_ms: Math.round(t), bpm: round1(median(win)) });
  }
  const mean = (60000 * totalBeats) / totalMs;
  const reference = targetBpm && targetBpm > 0 ? targetBpm : mean;
  const moments: TempoMoment[] = [];
  let run: TempoPoint[] = [];
  const flush = () => {
    if (run.length && (run[run.length - 1] as TempoPoint).t_ms - (run[0] as TempoPoint).t_ms >= RUNAWAY_MS) {
      const bpm = median(run.map((p) => p.bpm));
      moments.push({ start_ms: (run[0] as TempoPoint).t_ms, end_ms: (run[run.length - 1] as TempoPoint).t_ms, bpm: round1(bpm), direction: bpm > reference ? 'faster' : 'slower' });
    }
    run = [];
  };
  for (const p of curve) {
    const off = (p.bpm - reference) / reference;
    const prev = run[0];
    if (Math.abs(off) > RUNAWAY && (!prev || Math.sign(prev.bpm - reference) === Math.sign(off))) run.push(p);
    else {
      flush();
      if (Math.abs(off) > RUNAWAY) run.push(p);
    }
  }
  flush();
  return {
    unit,
    target_bpm: targetBpm,
    mean_bpm: round2(mean),
    drift_bpm_per_min: round2(slope),
    ioi_spread_ms: round1(mad),
    onsets: onsetsMs.length,
    curve,
    moments: moments.slice(0, 20),
  };
}
