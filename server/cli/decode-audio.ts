import { MPEGDecoder } from 'mpg123-decoder';
import { OggOpusDecoder } from 'ogg-opus-decoder';
import { OggVorbisDecoder } from '@wasm-audio-decoders/ogg-vorbis';
import { OpusDecoder } from 'opus-decoder';
import { Budget, LimitError, Reader, walkEbml, type EbmlTrack } from '@contract/media-walkers.mjs';
import { sniffAudio } from '@contract/listening/sniff';
import { INPUT_LIMITS, InputError, slices, type InputFile, type TrackSink } from './read-input';

/**
 * Compressed takes for `npm run cli -- analyze` (docs/decisions/listening.md, "CLI"): MP3, Ogg
 * (Opus or Vorbis) and WebM (Opus, as browsers record it), decoded chunk by chunk into a TrackSink
 * (mono, then the pitch track as the samples come: the take's PCM is never held whole). The codecs
 * are WebAssembly builds of libmpg123, libopus and libvorbis (the `wasm-audio-decoders` family, MIT
 * wrappers); the WebM is demuxed by the media guard's bounded EBML walker
 * (docs/decisions/media-parser-guard.md) straight from the file. Bounded: the file's bytes, the
 * decoded length (60 minutes, as a WAV), the walker's element count, the channels (8) and the
 * wall-clock time of one file. A decoder's own failure is reported as the file's, with its words.
 */

export const DECODE_LIMITS = {
  maxBytes: INPUT_LIMITS.maxCompressedBytes,
  maxSeconds: INPUT_LIMITS.maxSeconds,
  /** Reading, decoding and tracking one file. */
  maxMs: INPUT_LIMITS.maxMs,
  /** EBML elements of one WebM: a 60-minute take of 10 ms Opus frames has ~370,000 blocks. */
  maxElements: 1_000_000,
  /** Opus channels (mapping family 1 goes up to 8 – 7.1 surround; more is not a take). */
  maxChannels: 8,
} as const;

type Chunk = { channelData: Float32Array[]; samplesDecoded: number; sampleRate: number };

/** Bytes in (64 KiB slices, so the clock is checked), chunks out. */
type Streaming = { ready: Promise<void>; decode(b: Uint8Array): Chunk | Promise<Chunk>; flush?(): Chunk | Promise<Chunk>; free(): void };

const STEP = 64 * 1024;

const take = (sink: TrackSink, c: Chunk) => sink.add(c.channelData, c.samplesDecoded, c.sampleRate);

async function stream(decoder: Streaming, file: InputFile, sink: TrackSink): Promise<void> {
  await decoder.ready;
  try {
    let read = 0;
    for (const bytes of slices(file, 0, file.size, STEP)) {
      take(sink, await decoder.decode(bytes));
      read += bytes.length;
      if (sink.full) {
        if (read < file.size) sink.cut = true;
        return;
      }
    }
    if (decoder.flush) take(sink, await decoder.flush());
  } finally {
    decoder.free();
  }
}

type OpusConfig = { channels: number; preSkip: number; streamCount: number; coupledStreamCount: number; channelMappingTable: number[] };

/** An OpusHead (RFC 7845 §5.1) checked before any decoder sees it: a message for what is wrong. */
export function opusConfig(head: Uint8Array | null, where: string): OpusConfig {
  if (!head || head.length < 19 || String.fromCharCode(...head.subarray(0, 8)) !== 'OpusHead') throw new InputError(`the ${where} has no OpusHead`);
  const version = head[8] as number;
  if (version >> 4 !== 0) throw new InputError(`an OpusHead of version ${version} is not read`);
  const channels = head[9] as number;
  const preSkip = (head[10] as number) | ((head[11] as number) << 8);
  const family = head[18] as number;
  if (channels < 1 || channels > DECODE_LIMITS.maxChannels) throw new InputError(`an OpusHead with ${channels} channels: at most ${DECODE_LIMITS.maxChannels} are read`);
  if (family === 0) {
    if (channels > 2) throw new InputError(`an OpusHead with ${channels} channels in mapping family 0, which has at most 2`);
    return { channels, preSkip, streamCount: 1, coupledStreamCount: channels > 1 ? 1 : 0, channelMappingTable: channels > 1 ? [0, 1] : [0] };
  }
  if (head.length < 21 + channels) throw new InputError(`the OpusHead's channel mapping is cut (${head.length} bytes for ${channels} channels)`);
  const streamCount = head[19] as number;
  const coupledStreamCount = head[20] as number;
  if (streamCount < 1 || coupledStreamCount > streamCount || streamCount + coupledStreamCount > 255) throw new InputError(`an OpusHead with ${streamCount} streams, ${coupledStreamCount} coupled`);
  const channelMappingTable = Array.from(head.subarray(21, 21 + channels));
  if (channelMappingTable.some((m) => m !== 255 && m >= streamCount + coupledStreamCount)) throw new InputError('the OpusHead maps a channel to a stream it does not have');
  return { channels, preSkip, streamCount, coupledStreamCount, channelMappingTable };
}

