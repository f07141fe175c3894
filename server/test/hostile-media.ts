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
