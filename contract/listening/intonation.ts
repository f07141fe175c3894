import { CENTS_PER_KOMA, KOMA_PER_OCTAVE, MAKAMS, perdeKoma, perdeName, type Seyir } from '../makam';
import { MAKAM_KEYS, type MakamKey } from '../music-keys';
import { centsToHz, circDiff, framesOf, mod, type Frames } from './pitch-frames';
import { medianIqr, median, round1, round2, runsToMoments, type Moment } from './stats';
import type { PitchTrack } from './track';

/**
 * The makam intonation report (docs/decisions/listening.md), after Bozkurt (JNMR 2008) and Gedik &
 * Bozkurt (Signal Processing 2010): a pitch histogram folded to one octave; tonic candidates from its
 * peaks and the last sustained note; each scored by the makam's AEU template shifted onto it; then,
 * per perde, where it was played. Templates come from theory (AEU steps), not from recordings.
 */

export const BIN_CENTS = 5;
export const BINS = 1200 / BIN_CENTS;
const SMOOTH_BINS = 2; // Gaussian σ of the histogram, 10 cents
const TEMPLATE_SIGMA = 15; // cents
const LAST_NOTE_BONUS = 0.1;
const SEYIR_WEIGHT = 0.06;
/** A take is flagged as another makam when that makam scores this much better. */
export const MAKAM_MARGIN = 0.03;

export type DegreeRole = 'durak' | 'guclu' | 'degree' | 'extra';
export type TemplateDegree = { perde: string; koma: number; cents: number; weight: number; role: DegreeRole };

/** The makam's pitch classes relative to its durak (koma 0…52), with weights: durak 2, güçlü 1.5, extras 0.5. */
export function makamTemplate(key: MakamKey, durak?: string | null): TemplateDegree[] {
  const m = MAKAMS[key];
  const base = (durak ? perdeKoma(durak) : null) ?? perdeKoma(m.durak) ?? 0;
  const gucluRel = mod((perdeKoma(m.guclu) ?? base) - (perdeKoma(m.durak) ?? 0), KOMA_PER_OCTAVE);
  const out: TemplateDegree[] = [];
  let rel = 0;
  for (let i = 0; i < m.steps.length; i++) {
    const role: DegreeRole = i === 0 ? 'durak' : rel === gucluRel ? 'guclu' : 'degree';
    out.push({ perde: perdeName(base + rel) ?? `${base + rel}`, koma: rel, cents: rel * CENTS_PER_KOMA, weight: role === 'durak' ? 2 : role === 'guclu' ? 1.5 : 1, role });
    rel += m.steps[i] as number;
  }
  for (const e of m.extra ?? []) {
    const r = mod((perdeKoma(e) ?? 0) - (perdeKoma(m.durak) ?? 0), KOMA_PER_OCTAVE);
    if (out.some((d) => d.koma === r)) continue;
    out.push({ perde: perdeName(base + r) ?? e, koma: r, cents: r * CENTS_PER_KOMA, weight: 0.5, role: 'extra' });
  }
  return out.sort((a, b) => a.koma - b.koma);
}

function templateVector(degrees: readonly TemplateDegree[]): Float64Array {
  const t = new Float64Array(BINS);
  for (const d of degrees) {
    for (let b = 0; b < BINS; b++) {
      const x = circDiff(d.cents, b * BIN_CENTS);
      t[b] = (t[b] as number) + d.weight * Math.exp(-(x * x) / (2 * TEMPLATE_SIGMA * TEMPLATE_SIGMA));
    }
  }
  return normalise(t);
}

function normalise(v: Float64Array): Float64Array {
  let s = 0;
  for (const x of v) s += x * x;
  const n = Math.sqrt(s) || 1;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] as number) / n;
  return v;
}

const TEMPLATES = new Map<MakamKey, Float64Array>();
function templateOf(key: MakamKey): Float64Array {
  let t = TEMPLATES.get(key);
  if (!t) {
    t = templateVector(makamTemplate(key));
    TEMPLATES.set(key, t);
  }
  return t;
}

