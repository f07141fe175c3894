import type { AnalyzeOptions } from '@contract/listening/analyze';
import type { ListeningReport, StoredTrack } from '@contract/listening/schema';
import { decodeOffline } from '@web/lib/audio';
import type { AnalysisReply, AnalysisRequest } from './analysis.worker';

/**
 * A take's audio → its pitch track and report, in a Worker (docs/decisions/listening.md, "Where it
 * runs"). The Blob goes to the Worker, which reads and decodes it where it can (WAV, WebM with
 * Opus): the page then does no work that grows with the take. What only a page can decode (MP4/AAC,
 * MP3, the sound of a video, or any take in a browser without WebCodecs) comes back as bytes for
 * `decodeAudioData` at 22,050 Hz (its decoding runs off the main thread; the channels are handed
 * to the Worker without a copy). One analysis per blob: the summary before sending and the track
 * sent after reuse it.
 */
export type AnalysisResult = { track: StoredTrack; report: ListeningReport; ms: number; decodedHere: boolean };

/** Decoding at this rate keeps a 20-minute take at ~100 MB of floats at most, and is all the pitch tracker needs. */
const DECODE_RATE = 22_050;

let worker: Worker | null = null;
let nextId = 1;
type Outcome = { kind: 'result'; result: AnalysisResult } | { kind: 'page'; bytes: ArrayBuffer };
const waiting = new Map<number, { resolve: (r: Outcome) => void; reject: (e: Error) => void }>();

function theWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<AnalysisReply>) => {
    const job = waiting.get(e.data.id);
    if (!job) return;
    waiting.delete(e.data.id);
    const d = e.data;
    if (d.ok === true) job.resolve({ kind: 'result', result: { ...d.result, ms: d.ms, decodedHere: d.decodedHere } });
    else if (d.ok === 'page') job.resolve({ kind: 'page', bytes: d.bytes });
    else job.reject(new Error(d.error));
  };
  w.onerror = (e) => {
    for (const job of waiting.values()) job.reject(new Error(e.message || 'analysis worker failed'));
    waiting.clear();
    worker = null;
  };
  worker = w;
  return w;
}

function ask(msg: AnalysisRequest, transfer: Transferable[] = []): Promise<Outcome> {
  const w = theWorker();
  return new Promise((resolve, reject) => {
    waiting.set(msg.id, { resolve, reject });
    w.postMessage(msg, transfer);
  });
}

/**
 * The page's decoder for what the Worker cannot decode. The channels' own buffers are handed over
 * (the AudioBuffer is not used again), so nothing the size of the take is copied on the page.
 */
async function decodeOnPage(bytes: ArrayBuffer): Promise<{ channels: Float32Array[]; sampleRate: number }> {
  const buffer = await decodeOffline(bytes, DECODE_RATE);
  const channels: Float32Array[] = [];
  for (let c = 0; c < Math.min(2, buffer.numberOfChannels); c++) channels.push(buffer.getChannelData(c));
  return { channels, sampleRate: buffer.sampleRate };
}

async function analyze(blob: Blob, opts: AnalyzeOptions): Promise<AnalysisResult> {
  const first = await ask({ id: nextId++, kind: 'blob', blob, opts });
  if (first.kind === 'result') return first.result;
  const { channels, sampleRate } = await decodeOnPage(first.bytes);
  const second = await ask({ id: nextId++, kind: 'channels', channels, sampleRate, opts }, channels.map((c) => c.buffer as ArrayBuffer));
  if (second.kind !== 'result') throw new Error('the analysis worker did not analyse the decoded take');
  return second.result;
}

const byBlob = new WeakMap<Blob, Promise<AnalysisResult>>();

/**
 * The analysis of a take, once per blob: the track does not depend on the settings, the report of
 * the first call's settings comes along (the summary before sending; the server computes its own).
 */
export function analyzeBlob(blob: Blob, opts: AnalyzeOptions = {}): Promise<AnalysisResult> {
  let p = byBlob.get(blob);
  if (!p) {
    p = analyze(blob, opts);
    byBlob.set(blob, p);
    p.catch(() => byBlob.delete(blob));
  }
  return p;
}
