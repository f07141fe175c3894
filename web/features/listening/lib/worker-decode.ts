import { Budget, Reader, walkEbml, type EbmlTrack } from '@contract/media-walkers.mjs';
import { decodeWav } from '@contract/listening/wav';
import { MonoMix } from '@contract/listening/mono';
import { sniffAudio } from '@contract/listening/sniff';

/**
 * Decoding a take inside the analysis Worker (docs/decisions/listening.md, "Where it runs"), so the
 * page does no work proportional to the take's length: a WAV through the bounded `decodeWav`, a
 * WebM with Opus (what Chromium and Firefox record) demuxed by the media guard's bounded EBML
 * walker and decoded by the browser's own WebCodecs `AudioDecoder`. Anything else (an MP4/AAC from
 * Safari, an MP3, the sound of a video), or a browser without WebCodecs, returns null: the page then
 * asks `decodeAudioData`, which only a page has.
 */
export type Pcm = { pcm: Float32Array; sampleRate: number };

/** The walker's bounds for a take: a 60-minute WebM of 10 ms frames has ~370,000 blocks. */
const WEBM_LIMITS = { maxBytesRead: 512 * 1024 * 1024, maxElements: 1_000_000, timeMs: 20_000 };

async function webmOpus(bytes: Uint8Array): Promise<Pcm | null> {
  if (typeof AudioDecoder === 'undefined' || typeof EncodedAudioChunk === 'undefined') return null;
  let audio: EbmlTrack | null = null;
  const frames: Uint8Array[] = [];
  try {
    walkEbml(Reader.ofBytes(bytes, new Budget(WEBM_LIMITS)), {
      track(t) {
        audio ??= t.type === 2 ? t : null;
      },
      block(track, payload) {
        if (audio && track === audio.number) frames.push(payload);
      },
    });
  } catch {
    return null; // not a WebM this walker reads (laced blocks, over a bound): the page's decoder may
  }
  const a = audio as EbmlTrack | null;
  if (!a || a.codec !== 'A_OPUS' || !frames.length) return null;
  const channels = Math.max(1, Math.min(2, a.channels ?? 1));
  const config: AudioDecoderConfig = { codec: 'opus', sampleRate: 48_000, numberOfChannels: channels, ...(a.codecPrivate ? { description: a.codecPrivate } : {}) };
  if (!(await AudioDecoder.isConfigSupported(config)).supported) return null;
  const mono = new MonoMix(48_000);
  let failed: unknown = null;
  const decoder = new AudioDecoder({
    output(data) {
      try {
        if (data.sampleRate !== 48_000) throw new Error(`decoded at ${data.sampleRate} Hz`);
        const planes: Float32Array[] = [];
        for (let c = 0; c < data.numberOfChannels; c++) {
          const plane = new Float32Array(data.numberOfFrames);
          data.copyTo(plane, { planeIndex: c, format: 'f32-planar' });
          planes.push(plane);
        }
        mono.add(planes, data.numberOfFrames);
      } catch (e) {
        failed ??= e;
      } finally {
        data.close();
      }
    },
    error(e) {
      failed ??= e;
    },
  });
  try {
    decoder.configure(config);
    // Timestamps only order the chunks; the output is gathered in decoding order.
    for (let i = 0; i < frames.length && !mono.full; i++) {
      decoder.decode(new EncodedAudioChunk({ type: 'key', timestamp: i * 20_000, data: frames[i] as Uint8Array }));
      // Keep the queue short; a browser without the 'dequeue' event is polled instead.
      if (decoder.decodeQueueSize > 200)
        await new Promise((r) => {
          decoder.addEventListener('dequeue', r, { once: true });
          setTimeout(r, 20);
        });
    }
    await decoder.flush();
  } catch (e) {
    failed ??= e;
  } finally {
    if (decoder.state !== 'closed') decoder.close();
  }
  if (failed) return null;
  const pcm = mono.done();
  return pcm.length ? { pcm, sampleRate: 48_000 } : null;
}

/** The take's mono PCM decoded here, or null when only the page's decoder can read it. */
export async function decodeInWorker(bytes: Uint8Array): Promise<Pcm | null> {
  const format = sniffAudio(bytes);
  if (format === 'wav') {
    const wav = decodeWav(bytes);
    return wav.ok ? { pcm: wav.pcm, sampleRate: wav.sampleRate } : null;
  }
  if (format === 'webm') return webmOpus(bytes);
  return null;
}