/** Folded histogram of the stable frames' pitch classes relative to `ref` cents, smoothed, unit length. */
export function foldedHistogram(fr: Frames, ref = 0): Float64Array {
  const h = new Float64Array(BINS);
  for (const i of fr.stable) {
    const pos = mod((fr.cents[i] as number) - ref, 1200) / BIN_CENTS;
    const lo = Math.floor(pos);
    const w = pos - lo;
    h[lo % BINS] = (h[lo % BINS] as number) + 1 - w;
    h[(lo + 1) % BINS] = (h[(lo + 1) % BINS] as number) + w;
  }
  const s = new Float64Array(BINS);
  const k = 3 * SMOOTH_BINS;
  for (let b = 0; b < BINS; b++) {
    let acc = 0;
    for (let j = -k; j <= k; j++) acc += (h[mod(b + j, BINS)] as number) * Math.exp(-(j * j) / (2 * SMOOTH_BINS * SMOOTH_BINS));
    s[b] = acc;
  }
  return normalise(s);
}

/** Cosine of the histogram (relative to the tonic at bin `shift`) and a template. */
function scoreAt(h: Float64Array, t: Float64Array, shift: number): number {
  let acc = 0;
  const s = mod(Math.round(shift), BINS);
  for (let b = 0; b < BINS; b++) acc += (h[(b + s) % BINS] as number) * (t[b] as number);
  return acc;
}

/** The last note held ≥ 300 ms (cents above C0), a strong cue for the durak; null when none. */
export function lastSustainedNote(fr: Frames, minMs = 300): number | null {
  const need = Math.max(3, Math.round(minMs / fr.hopMs));
  const st = fr.stable;
  let end = st.length - 1;
  while (end >= 0) {
    const run: number[] = [];
    let k = end;
    const anchor = fr.cents[st[end] as number] as number;
    while (k >= 0 && Math.abs((fr.cents[st[k] as number] as number) - anchor) < 60 && (run.length === 0 || (st[k + 1] as number) - (st[k] as number) <= 3)) {
      run.push(fr.cents[st[k] as number] as number);
      k--;
    }
    if (run.length >= need) return median(run);
    end = k;
  }
  return null;
}

/** Pitch-class peaks of the histogram above 10 % of the highest, as cents (0…1200). */
function peaks(h: Float64Array): number[] {
  let max = 0;
  for (const v of h) max = Math.max(max, v);
  const out: number[] = [];
  for (let b = 0; b < BINS; b++) {
    const v = h[b] as number;
    const l = h[mod(b - 1, BINS)] as number;
    const r = h[(b + 1) % BINS] as number;
    if (v >= l && v > r && v >= 0.1 * max) {
      const den = l - 2 * v + r;
      const off = den !== 0 ? (0.5 * (l - r)) / den : 0;
      out.push(mod((b + off) * BIN_CENTS, 1200));
    }
  }
  return out;
}

/** The median pitch class (cents 0…1200) of stable frames within `width` cents of `pc`. */
function refinePc(fr: Frames, pc: number, width = 40): number {
  const near: number[] = [];
  for (const i of fr.stable) {
    const d = circDiff(pc, mod(fr.cents[i] as number, 1200));
    if (Math.abs(d) <= width) near.push(d);
  }
  return near.length ? mod(pc + median(near), 1200) : pc;
}

export type TonicResult = { pc: number; cents: number; hz: number; score: number };

