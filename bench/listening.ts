import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeTrack } from '@contract/listening/analyze';
import { decodeTrack, encodeTrack, toBase64 } from '@contract/listening/encoding';
import { audioTrack, directTrack, hardAudioTrack, measure, measureTempo, type Hardship } from '@contract/listening/testing/accuracy';
import { planTake, synthAudio, synthTrack } from '@contract/listening/testing/synth';
import { trackFromPcm } from '@contract/listening/track';
import { analyzeCommand } from '../server/cli/analyze';

/**
 * `npm run bench -- --listening`: the listening analysis (docs/decisions/listening.md) in Node —
 * a 5-minute take from audio to report (budget 10 s), the size of its stored track, the accuracy
 * figures on generated takes, and the CLI over a folder of pitch tracks (budget: 1,000 tracks of
 * three minutes in under two minutes).
 */

export type ListeningBench = {
  take_seconds: number;
  sample_rate: number;
  track_ms: number;
  report_ms: number;
  total_ms: number;
  encoded_bytes: number;
  base64_chars: number;
  decode_ms: number;
  accuracy_tracks: { takes: number; tonic_within_10: number; deviation_error_median: number; makam_right: number; makam_right_same_scale: number; ms: number };
  accuracy_audio: { takes: number; tonic_within_10: number; deviation_error_median: number; makam_right: number; makam_right_same_scale: number; ms: number };
  /** Takes harder than a student's (contract/listening/testing/accuracy.ts, hardAudioTrack). */
  accuracy_hard: Array<{ hardship: Hardship; takes: number; tonic_within_10: number; tonic_within_20: number; deviation_error_median: number; makam_right: number; makam_right_same_scale: number; ms: number }>;
  tempo: Array<{ bpm: number; drift: number; mean_error_pct: number; drift_error: number }>;
  cli: { tracks: number; track_minutes: number; ms: number; per_1000_s: number };
};

const r3 = (v: number) => Math.round(v * 1000) / 1000;