/** The first packet of an Ogg stream (its first page's first segments), or null. */
function firstOggPacket(b: Uint8Array): Uint8Array | null {
  if (b.length < 27 || String.fromCharCode(...b.subarray(0, 4)) !== 'OggS') return null;
  const segments = b[26] as number;
  let length = 0;
  for (let i = 0; i < segments; i++) {
    const lace = b[27 + i];
    if (lace === undefined) return null;
    length += lace;
    if (lace < 255) break;
  }
  return b.subarray(27 + segments, 27 + segments + length);
}

const STOP = new Error('enough');

/** Opus in WebM: the frames of the first audio track, decoded with the stream's OpusHead, as the walker meets them. */
async function webm(file: InputFile, sink: TrackSink): Promise<void> {
  const reader = () => new Reader((into, at) => file.readAt(into, at), file.size, new Budget({ maxBytesRead: 2 * DECODE_LIMITS.maxBytes, maxElements: DECODE_LIMITS.maxElements, timeMs: DECODE_LIMITS.maxMs }));
  // First the tracks (they come before the first block); the walk stops at the first block.
  const tracks: EbmlTrack[] = [];
  let audio: EbmlTrack | null = null;
  try {
    walkEbml(reader(), {
      track(t) {
        tracks.push(t);
        if (!audio && t.type === 2) audio = t;
      },
      block() {
        if (audio) throw STOP;
      },
    });
  } catch (e) {
    if (e !== STOP) throw e;
  }
  const a = audio as EbmlTrack | null;
  if (!a) throw new InputError(tracks.length ? 'the WebM has no audio track' : 'the WebM has no tracks');
  if (a.codec !== 'A_OPUS') throw new InputError(`a WebM with ${a.codec ?? 'an unnamed codec'} is not read; Opus is (what browsers record)`);
  const decoder = new OpusDecoder(opusConfig(a.codecPrivate, 'WebM') as ConstructorParameters<typeof OpusDecoder>[0]);
  await decoder.ready;
  // Then the frames, 500 at a time, until the end or 60 minutes.
  let batch: Uint8Array[] = [];
  const decode = () => {
    if (batch.length) take(sink, decoder.decodeFrames(batch));
    batch = [];
  };
  try {
    walkEbml(reader(), {
      track() {},
      block(track, payload) {
        if (track !== a.number) return;
        if (sink.full) {
          sink.cut = true;
          throw STOP;
        }
        batch.push(payload);
        if (batch.length >= 500) decode();
      },
    });
    decode();
  } catch (e) {
    if (e !== STOP) throw e;
  } finally {
    decoder.free();
  }
}

const NAMES = { mp3: 'MP3', 'ogg-opus': 'Ogg Opus stream', 'ogg-vorbis': 'Ogg Vorbis stream', webm: 'WebM' } as const;

/**
 * A compressed take into `sink`; `head` is the file's first bytes (what they are decides, not the
 * name). Throws an InputError with a message a person can act on.
 */
export async function decodeCompressed(file: InputFile, head: Uint8Array, sink: TrackSink): Promise<void> {
  if (file.size > DECODE_LIMITS.maxBytes) throw new InputError(`${file.size} bytes, more than ${DECODE_LIMITS.maxBytes} for a compressed file`);
  const format = sniffAudio(head);
  if (format === 'flac' || format === 'mp4') throw new InputError(`${format === 'flac' ? 'FLAC' : 'MP4/M4A/AAC'} is not read: decode it to WAV first`);
  if (format !== 'mp3' && format !== 'ogg-opus' && format !== 'ogg-vorbis' && format !== 'webm') throw new InputError('not a WAV, MP3, Ogg or WebM file');
  try {
    switch (format) {
      case 'mp3':
        return await stream(new MPEGDecoder() as unknown as Streaming, file, sink);
      case 'ogg-opus':
        opusConfig(firstOggPacket(head), 'Ogg stream');
        return await stream(new OggOpusDecoder() as unknown as Streaming, file, sink);
      case 'ogg-vorbis':
        return await stream(new OggVorbisDecoder() as unknown as Streaming, file, sink);
      case 'webm':
        return await webm(file, sink);
    }
  } catch (e) {
    if (e instanceof InputError) throw e;
    if (e instanceof LimitError) throw new InputError(`the WebM is beyond the reader's ${e.reason} limit`);
    throw new InputError(`the ${NAMES[format]} could not be decoded (${e instanceof Error ? e.message : String(e)})`);
  }
}