/** Finds the durak of a take known to be in `key`: the best-scoring candidate, refined, in the octave it was played. */
export function findTonic(fr: Frames, key: MakamKey): TonicResult | null {
  if (fr.stable.length < 10) return null;
  const h = foldedHistogram(fr);
  const t = templateOf(key);
  const last = lastSustainedNote(fr);
  const lastPc = last === null ? null : mod(last, 1200);
  const cands = peaks(h);
  if (lastPc !== null) cands.push(lastPc);
  let best: { pc: number; score: number } | null = null;
  for (const c of cands) {
    const pc = refinePc(fr, c);
    let s = -Infinity;
    for (let d = -2; d <= 2; d++) s = Math.max(s, scoreAt(h, t, pc / BIN_CENTS + d));
    if (lastPc !== null && Math.abs(circDiff(pc, lastPc)) <= 25) s += LAST_NOTE_BONUS;
    if (!best || s > best.score) best = { pc, score: s };
  }
  if (!best) return null;
  const pc = refinePc(fr, best.pc, 30);
  // The octave: that of the last note when it is the durak, else the one most played.
  let cents: number;
  if (last !== null && Math.abs(circDiff(pc, mod(last, 1200))) <= 50) cents = last + circDiff(mod(last, 1200), pc);
  else {
    const count = new Map<number, number>();
    for (const i of fr.stable) {
      const c = fr.cents[i] as number;
      if (Math.abs(circDiff(pc, mod(c, 1200))) <= 40) {
        const o = Math.round((c - pc) / 1200);
        count.set(o, (count.get(o) ?? 0) + 1);
      }
    }
    let o = 4;
    let n = -1;
    for (const [k, v] of count) if (v > n) [o, n] = [k, v];
    cents = pc + 1200 * o;
  }
  return { pc, cents, hz: centsToHz(cents), score: best.score };
}

const SEYIR_START: Record<Seyir, number> = { cikici: 250, 'inici-cikici': 700, inici: 1200 };

/** Where the take starts, in cents above the tonic (median of the first 15 %, at least 2 s, of steady frames). */
function startRegister(fr: Frames, tonicCents: number): number | null {
  const n = Math.max(Math.round(2000 / fr.hopMs), Math.round(fr.stable.length * 0.15));
  const first = fr.stable.slice(0, n).map((i) => (fr.cents[i] as number) - tonicCents);
  return first.length ? median(first) : null;
}

export type MakamScore = { makam: MakamKey; score: number };

/** All makams scored with the tonic fixed: the histogram's fit to each template, a small seyir cue. */
export function rankMakams(fr: Frames, tonicCents: number): MakamScore[] {
  const h = foldedHistogram(fr, tonicCents);
  const start = startRegister(fr, tonicCents);
  const out = MAKAM_KEYS.map((k) => {
    let s = scoreAt(h, templateOf(k), 0);
    if (start !== null) {
      const m = MAKAMS[k];
      const gucluRel = mod((perdeKoma(m.guclu) ?? 0) - (perdeKoma(m.durak) ?? 0), KOMA_PER_OCTAVE) * CENTS_PER_KOMA;
      const expected = m.seyir === 'inici-cikici' && gucluRel > 0 ? gucluRel : SEYIR_START[m.seyir];
      s -= SEYIR_WEIGHT * Math.min(1, Math.abs(start - expected) / 600);
    }
    return { makam: k, score: s };
  });
  return out.sort((a, b) => b.score - a.score);
}

export type DegreeReport = {
  perde: string;
  role: DegreeRole;
  aeu_koma: number;
  aeu_cents: number;
  played_cents: number | null;
  played_koma: number | null;
  deviation_cents: number | null;
  spread_cents: number | null;
  share: number;
  moments: Moment[];
  practice_note: { cents: number; note: string } | null;
};

export type MakamReport = {
  makam: MakamKey;
  durak: string;
  tonic_hz: number;
  tonic_score: number;
  best_makam: MakamKey;
  other_makam: boolean;
  makam_scores: MakamScore[];
  degrees: DegreeReport[];
  voiced_share: number;
  last_note_is_durak: boolean;
};

