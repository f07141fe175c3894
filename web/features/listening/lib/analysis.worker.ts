import { analyzePcm, type AnalyzeOptions } from '@contract/listening/analyze';
import { decodeInWorker } from './worker-decode';

/**
 * The listening analysis off the page (docs/decisions/listening.md, "Where it runs"). A take comes
 * in as its Blob: read and, where this Worker can (WAV; WebM with Opus through WebCodecs), decoded
 * here. Otherwise its bytes go back (transferred, not copied) for the page's `decodeAudioData`,
 * and the decoded channels come in (transferred too). The pitch track, onsets and report go back.
 */
export type AnalysisRequest =
  | { id: number; kind: 'blob'; blob: Blob; opts: AnalyzeOptions }
  | { id: number; kind: 'channels'; channels: Float32Array[]; sampleRate: number; opts: AnalyzeOptions };
export type AnalysisReply =
  | { id: number; ok: true; result: ReturnType<typeof analyzePcm>; ms: number; decodedHere: boolean }
  | { id: number; ok: false; error: string }
  | { id: number; ok: 'page'; bytes: ArrayBuffer };

function mono(channels: Float32Array[]): Float32Array {
  const first = channels[0] ?? new Float32Array(0);
  if (channels.length < 2) return first;
  const out = new Float32Array(first.length);
  for (const ch of channels) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (ch[i] ?? 0) / channels.length;
  return out;
}

async function handle(req: AnalysisRequest): Promise<{ reply: AnalysisReply; transfer: Transferable[] }> {
  const started = performance.now();
  const done = (pcm: Float32Array, sampleRate: number, decodedHere: boolean): { reply: AnalysisReply; transfer: Transferable[] } => ({
    reply: { id: req.id, ok: true, result: analyzePcm(pcm, sampleRate, req.opts), ms: Math.round(performance.now() - started), decodedHere },
    transfer: [],
  });
  if (req.kind === 'channels') return done(mono(req.channels), req.sampleRate, false);
  const bytes = await req.blob.arrayBuffer();
  const here = await decodeInWorker(new Uint8Array(bytes));
  if (here) return done(here.pcm, here.sampleRate, true);
  return { reply: { id: req.id, ok: 'page', bytes }, transfer: [bytes] };
}

self.onmessage = (e: MessageEvent<AnalysisRequest>) => {
  handle(e.data).then(
    ({ reply, transfer }) => self.postMessage(reply, { transfer }),
    (err: unknown) => self.postMessage({ id: e.data.id, ok: false, error: err instanceof Error ? err.message : String(err) } satisfies AnalysisReply),
  );
};