export async function runListeningBench(opts: { cliTracks?: number; log?: (m: string) => void } = {}): Promise<ListeningBench> {
  const log = opts.log ?? console.log;
  const sr = 44100;
  log('listening: synthesising a 5-minute take …');
  const take = planTake({ seed: 77, makam: 'ussak', notes: 700 });
  const seconds = take.durationMs / 1000;
  const pcm = synthAudio(take, 77, sr, 'voice', 20).subarray(0, Math.min(Math.floor(sr * 300), Math.floor((take.durationMs / 1000) * sr)));
  const t0 = performance.now();
  const track = trackFromPcm(pcm, sr);
  const t1 = performance.now();
  analyzeTrack(track, { makam: 'ussak', tempo: { bpm: null, unit: 'quarter' } });
  const t2 = performance.now();
  const bytes = encodeTrack(track);
  const t3 = performance.now();
  decodeTrack(bytes);
  const decodeMs = performance.now() - t3;

  log('listening: accuracy on 200 generated pitch tracks and 20 takes through audio …');
  let s = performance.now();
  const a = measure(200, directTrack);
  const aMs = performance.now() - s;
  s = performance.now();
  const b = measure(20, audioTrack);
  const bMs = performance.now() - s;
  log('listening: harder takes (ensemble, old recording, no final durak), 22 each …');
  const hard = (['ensemble', 'old-recording', 'no-final'] as Hardship[]).map((h) => {
    const started = performance.now();
    const x = measure(22, hardAudioTrack(h));
    return { hardship: h, ...acc(x, performance.now() - started), tonic_within_20: r3(x.tonicErrors.filter((e) => e <= 20).length / x.takes) };
  });
  const tempo = measureTempo([
    { seed: 1, bpm: 100, drift: 0, seconds: 60 },
    { seed: 2, bpm: 90, drift: 5, seconds: 120 },
    { seed: 3, bpm: 140, drift: -4, seconds: 90 },
    { seed: 4, bpm: 72, drift: 2, seconds: 90 },
  ]);

  const n = opts.cliTracks ?? 1000;
  log(`listening: the CLI over ${n} pitch tracks of three minutes …`);
  const dir = mkdtempSync(join(tmpdir(), 'uk-bench-listening-'));
  let cliMs = 0;
  let minutes = 0;
  try {
    const bodies = [0, 1, 2, 3].map((k) => {
      const t = synthTrack(planTake({ seed: 500 + k, notes: 380 }), 500 + k, 10);
      minutes = (t.f0.length * 10) / 60000;
      return Array.from(t.f0, (f) => f.toFixed(2)).join('\n');
    });
    for (let i = 0; i < n; i++) writeFileSync(join(dir, `t${String(i).padStart(4, '0')}.txt`), bodies[i % bodies.length] as string);
    const started = performance.now();
    let lines = 0;
    await analyzeCommand([dir, '--makam', 'rast', '--json'], () => lines++, () => undefined);
    cliMs = performance.now() - started;
    if (lines !== n) throw new Error(`the CLI printed ${lines} lines for ${n} tracks`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  function acc(x: typeof a, ms: number) {
    return { takes: x.takes, tonic_within_10: r3(x.tonicWithin10), deviation_error_median: r3(x.deviationErrorMedian), makam_right: r3(x.makamRight), makam_right_same_scale: r3(x.makamRightSameScale), ms: Math.round(ms) };
  }
  return {
    take_seconds: Math.round(Math.min(300, seconds)),
    sample_rate: sr,
    track_ms: Math.round(t1 - t0),
    report_ms: Math.round(t2 - t1),
    total_ms: Math.round(t2 - t0),
    encoded_bytes: bytes.length,
    base64_chars: toBase64(bytes).length,
    decode_ms: Math.round(decodeMs * 10) / 10,
    accuracy_tracks: acc(a, aMs),
    accuracy_audio: acc(b, bMs),
    accuracy_hard: hard,
    tempo: tempo.cases.map((c) => ({ bpm: c.bpm, drift: c.drift, mean_error_pct: r3(c.meanErrPct), drift_error: r3(c.driftErr) })),
    cli: { tracks: n, track_minutes: Math.round(minutes * 10) / 10, ms: Math.round(cliMs), per_1000_s: Math.round((cliMs / n) * 1000) / 1000 },
  };
}

export function formatListening(r: ListeningBench): string {
  const ok = (v: boolean) => (v ? 'ok' : 'OVER');
  const pct = (v: number) => `${(v * 100).toFixed(1)} %`;
  return [
    '\n== listening (docs/decisions/listening.md)',
    `  ${r.take_seconds} s take at ${r.sample_rate} Hz: pitch + onsets ${r.track_ms} ms, report ${r.report_ms} ms, total ${r.total_ms} ms (budget 10 s: ${ok(r.total_ms <= 10_000)})`,
    `  stored track: ${(r.encoded_bytes / 1024).toFixed(1)} KiB (${(r.base64_chars / 1024).toFixed(1)} KiB base64), decoded in ${r.decode_ms} ms`,
    `  200 pitch tracks: tonic within 10 ct ${pct(r.accuracy_tracks.tonic_within_10)} (≥ 99 %), per-perde error median ${r.accuracy_tracks.deviation_error_median} ct (≤ 3), makam right ${pct(r.accuracy_tracks.makam_right)} (≥ 90 %; same scale ${pct(r.accuracy_tracks.makam_right_same_scale)}) in ${r.accuracy_tracks.ms} ms`,
    `  20 takes through audio: tonic within 10 ct ${pct(r.accuracy_audio.tonic_within_10)}, per-perde error median ${r.accuracy_audio.deviation_error_median} ct, makam right ${pct(r.accuracy_audio.makam_right)} (same scale ${pct(r.accuracy_audio.makam_right_same_scale)}) in ${r.accuracy_audio.ms} ms`,
    ...r.accuracy_hard.map((h) => `  ${h.takes} takes, ${h.hardship}: tonic within 10 ct ${pct(h.tonic_within_10)} (within 20 ct, as MORTY counts: ${pct(h.tonic_within_20)}), per-perde error median ${h.deviation_error_median} ct, makam right ${pct(h.makam_right)} (same scale ${pct(h.makam_right_same_scale)})`),
    `  tempo: ${r.tempo.map((t) => `${t.bpm} BPM ${t.drift >= 0 ? '+' : ''}${t.drift}/min → mean ±${t.mean_error_pct} %, drift ±${t.drift_error}`).join('; ')} (≤ 1 %, ≤ 0.5 BPM/min)`,
    `  CLI: ${r.cli.tracks} pitch tracks of ${r.cli.track_minutes} min in ${(r.cli.ms / 1000).toFixed(1)} s (1,000 in ${r.cli.per_1000_s.toFixed(1)} s; budget 120 s: ${ok(r.cli.per_1000_s <= 120)})`,
  ].join('\n');
}
