import type { AnalyzeOptions } from '@contract/listening/analyze';
import type { ListeningReport, StoredTrack } from '@contract/listening/schema';
import type { AnalysisReply, AnalysisRequest } from './analysis.worker';

/**
 * A take's audio → its pitch track and report, in a Worker (docs/decisions/listening.md, "Where it
 * runs"). The page only asks the browser to decode the file (decodeAudioData runs off the main
 * thread) at 22,050 Hz, which the analysis decimates further; the channels are transferred to the
 * Worker. One analysis per blob: the summary before sending and the track sent after reuse it.
 */
export type AnalysisResult = { track: StoredTrack; report: ListeningReport; ms: number };

/** Decoding at this rate keeps a 20-minute take at ~100 MB of floats at most, and is all the pitch tracker needs. */
const DECODE_RATE = 22_050;

let worker: Worker | null = null;
let nextId = 1;
const waiting = new Map<number, { resolve: (r: AnalysisResult) => void; reject: (e: Error) => void }>();

function theWorker(): Worker {
  if (worker) return worker;
  const w = new Worker(new URL('./analysis.worker.ts', import.meta.url), { type: 'module' });
  w.onmessage = (e: MessageEvent<AnalysisReply>) => {
    const job = waiting.get(e.data.id);
    if (!job) return;
    waiting.delete(e.data.id);
    if (e.data.ok) job.resolve({ ...e.data.result, ms: e.data.ms });
    else job.reject(new Error(e.data.error));
  };
  w.onerror = (e) => {
    for (const job of waiting.values()) job.reject(new Error(e.message || 'analysis worker failed'));
    waiting.clear();
    worker = null;
  };
  worker = w;
  return w;
}

/** The take's channels at DECODE_RATE (the browser's decoder: WebM, Ogg, MP4, MP3, WAV, and the sound of a video). */
export async function decodeChannels(blob: Blob): Promise<{ channels: Float32Array[]; sampleRate: number }> {
  const bytes = await blob.arrayBuffer();
  const Ctx = globalThis.OfflineAudioContext;
  if (!Ctx) throw new Error('no OfflineAudioContext');
  const ctx = new Ctx(1, 1, DECODE_RATE);
  const buffer = await ctx.decodeAudioData(bytes);
  const channels: Float32Array[] = [];
  for (let c = 0; c < Math.min(2, buffer.numberOfChannels); c++) channels.push(buffer.getChannelData(c).slice());
  return { channels, sampleRate: buffer.sampleRate };
}

/** Runs the analysis of decoded channels in the Worker (the buffers move there). */
export function analyzeChannels(channels: Float32Array[], sampleRate: number, opts: AnalyzeOptions): Promise<AnalysisResult> {
  const w = theWorker();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    const msg: AnalysisRequest = { id, channels, sampleRate, opts };
    w.postMessage(msg, channels.map((c) => c.buffer as ArrayBuffer));
  });
}

const byBlob = new WeakMap<Blob, Promise<AnalysisResult>>();

/**
 * The analysis of a take, once per blob: the track does not depend on the settings, the report of
 * the first call's settings comes along (the summary before sending; the server computes its own).
 */
export function analyzeBlob(blob: Blob, opts: AnalyzeOptions = {}): Promise<AnalysisResult> {
  let p = byBlob.get(blob);
  if (!p) {
    p = decodeChannels(blob).then(({ channels, sampleRate }) => analyzeChannels(channels, sampleRate, opts));
    byBlob.set(blob, p);
    p.catch(() => byBlob.delete(blob));
  }
  return p;
}
