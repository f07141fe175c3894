import { readdir, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { AHENKS, MAKAMS, parseMakamName, rastFrequency, perdeKoma, KOMA_PER_OCTAVE, type AhenkKey } from '@contract/makam';
import { TEMPO_UNITS, type MakamKey, type TempoUnit } from '@contract/music-keys';
import { analyzeTrack } from '@contract/listening/analyze';
import type { ListeningReport } from '@contract/listening/schema';
import type { PitchTrack } from '@contract/listening/track';
import { sniffAudio } from '@contract/listening/sniff';
import { INPUT_LIMITS, InputError, MAX_LINE_CHARS, openInput, PitchLines, readPitchText, readWav, TrackSink } from './read-input';

/**
 * `npm run cli -- analyze`: the listening analysis of the app (contract/listening, the same code a
 * Worker runs) on files, for operators and researchers (docs/decisions/listening.md). Needs no
 * database. Bounded: only regular files are read; file sizes, lengths, line counts, folder depth
 * and file counts are capped; audio is decoded and analysed as it streams (server/cli/read-input.ts).
 */

export const ANALYZE_USAGE =
  'npm run cli -- analyze FILE... (--makam NAME [--ahenk NAME] [--durak PERDE] | [--key C] --tuning 12tet)\n' +
  '                     [--a4 HZ] [--tempo BPM] [--unit quarter] [--hop SECONDS] [--json]\n' +
  '  The intonation and tempo report of takes: audio files (WAV, MP3, Ogg Opus or Vorbis, WebM with\n' +
  '  Opus as browsers record it), plain pitch tracks (one frequency in Hz per line, 0 for silence;\n' +
  '  --hop is their frame time, default 0.01 s) or folders of them. Makam names with or without\n' +
  '  diacritics (Uşşak, ussak, Nihavent). --json prints one JSON object per file and line.\n' +
  '  Limits: regular files only (no links to devices, no FIFOs or sockets); a WAV up to 1 GiB, an\n' +
  '  MP3, Ogg or WebM up to 512 MiB, a pitch track up to 64 MiB and 10,000,000 lines of at most\n' +
  '  4,096 characters; the first 60 minutes of a take or track are analysed, of a track at most\n' +
  '  720,000 frames (the rest is cut, and said so); 10 minutes of reading and decoding a file;\n' +
  '  folders 4 deep, 100,000 files. Audio is decoded and analysed as it is read, so memory stays\n' +
  '  under about 350 MB whatever the file.';

export const ANALYZE_LIMITS = {
  maxAudioBytes: INPUT_LIMITS.maxWavBytes,
  maxCompressedBytes: INPUT_LIMITS.maxCompressedBytes,
  maxTextBytes: INPUT_LIMITS.maxTextBytes,
  maxLines: INPUT_LIMITS.maxLines,
  maxFrames: INPUT_LIMITS.maxFrames,
  maxLineChars: MAX_LINE_CHARS,
  maxSeconds: INPUT_LIMITS.maxSeconds,
  maxMs: INPUT_LIMITS.maxMs,
  maxFiles: 100_000,
  maxDepth: 4,
} as const;

const AUDIO = new Set(['.wav', '.wave', '.mp3', '.ogg', '.oga', '.opus', '.webm', '.weba', '.m4a', '.aac', '.flac', '.mp4']);
const TEXT = new Set(['.txt', '.f0', '.pitch', '.csv', '.tsv', '.dat']);

export type AnalyzeArgs = {
  files: string[];
  makam: MakamKey | null;
  durak: string | null;
  ahenk: AhenkKey | null;
  key: string | null;
  tuning: 'makam' | '12tet';
  a4: number;
  tempo: number | null;
  unit: TempoUnit;
  hop: number;
  json: boolean;
};

export class UsageError extends Error {}

const plain = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/ı/g, 'i')
    .replace(/[^a-z]/g, '');