/** Per degree of the template: the frames nearest it within half the way to its neighbours (≤ 60 cents). */
export function degreeStats(fr: Frames, tonicCents: number, degrees: readonly TemplateDegree[]): Array<{ values: number[]; frames: number[] }> {
  const out = degrees.map(() => ({ values: [] as number[], frames: [] as number[] }));
  const all: number[] = [];
  for (let i = 0; i < fr.cents.length; i++) if (!Number.isNaN(fr.cents[i] as number)) all.push(i);
  const stable = new Set(fr.stable);
  for (const i of all) {
    const rel = mod((fr.cents[i] as number) - tonicCents, 1200);
    let best = -1;
    let bestD = Infinity;
    let second = Infinity;
    for (let k = 0; k < degrees.length; k++) {
      const d = Math.abs(circDiff((degrees[k] as TemplateDegree).cents, rel));
      if (d < bestD) {
        second = bestD;
        bestD = d;
        best = k;
      } else if (d < second) second = d;
    }
    if (best < 0) continue;
    // Nearest degree; within 60 cents and nearer than half the way to the next one.
    const dk = degrees[best] as TemplateDegree;
    const signed = circDiff(dk.cents, rel);
    const gap = (bestD + second) / 2;
    if (bestD > 60 || bestD > gap) continue;
    const slot = out[best] as { values: number[]; frames: number[] };
    slot.frames.push(i);
    if (stable.has(i)) slot.values.push(dk.cents + signed);
  }
  return out;
}

export type MakamOptions = { durak?: string | null };

/** The makam intonation report of a track, for the exercise's makam; null when too little was voiced. */
export function makamReport(track: PitchTrack, key: MakamKey, opts: MakamOptions = {}): MakamReport | null {
  const fr = framesOf(track);
  const tonic = findTonic(fr, key);
  if (!tonic) return null;
  const m = MAKAMS[key];
  const degrees = makamTemplate(key, opts.durak);
  const stats = degreeStats(fr, tonic.cents, degrees);
  const voiced = fr.stable.length;
  const ranking = rankMakams(fr, tonic.cents);
  const best = ranking[0] ?? { makam: key, score: 0 };
  const mine = ranking.find((r) => r.makam === key) ?? best;
  const last = lastSustainedNote(fr);
  return {
    makam: key,
    durak: degrees[0]?.perde ?? m.durak,
    tonic_hz: round2(tonic.hz),
    tonic_score: round2(tonic.score),
    best_makam: best.makam,
    other_makam: best.makam !== key && best.score - mine.score > MAKAM_MARGIN,
    makam_scores: ranking.slice(0, 5).map((r) => ({ makam: r.makam, score: Math.round(r.score * 1000) / 1000 })),
    degrees: degrees.map((d, k) => {
      const s = stats[k] as { values: number[]; frames: number[] };
      const practice = (m.practice ?? []).find((p) => p.perde === d.perde || mod((perdeKoma(p.perde) ?? -99) - (perdeKoma(m.durak) ?? 0), KOMA_PER_OCTAVE) === d.koma);
      const has = s.values.length >= 3;
      const { median: played, iqr } = has ? medianIqr(s.values) : { median: NaN, iqr: NaN };
      return {
        perde: d.perde,
        role: d.role,
        aeu_koma: d.koma,
        aeu_cents: round1(d.cents),
        played_cents: has ? round1(played) : null,
        played_koma: has ? round2(played / CENTS_PER_KOMA) : null,
        deviation_cents: has ? round1(played - d.cents) : null,
        spread_cents: has ? round1(iqr) : null,
        share: voiced ? Math.round((s.values.length / voiced) * 1000) / 1000 : 0,
        moments: runsToMoments(s.frames, fr.hopMs, 100, Math.max(3, Math.round(60 / fr.hopMs))),
        practice_note: practice ? { cents: practice.cents, note: practice.note } : null,
      };
    }),
    voiced_share: fr.cents.length ? Math.round((fr.stable.length / fr.cents.length) * 1000) / 1000 : 0,
    last_note_is_durak: last !== null && Math.abs(circDiff(tonic.pc, mod(last, 1200))) <= 50,
  };
}

