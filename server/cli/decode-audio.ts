import { MPEGDecoder } from 'mpg123-decoder';
import { OggOpusDecoder } from 'ogg-opus-decoder';
import { OggVorbisDecoder } from '@wasm-audio-decoders/ogg-vorbis';
import { OpusDecoder } from 'opus-decoder';
import { Budget, Reader, walkEbml, type EbmlTrack } from '@contract/media-walkers.mjs';
import { MonoMix } from '@contract/listening/mono';
import { sniffAudio } from '@contract/listening/sniff';

/**
 * Compressed takes for `npm run cli -- analyze` (docs/decisions/listening.md, "CLI"): MP3, Ogg
 * (Opus or Vorbis) and WebM (Opus, as browsers record it) → mono PCM for the same analysis a
 * browser runs after its own decodeAudioData. The codecs are WebAssembly builds of libmpg123,
 * libopus and libvorbis (the `wasm-audio-decoders` family, MIT wrappers); the WebM is demuxed by
 * the media guard's bounded EBML walker (docs/decisions/media-parser-guard.md). Bounded: the
 * file's bytes, the decoded length (60 minutes, as a WAV), the walker's element count and the
 * wall-clock time of one file.
 */

export const DECODE_LIMITS = {
  maxBytes: 512 * 1024 * 1024,
  maxSeconds: 60 * 60,
  /** Decoding one file; a 60-minute MP3 decodes in well under this on one core. */
  maxMs: 120_000,
  /** EBML elements of one WebM: a 60-minute take of 10 ms Opus frames has ~370,000 blocks. */
  maxElements: 1_000_000,
} as const;

type Chunk = { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number };

/** Decoded chunks mixed to mono (the shared MonoMix), one sample rate, the clock checked per chunk. */
class Mono {
  private mix: MonoMix | null = null;
  private readonly deadline = Date.now() + DECODE_LIMITS.maxMs;

  get full(): boolean {
    return this.mix?.full ?? false;
  }

  add(c: Chunk): void {
    if (Date.now() > this.deadline) throw new Error(`decoding took more than ${DECODE_LIMITS.maxMs / 1000} s`);
    if (!c.samplesDecoded || !c.channelData.length) return;
    this.mix ??= new MonoMix(c.sampleRate, DECODE_LIMITS.maxSeconds);
    if (c.sampleRate !== this.mix.rate) throw new Error(`the sample rate changes (${this.mix.rate} → ${c.sampleRate} Hz)`);
    this.mix.add(c.channelData, c.samplesDecoded);
  }

  done(): { pcm: Float32Array; sampleRate: number } {
    if (!this.mix?.samples) throw new Error('no audio could be decoded');
    return { pcm: this.mix.done(), sampleRate: this.mix.rate };
  }
}

const STEP = 64 * 1024;

/** A streaming decoder of the family: bytes in (in slices, so the clock is checked), chunks out. */
type Streaming = { ready: Promise<void>; decode(b: Uint8Array): Chunk | Promise<Chunk>; flush?(): Chunk | Promise<Chunk>; free(): void };

async function stream(decoder: Streaming, bytes: Uint8Array): Promise<{ pcm: Float32Array; sampleRate: number }> {
  await decoder.ready;
  const mono = new Mono();
  try {
    for (let at = 0; at < bytes.length && !mono.full; at += STEP) mono.add(await decoder.decode(bytes.subarray(at, at + STEP)));
    if (decoder.flush && !mono.full) mono.add(await decoder.flush());
    return mono.done();
  } finally {
    decoder.free();
  }
}

/** Opus in WebM: the frames of the first audio track, decoded with the stream's OpusHead. */
async function webm(bytes: Uint8Array): Promise<{ pcm: Float32Array; sampleRate: number }> {
  const tracks: EbmlTrack[] = [];
  const frames: Uint8Array[] = [];
  let audio: EbmlTrack | null = null;
  const budget = new Budget({ maxBytesRead: DECODE_LIMITS.maxBytes, maxElements: DECODE_LIMITS.maxElements, timeMs: DECODE_LIMITS.maxMs });
  walkEbml(Reader.ofBytes(bytes, budget), {
    track(t) {
      tracks.push(t);
      if (!audio && t.type === 2) audio = t;
    },
    block(track, payload) {
      const a = audio as EbmlTrack | null;
      if (a && track === a.number) frames.push(payload);
    },
  });
  const a = audio as EbmlTrack | null;
  if (!a) throw new Error(tracks.length ? 'the WebM has no audio track' : 'the WebM has no tracks');
  if (a.codec !== 'A_OPUS') throw new Error(`a WebM with ${a.codec ?? 'an unnamed codec'} is not read; Opus is (what browsers record)`);
  const head = a.codecPrivate ? Buffer.from(a.codecPrivate) : null;
  if (!head || head.length < 19 || head.toString('latin1', 0, 8) !== 'OpusHead') throw new Error('the WebM has no OpusHead');
  const channels = head[9] ?? 1;
  const preSkip = head.readUInt16LE(10);
  const family = head[18] ?? 0;
  const config =
    family === 0
      ? { channels, preSkip, streamCount: 1, coupledStreamCount: channels > 1 ? 1 : 0, channelMappingTable: channels > 1 ? [0, 1] : [0] }
      : { channels, preSkip, streamCount: head[19] ?? 1, coupledStreamCount: head[20] ?? 0, channelMappingTable: Array.from(head.subarray(21, 21 + channels)) };
  if (channels < 1 || channels > 8 || (family === 0 && channels > 2)) throw new Error(`an OpusHead with ${channels} channels`);
  const decoder = new OpusDecoder(config as ConstructorParameters<typeof OpusDecoder>[0]);
  await decoder.ready;
  const mono = new Mono();
  try {
    for (let i = 0; i < frames.length && !mono.full; i += 500) mono.add(decoder.decodeFrames(frames.slice(i, i + 500)));
    return mono.done();
  } finally {
    decoder.free();
  }
}

/** A compressed take's mono PCM; throws with a message a person can act on. */
export async function decodeCompressed(bytes: Uint8Array): Promise<{ pcm: Float32Array; sampleRate: number }> {
  if (bytes.length > DECODE_LIMITS.maxBytes) throw new Error(`${bytes.length} bytes, more than ${DECODE_LIMITS.maxBytes}`);
  const format = sniffAudio(bytes);
  switch (format) {
    case 'mp3':
      return stream(new MPEGDecoder() as unknown as Streaming, bytes);
    case 'ogg-opus':
      return stream(new OggOpusDecoder() as unknown as Streaming, bytes);
    case 'ogg-vorbis':
      return stream(new OggVorbisDecoder() as unknown as Streaming, bytes);
    case 'webm':
      return webm(bytes);
    case 'flac':
    case 'mp4':
      throw new Error(`${format === 'flac' ? 'FLAC' : 'MP4/M4A/AAC'} is not read: decode it to WAV first`);
    default:
      throw new Error('not a WAV, MP3, Ogg or WebM file');
  }
}