export function parseAnalyzeArgs(argv: string[]): AnalyzeArgs {
  const a: AnalyzeArgs = { files: [], makam: null, durak: null, ahenk: null, key: null, tuning: 'makam', a4: 440, tempo: null, unit: 'quarter', hop: 0.01, json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    const number = (min: number, max: number) => {
      const raw = value();
      const v = Number(raw);
      if (!Number.isFinite(v) || v < min || v > max) throw new UsageError(`${arg} ${raw}: a number from ${min} to ${max}`);
      return v;
    };
    if (arg === '--json') a.json = true;
    else if (arg === '--makam') {
      const raw = value();
      a.makam = parseMakamName(raw);
      if (!a.makam) throw new UsageError(`unknown makam "${raw}"; known: ${Object.values(MAKAMS).map((m) => m.name).join(', ')}`);
    } else if (arg === '--ahenk') {
      const raw = value();
      const hit = AHENKS.find((h) => plain(h.key) === plain(raw) || plain(h.name) === plain(raw));
      if (!hit) throw new UsageError(`unknown ahenk "${raw}"; known: ${AHENKS.map((h) => h.name).join(', ')}`);
      a.ahenk = hit.key;
    } else if (arg === '--durak') {
      const raw = value();
      if (perdeKoma(raw) === null) throw new UsageError(`unknown perde "${raw}"`);
      a.durak = raw;
    } else if (arg === '--key') a.key = value();
    else if (arg === '--tuning') {
      const raw = value().toLowerCase();
      if (raw !== '12tet' && raw !== 'makam') throw new UsageError('--tuning is 12tet or makam');
      a.tuning = raw;
    } else if (arg === '--a4') a.a4 = number(380, 480);
    else if (arg === '--tempo') a.tempo = number(20, 400);
    else if (arg === '--unit') {
      const raw = value();
      if (!(TEMPO_UNITS as readonly string[]).includes(raw)) throw new UsageError(`--unit is one of ${TEMPO_UNITS.join(', ')}`);
      a.unit = raw as TempoUnit;
    } else if (arg === '--hop') a.hop = number(0.0005, 1);
    else if (arg.startsWith('--')) throw new UsageError(`unknown option ${arg}`);
    else a.files.push(arg);
  }
  if (!a.files.length) throw new UsageError('no FILE given');
  if (a.key && a.tuning !== '12tet') a.tuning = '12tet';
  if (!a.makam && a.tuning !== '12tet') throw new UsageError('give --makam NAME, or --key K / --tuning 12tet');
  return a;
}

/** The files to analyse: files as given, folders walked (sorted, ≤ maxDepth deep, ≤ maxFiles). */
export async function collectFiles(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (p: string, depth: number): Promise<void> => {
    if (out.length >= ANALYZE_LIMITS.maxFiles) return;
    const s = await stat(p);
    if (s.isDirectory()) {
      if (depth >= ANALYZE_LIMITS.maxDepth) return;
      const names = (await readdir(p)).sort();
      for (const n of names) {
        const child = join(p, n);
        const cs = await stat(child).catch(() => null);
        if (!cs) continue;
        if (cs.isDirectory()) await walk(child, depth + 1);
        else if (AUDIO.has(extname(n).toLowerCase()) || TEXT.has(extname(n).toLowerCase())) out.push(child);
        if (out.length >= ANALYZE_LIMITS.maxFiles) return;
      }
    } else out.push(p);
  };
  for (const p of paths) await walk(p, 0);
  return out;
}

/** A plain pitch track: one frequency per line (the last number of a line, so 'time hz' works too). */
export function parsePitchText(text: string, hopS: number): PitchTrack {
  const lines = new PitchLines(hopS);
  let start = 0;
  while (start < text.length && !lines.cut) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lines.line(text.slice(start, end));
    start = end + 1;
  }
  return lines.track();
}

/**
 * The pitch track of one file, and whether it was cut at 60 minutes. Only a regular file is read
 * (docs/decisions/listening.md, "CLI"): what its first bytes are decides how, not its name.
 */
