import { analyzePcm, type AnalyzeOptions } from '@contract/listening/analyze';

/**
 * The listening analysis off the page (docs/decisions/listening.md, "Where it runs"): the decoded
 * take's channels come in (transferred, not copied), are mixed to mono here, and the pitch track,
 * onsets and report go back. Nothing of it runs on the main thread.
 */
export type AnalysisRequest = { id: number; channels: Float32Array[]; sampleRate: number; opts: AnalyzeOptions };
export type AnalysisReply = { id: number; ok: true; result: ReturnType<typeof analyzePcm>; ms: number } | { id: number; ok: false; error: string };

function mono(channels: Float32Array[]): Float32Array {
  const first = channels[0] ?? new Float32Array(0);
  if (channels.length < 2) return first;
  const out = new Float32Array(first.length);
  for (const ch of channels) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) + (ch[i] ?? 0) / channels.length;
  return out;
}

self.onmessage = (e: MessageEvent<AnalysisRequest>) => {
  const { id, channels, sampleRate, opts } = e.data;
  const started = performance.now();
  let reply: AnalysisReply;
  try {
    reply = { id, ok: true, result: analyzePcm(mono(channels), sampleRate, opts), ms: Math.round(performance.now() - started) };
  } catch (err) {
    reply = { id, ok: false, error: err instanceof Error ? err.message : String(err) };
  }
  self.postMessage(reply);
};