// ---------------------------------------------------------------------------------------------
// Western: per 12-TET pitch class.

const NOTE_NAMES = ['C', 'C#', 'D', 'D#', 'E', 'F', 'F#', 'G', 'G#', 'A', 'A#', 'B'] as const;
const FLATS: Record<string, number> = { Db: 1, Eb: 3, Gb: 6, Ab: 8, Bb: 10, Cb: 11, Fb: 4 };

/** 'C', 'F#', 'Bb', 'Am', 'C# minor' → tonic pitch class and mode; null when not a key. */
export function parseKey(text: string): { pc: number; minor: boolean } | null {
  const m = /^\s*([A-Ga-g])([#b♯♭]?)\s*(m|min|minor|moll|-moll|maj|major|dur|-dur)?\s*$/.exec(text);
  if (!m) return null;
  const letter = (m[1] ?? 'C').toUpperCase();
  const acc = (m[2] ?? '').replace('♯', '#').replace('♭', 'b');
  const name = letter + acc;
  const pc = acc === 'b' ? FLATS[name] ?? mod((NOTE_NAMES as readonly string[]).indexOf(letter) - 1, 12) : (NOTE_NAMES as readonly string[]).indexOf(name);
  if (pc < 0) return null;
  const mode = (m[3] ?? '').toLowerCase();
  return { pc, minor: mode === 'm' || mode === 'min' || mode === 'minor' || mode.includes('moll') };
}

export type NoteReport = {
  note: string;
  in_key: boolean | null;
  deviation_cents: number | null;
  spread_cents: number | null;
  share: number;
  moments: Moment[];
};

export type WesternReport = { key: string | null; a4_hz: number; notes: NoteReport[]; voiced_share: number };

/** Per 12-TET pitch class (A4 = `a4`): deviation, spread, share, moments; in_key against `key` when given. */
export function westernReport(track: PitchTrack, key: string | null = null, a4 = 440): WesternReport {
  const fr = framesOf(track);
  const k = key ? parseKey(key) : null;
  const scale = k ? (k.minor ? [0, 2, 3, 5, 7, 8, 10, 11] : [0, 2, 4, 5, 7, 9, 11]).map((s) => (s + k.pc) % 12) : null;
  const vals: number[][] = NOTE_NAMES.map(() => []);
  const frames: number[][] = NOTE_NAMES.map(() => []);
  const a4Cents = 1200 * Math.log2(a4 / 16.351597831287414);
  const stable = new Set(fr.stable);
  for (let i = 0; i < fr.cents.length; i++) {
    const c = fr.cents[i] as number;
    if (Number.isNaN(c)) continue;
    const semis = (c - a4Cents) / 100 + 69;
    const midi = Math.round(semis);
    const pc = mod(midi, 12);
    (frames[pc] as number[]).push(i);
    if (stable.has(i)) (vals[pc] as number[]).push((semis - midi) * 100);
  }
  const voiced = fr.stable.length;
  return {
    key: k ? `${NOTE_NAMES[k.pc]}${k.minor ? 'm' : ''}` : null,
    a4_hz: a4,
    notes: NOTE_NAMES.map((name, pc) => {
      const v = vals[pc] as number[];
      const has = v.length >= 3;
      const { median: dev, iqr } = has ? medianIqr(v) : { median: NaN, iqr: NaN };
      return {
        note: name,
        in_key: scale ? scale.includes(pc) : null,
        deviation_cents: has ? round1(dev) : null,
        spread_cents: has ? round1(iqr) : null,
        share: voiced ? Math.round((v.length / voiced) * 1000) / 1000 : 0,
        moments: runsToMoments(frames[pc] as number[], fr.hopMs, 100, Math.max(3, Math.round(60 / fr.hopMs))),
      };
    }),
    voiced_share: fr.cents.length ? Math.round((fr.stable.length / fr.cents.length) * 1000) / 1000 : 0,
  };
}