export async function readTrack(path: string, hopS: number): Promise<{ track: PitchTrack; cut: number | null }> {
  const file = openInput(path);
  try {
    const ext = extname(path).toLowerCase();
    const head = new Uint8Array(Math.min(file.size, 64 * 1024));
    file.readAt(head, 0);
    const format = sniffAudio(head);
    if (AUDIO.has(ext) || (format !== null && !TEXT.has(ext))) {
      const sink = new TrackSink();
      if (format === 'wav') {
        if (file.size > ANALYZE_LIMITS.maxAudioBytes) throw new InputError(`${file.size} bytes, more than ${ANALYZE_LIMITS.maxAudioBytes} for a WAV`);
        readWav(file, sink);
      } else {
        // The codecs load only when a compressed file comes (the other CLI commands never load them).
        const { decodeCompressed } = await import('./decode-audio');
        await decodeCompressed(file, head, sink);
      }
      return { track: sink.finish(), cut: sink.cut ? sink.maxSeconds : null };
    }
    if (file.size > ANALYZE_LIMITS.maxTextBytes) throw new InputError(`${file.size} bytes, more than ${ANALYZE_LIMITS.maxTextBytes} for a pitch track`);
    const lines = new PitchLines(hopS);
    readPitchText(file, lines, new TrackSink());
    return { track: lines.track(), cut: lines.cut ? lines.seconds : null };
  } finally {
    file.close();
  }
}

type Line = Record<string, unknown>;

/** The JSON line of one file (the shape docs/decisions/listening.md documents). */
export function jsonLine(file: string, r: ListeningReport, a: AnalyzeArgs): Line {
  const m = r.makam;
  const tempo = r.tempo ? { mean_bpm: r.tempo.mean_bpm, unit: r.tempo.unit, drift_bpm_per_min: r.tempo.drift_bpm_per_min, ioi_spread_ms: r.tempo.ioi_spread_ms } : null;
  if (m) {
    const line: Line = {
      file,
      tonic_hz: m.tonic_hz,
      makam: m.makam,
      best_makam: m.best_makam,
      other_makam: m.other_makam,
      degrees: m.degrees.map((d) => ({ perde: d.perde, aeu_cents: d.aeu_cents, played_cents: d.played_cents, deviation_cents: d.deviation_cents, spread_cents: d.spread_cents, share: d.share, ...(d.practice_note ? { practice_cents: d.practice_note.cents } : {}) })),
      tempo,
    };
    if (a.ahenk) line.ahenk = { ahenk: a.ahenk, tonic_vs_ahenk_cents: tonicVsAhenk(m.tonic_hz, m.durak, a) };
    return line;
  }
  if (a.makam) return { file, tonic_hz: null, makam: a.makam, best_makam: null, degrees: [], tempo };
  return { file, tonic_hz: null, makam: null, best_makam: null, key: r.western?.key ?? null, notes: r.western?.notes.map(({ moments: _m, ...n }) => n) ?? [], tempo };
}

