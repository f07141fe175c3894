/**
 * Crafted container files for the media guard's tests (docs/decisions/media-parser-guard.md),
 * made in code: deep nesting and huge element counts that made the old recursive walkers and
 * music-metadata run the server out of heap, and a WebM that declares a length its size cannot
 * carry.
 */

/** An EBML header naming the `webm` doc type (what file-type looks for). */
const EBML_HEADER = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x87, 0x42, 0x82, 0x84, ...Buffer.from('webm', 'ascii')]);
/** A Segment of unknown size. */
const SEGMENT_OPEN = Buffer.from([0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
/** Tracks with one audio TrackEntry (TrackType 2, CodecID A_OPUS). */
const AUDIO_TRACKS = Buffer.from([0x16, 0x54, 0xae, 0x6b, 0x8d, 0xae, 0x8b, 0x83, 0x81, 0x02, 0x86, 0x86, ...Buffer.from('A_OPUS', 'ascii')]);

/** A 4-byte EBML size (up to 2^28 - 2). */
function size4(n: number): Buffer {
  return Buffer.from([0x10 | ((n >>> 24) & 0x0f), (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);
}

/** A WebM whose Segment holds `levels` Clusters each inside the one before (8 bytes a level: 260,000 ≈ 2 MiB). */
export function nestedClustersWebm(levels = 260_000): Buffer {
  const body = Buffer.alloc(levels * 8);
  for (let i = 0; i < levels; i++) {
    body.writeUInt32BE(0x1f43b675, i * 8);
    size4((levels - i - 1) * 8).copy(body, i * 8 + 4);
  }
  return Buffer.concat([EBML_HEADER, SEGMENT_OPEN, AUDIO_TRACKS, body]);
}

/** An MP4 (ftyp, then `levels` moov boxes each inside the one before; 131,072 ≈ 1 MiB). */
export function nestedMoovMp4(levels = 131_072): Buffer {
  const ftyp = Buffer.from([0, 0, 0, 0x14, ...Buffer.from('ftypisom', 'ascii'), 0, 0, 2, 0, ...Buffer.from('isom', 'ascii')]);
  const body = Buffer.alloc(levels * 8);
  for (let i = 0; i < levels; i++) {
    body.writeUInt32BE((levels - i) * 8, i * 8);
    body.write('moov', i * 8 + 4, 'latin1');
  }
  return Buffer.concat([ftyp, body]);
}

/** A WebM with one audio track and then `count` empty Void elements (2 bytes each: 1,000,000 ≈ 2 MiB). */
export function manyElementsWebm(count = 1_000_000): Buffer {
  const voids = Buffer.alloc(count * 2);
  for (let i = 0; i < count; i++) {
    voids[i * 2] = 0xec;
    voids[i * 2 + 1] = 0x80;
  }
  return Buffer.concat([EBML_HEADER, SEGMENT_OPEN, AUDIO_TRACKS, voids]);
}

/** An MP4 of `count` empty top-level `free` boxes after its ftyp (8 bytes each). */
export function manyBoxesMp4(count = 500_000): Buffer {
  const ftyp = Buffer.from([0, 0, 0, 0x14, ...Buffer.from('ftypisom', 'ascii'), 0, 0, 2, 0, ...Buffer.from('isom', 'ascii')]);
  const boxes = Buffer.alloc(count * 8);
  for (let i = 0; i < count; i++) {
    boxes.writeUInt32BE(8, i * 8);
    boxes.write('free', i * 8 + 4, 'latin1');
  }
  return Buffer.concat([ftyp, boxes]);
}

/**
 * A 62-byte WebM with one audio track whose Info declares `durationMs` (19:59 by default): a
 * length no 62 bytes can carry.
 */
export function tinyWebmDeclaring(durationMs = (19 * 60 + 59) * 1000): Buffer {
  const duration = Buffer.alloc(8);
  duration.writeDoubleBE(durationMs); // TimecodeScale left at its default of 1 ms
  const info = Buffer.from([0x15, 0x49, 0xa9, 0x66, 0x8b, 0x44, 0x89, 0x88, ...duration]);
  const head = Buffer.concat([EBML_HEADER, SEGMENT_OPEN, info, AUDIO_TRACKS]);
  // a Void element fills it up to 62 bytes
  const fill = 62 - head.length - 2;
  return Buffer.concat([head, Buffer.from([0xec, 0x80 | fill]), Buffer.alloc(fill)]);
}

/**
 * A WAV with a `fact` chunk between `fmt ` and `data` (as some editors write it), its header
 * free to be forged: `seconds` of 8-bit silence at `rate` Hz (8 kHz mono: 300 s ≈ 2.3 MiB, under
 * a spoken comment's 3 MiB) whose `fact` claims `factSamples` samples (8,000: 1 s). 0 channels or
 * 0 Hz still carry the data of one channel at 8 kHz.
 */
export function wavWithFact(o: { seconds: number; factSamples: number; rate?: number; channels?: number; format?: number; bits?: number }): Buffer {
  const rate = o.rate ?? 8000;
  const channels = o.channels ?? 1;
  const bits = o.bits ?? 8;
  const data = Buffer.alloc(Math.round(o.seconds * (rate || 8000)) * Math.max(1, channels) * Math.max(1, bits / 8), 0x80);
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'ascii');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(o.format ?? 1, 8);
  fmt.writeUInt16LE(channels, 10);
  fmt.writeUInt32LE(rate, 12);
  fmt.writeUInt32LE(rate * channels * (bits / 8), 16);
  fmt.writeUInt16LE(channels * (bits / 8), 20);
  fmt.writeUInt16LE(bits, 22);
  const fact = Buffer.alloc(12);
  fact.write('fact', 0, 'ascii');
  fact.writeUInt32LE(4, 4);
  fact.writeUInt32LE(o.factSamples, 8);
  const dataHead = Buffer.alloc(8);
  dataHead.write('data', 0, 'ascii');
  dataHead.writeUInt32LE(data.length, 4);
  const body = Buffer.concat([Buffer.from('WAVE', 'ascii'), fmt, fact, dataHead, data]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'ascii');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** An ID3v2 tag alone, its size running past the end (file-type calls it audio/mpeg): not one MPEG frame. */
export function id3Alone(): Buffer {
  const tag = Buffer.alloc(110);
  tag.write('ID3', 0, 'ascii');
  tag[3] = 3; // ID3v2.3
  tag[8] = 0x7f; // syncsafe size: 16,383 bytes
  tag[9] = 0x7f;
  return tag;
}