/** How far the found tonic lies from where the durak sounds in the given ahenk (octave folded). */
function tonicVsAhenk(tonicHz: number, durak: string, a: AnalyzeArgs): number | null {
  const k = perdeKoma(durak);
  if (k === null || !a.ahenk) return null;
  const expected = rastFrequency(a.a4, a.ahenk) * 2 ** (k / KOMA_PER_OCTAVE);
  const c = 1200 * Math.log2(tonicHz / expected);
  return Math.round((((c % 1200) + 1800) % 1200) - 600);
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const lpad = (s: string, n: number) => (s.length >= n ? s : ' '.repeat(n - s.length) + s);
const num = (v: number | null, digits = 1) => (v === null ? '–' : v.toFixed(digits));

export function formatReport(file: string, r: ListeningReport, a: AnalyzeArgs): string {
  const lines = [file];
  const m = r.makam;
  if (m) {
    const best = m.best_makam === m.makam ? '' : ` — sounds more like ${MAKAMS[m.best_makam].name}${m.other_makam ? ' (flagged)' : ''}`;
    lines.push(`  ${MAKAMS[m.makam].name}, durak ${m.durak}: tonic ${m.tonic_hz.toFixed(2)} Hz${best}`);
    if (a.ahenk) lines.push(`  ${AHENKS.find((h) => h.key === a.ahenk)?.name} at A4 = ${a.a4} Hz: tonic ${num(tonicVsAhenk(m.tonic_hz, m.durak, a), 0)} cents from the written durak`);
    lines.push(`  ${pad('perde', 16)}${lpad('AEU koma', 9)}${lpad('AEU ct', 8)}${lpad('played', 8)}${lpad('dev ct', 8)}${lpad('spread', 8)}${lpad('share', 7)}`);
    for (const d of m.degrees) {
      const note = d.practice_note && d.deviation_cents !== null ? `  (practice: ${d.practice_note.cents > 0 ? '+' : ''}${d.practice_note.cents} ct)` : '';
      lines.push(`  ${pad(d.perde, 16)}${lpad(String(d.aeu_koma), 9)}${lpad(d.aeu_cents.toFixed(1), 8)}${lpad(num(d.played_cents), 8)}${lpad(num(d.deviation_cents), 8)}${lpad(num(d.spread_cents), 8)}${lpad(`${Math.round(d.share * 100)} %`, 7)}${note}`);
    }
  } else if (r.western) {
    lines.push(`  12-TET, A4 = ${r.western.a4_hz} Hz${r.western.key ? `, key ${r.western.key}` : ''}`);
    lines.push(`  ${pad('note', 6)}${lpad('dev ct', 8)}${lpad('spread', 8)}${lpad('share', 7)}`);
    for (const n of r.western.notes) if (n.share > 0) lines.push(`  ${pad(n.note + (n.in_key === false ? '*' : ''), 6)}${lpad(num(n.deviation_cents), 8)}${lpad(num(n.spread_cents), 8)}${lpad(`${Math.round(n.share * 100)} %`, 7)}`);
  }
  const t = r.tempo;
  lines.push(t ? `  Tempo: ${t.mean_bpm.toFixed(1)} BPM (${t.unit}), drift ${t.drift_bpm_per_min >= 0 ? '+' : ''}${t.drift_bpm_per_min.toFixed(2)} BPM/min, IOI spread ${t.ioi_spread_ms.toFixed(0)} ms${t.moments.length ? `, ran away ${t.moments.length}×` : ''}` : '  Tempo: – (no onsets)');
  return lines.join('\n');
}

/** Runs the command; 0 when every file was analysed, 1 when one could not be, 2 on a usage error. */
export async function analyzeCommand(argv: string[], out: (line: string) => void = console.log, err: (line: string) => void = console.error): Promise<number> {
  let a: AnalyzeArgs;
  try {
    a = parseAnalyzeArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`${e.message}\n\n${ANALYZE_USAGE}`);
      return 2;
    }
    throw e;
  }
  let files: string[];
  try {
    files = await collectFiles(a.files);
  } catch (e) {
    err(`Error: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  let failed = 0;
  for (const file of files) {
    try {
      const { track, cut } = await readTrack(file, a.hop);
      if (cut !== null) err(`${file}: cut after ${cut % 60 === 0 ? `${cut / 60} minutes` : `${cut.toFixed(1)} s`}; the rest was not analysed`);
      const report = analyzeTrack(track, { makam: a.makam, durak: a.durak, key: a.key, tuning: a.tuning, a4: a.a4, tempo: { bpm: a.tempo, unit: a.unit } });
      if (a.json) out(JSON.stringify(jsonLine(file, report, a)));
      else out(formatReport(file, report, a));
      if (a.makam && !report.makam && !a.json) err(`${basename(file)}: too little was voiced to find a tonic`);
    } catch (e) {
      failed++;
      const message = e instanceof Error ? e.message : String(e);
      if (a.json) out(JSON.stringify({ file, error: message }));
      else err(`${file}: ${message}`);
    }
  }
  return failed ? 1 : 0;
}
