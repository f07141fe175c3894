// The app's own readers of container bytes: a WebM (EBML) walker and an MP4/QuickTime box
// walker. Both are iterative (an explicit stack, never recursion) and bounded in depth, element
// count, bytes read and time: an input over any bound throws a LimitError. They run inside the
// media guard's worker thread (server/lib/media-guard-worker.mjs), in the analysis CLI and in the
// browser's analysis Worker (the WebM demuxer of both); docs/decisions/media-parser-guard.md.
//
// Plain JavaScript on Uint8Array and DataView, no Node API: Node runs it as it is from the sources
// beside the compiled server, and the browser's bundler takes it too. Types: media-walkers.d.mts.
// @ts-check

/** @param {Uint8Array} b */
const view = (b) => new DataView(b.buffer, b.byteOffset, b.byteLength);
/** @param {Uint8Array} b @param {number} start @param {number} end */
const latin1 = (b, start, end) => String.fromCharCode(...b.subarray(start, end));

/**
 * @typedef {{ maxDepth: number; maxElements: number; maxBytesRead: number; timeMs: number }} WalkLimits
 * @typedef {'depth' | 'elements' | 'bytes' | 'time'} LimitReason
 */

/** What the guard allows one probe (all parsers of one file together). */
export const DEFAULT_LIMITS = Object.freeze({
  /** Masters inside masters: a real WebM nests 4 deep (Segment, Cluster, BlockGroup, Block), an MP4 5 (moov, trak, mdia, minf, stbl). */
  maxDepth: 16,
  /** Elements or boxes visited: a 20-minute WebM of 10 ms Opus frames has ~125,000. */
  maxElements: 400_000,
  /** Bytes read from the file by every parser of the probe: twice the largest upload (50 MiB) and room. */
  maxBytesRead: 128 * 1024 * 1024,
  /** Wall-clock time of the probe; the guard also stops the worker itself a little later. */
  timeMs: 5_000,
});

export class LimitError extends Error {
  /** @param {LimitReason} reason */
  constructor(reason) {
    super(`media probe over its ${reason} limit`);
    this.name = 'LimitError';
    /** @type {LimitReason} */
    this.reason = reason;
  }
}

/** Counts what one probe spends: bytes read, elements visited, time. */
export class Budget {
  /** @param {Partial<WalkLimits>} [limits] */
  constructor(limits) {
    /** @type {WalkLimits} */
    this.limits = { ...DEFAULT_LIMITS, ...(limits ?? {}) };
    this.bytes = 0;
    this.elements = 0;
    this.deadline = Date.now() + this.limits.timeMs;
    /** The first bound passed, kept even if a library catches the error: @type {LimitReason | null} */
    this.exceeded = null;
  }
  /** @param {LimitReason} reason */
  over(reason) {
    this.exceeded ??= reason;
    return new LimitError(reason);
  }
  /** @param {number} n */
  read(n) {
    this.bytes += n;
    if (this.bytes > this.limits.maxBytesRead) throw this.over('bytes');
  }
  element() {
    this.elements++;
    if (this.elements > this.limits.maxElements) throw this.over('elements');
    if ((this.elements & 1023) === 0) this.time();
  }
  time() {
    if (Date.now() > this.deadline) throw this.over('time');
  }
  /** @param {number} depth */
  depth(depth) {
    if (depth > this.limits.maxDepth) throw this.over('depth');
  }
}

/** A file or bytes in memory read front to back through a 64 KiB window, every byte counted. */
export class Reader {
  /**
   * @param {(into: Uint8Array, at: number) => number} readAt fills `into` from position `at`, returns the bytes read (a file: server/lib/media-guard-worker.mjs)
   * @param {number} size
   * @param {Budget} budget
   */
  constructor(readAt, size, budget) {
    this.readAt = readAt;
    this.size = size;
    this.budget = budget;
    this.buf = new Uint8Array(0);
    this.bufStart = 0;
    this.pos = 0;
  }

  /** @param {Uint8Array} data @param {Budget} budget */
  static ofBytes(data, budget) {
    return new Reader(
      (into, at) => {
        const part = data.subarray(at, at + into.length);
        into.set(part);
        return part.length;
      },
      data.length,
      budget,
    );
  }

  /**
   * The next `n` bytes (n ≤ 64 KiB), or null past the end.
   * @param {number} n
   * @returns {Uint8Array | null}
   */
  bytes(n) {
    if (n > 65536) throw new RangeError('read too large');
    if (this.pos + n > this.size) return null;
    if (this.pos < this.bufStart || this.pos + n > this.bufStart + this.buf.length) {
      const len = Math.min(65536, this.size - this.pos);
      const b = new Uint8Array(len);
      this.budget.read(len);
      const got = this.readAt(b, this.pos);
      this.buf = b.subarray(0, got);
      this.bufStart = this.pos;
      if (got < n) return null;
    }
    const o = this.pos - this.bufStart;
    this.pos += n;
    return this.buf.subarray(o, o + n);
  }

  /** @returns {number | null} */
  byte() {
    const o = this.pos - this.bufStart;
    if (o >= 0 && o < this.buf.length) {
      this.pos++;
      return /** @type {number} */ (this.buf[o]);
    }
    const b = this.bytes(1);
    return b ? (b[0] ?? null) : null;
  }
}

// --- WebM (EBML) -------------------------------------------------------------------------------

const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const INFO = 0x1549a966;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const TRACK_TYPE = 0x83;
const TIMECODE_SCALE = 0x2ad7b1;
const DURATION = 0x4489;
const CLUSTER_TIMECODE = 0xe7;
const SIMPLE_BLOCK = 0xa3;
const BLOCK_GROUP = 0xa0;
const BLOCK = 0xa1;
const TRACK_NUMBER = 0xd7;
const CODEC_ID = 0x86;
const CODEC_PRIVATE = 0x63a2;
const AUDIO = 0xe1;
const SAMPLING_FREQUENCY = 0xb5;
const CHANNELS = 0x9f;
/** Masters the walker goes into; every other element is skipped by its size. */
const EBML_MASTERS = new Set([SEGMENT, CLUSTER, INFO, TRACKS, TRACK_ENTRY, BLOCK_GROUP, AUDIO]);
/** The largest CodecPrivate or frame a sink is given (an Opus frame is at most ~1.3 KB a channel). */
const MAX_PAYLOAD = 65_536;
/** Children of a Segment: where a Cluster of unknown size ends. */
const SEGMENT_CHILDREN = new Set([CLUSTER, INFO, TRACKS, 0x114d9b74, 0x1c53bb6b, 0x1941a469, 0x1043a770, 0x1254c367]);

/**
 * An EBML variable-length integer; `keepMarker` for element ids. null at the end of the data;
 * -1 for "unknown size".
 * @param {Reader} r @param {boolean} keepMarker
 */
function vint(r, keepMarker) {
  const first = r.byte();
  if (first === null || first === 0) return null;
  let len = 1;
  while (len <= 8 && !(first & (0x80 >> (len - 1)))) len++;
  let value = keepMarker ? first : first & (0xff >> len);
  let allOnes = value === 0xff >> len;
  for (let i = 1; i < len; i++) {
    const b = r.byte();
    if (b === null) return null;
    value = value * 256 + b;
    if (b !== 0xff) allOnes = false;
  }
  if (!keepMarker && allOnes) return -1;
  return value;
}

/** @param {Uint8Array} b */
function readUint(b) {
  let v = 0;
  for (const x of b) v = v * 256 + x;
  return v;
}

/**
 * @typedef {{ number: number | null; type: number | null; codec: string | null; codecPrivate: Uint8Array | null; channels: number | null; rate: number | null }} EbmlTrack
 * @typedef {{ track(t: EbmlTrack): void; block(track: number, payload: Uint8Array): void }} EbmlSink
 */

/**
 * A WebM's tracks and length, read from its elements as MediaRecorder writes them (Segment and
 * Clusters of unknown size, no Duration): the length is the last block's time, else Info's
 * Duration. Throws on a file that is not EBML or has no track, and a LimitError over a bound.
 * With a `sink` (the CLI's decoder, docs/decisions/listening.md) it also hands over each track's
 * codec and each unlaced block's frame (copied, ≤ 64 KiB; a laced block is refused).
 * @param {Reader} r
 * @param {EbmlSink} [sink]
 * @returns {{ hasVideo: boolean; seconds: number | null }}
 */
export function walkEbml(r, sink) {
  const budget = r.budget;
  const header = r.bytes(4);
  if (!header || view(header).getUint32(0) !== EBML) throw new Error('not EBML');
  r.pos = 0;
  let scale = 1_000_000;
  /** @type {number | null} */
  let infoDuration = null;
  let hasVideo = false;
  let sawTrack = false;
  let clusterTime = 0;
  /** @type {number | null} */
  let lastTime = null;
  /** @type {EbmlTrack | null} */
  let entry = null;
  /** Open masters: where each ends, whether it is a Cluster of unknown size, whether it is a TrackEntry. */
  const stack = [{ end: r.size, openCluster: false, track: false }];
  const close = () => {
    const done = stack.pop();
    if (done?.track && entry && sink) sink.track(entry);
    if (done?.track) entry = null;
  };
  /** @param {number} size */
  const data = (size) => {
    if (size > MAX_PAYLOAD) throw new Error(`an element of ${size} bytes`);
    return r.bytes(size);
  };
  while (stack.length > 0) {
    const top = /** @type {{ end: number; openCluster: boolean; track: boolean }} */ (stack[stack.length - 1]);
    if (r.pos >= top.end) {
      close();
      continue;
    }
    const at = r.pos;
    const id = vint(r, true);
    if (id === null) break;
    budget.element();
    if (top.openCluster && SEGMENT_CHILDREN.has(id)) {
      r.pos = at; // the unknown-size cluster ended here
      close();
      continue;
    }
    const size = vint(r, false);
    if (size === null) break;
    if (size === -1 && id !== SEGMENT && id !== CLUSTER) break; // nothing else may be of unknown size
    const bodyEnd = size === -1 ? top.end : Math.min(r.pos + size, top.end);
    if (EBML_MASTERS.has(id)) {
      budget.depth(stack.length);
      if (id === CLUSTER) clusterTime = 0;
      if (id === TRACK_ENTRY) entry = { number: null, type: null, codec: null, codecPrivate: null, channels: null, rate: null };
      stack.push({ end: bodyEnd, openCluster: id === CLUSTER && size === -1, track: id === TRACK_ENTRY });
      continue;
    }
    if (id === TRACK_TYPE && size <= 8) {
      const b = r.bytes(size);
      sawTrack = true;
      if (b && readUint(b) === 1) hasVideo = true;
      if (b && entry) entry.type = readUint(b);
    } else if (sink && entry && id === TRACK_NUMBER && size <= 8) {
      const b = r.bytes(size);
      if (b) entry.number = readUint(b);
    } else if (sink && entry && id === CODEC_ID && size <= 64) {
      const b = r.bytes(size);
      if (b) entry.codec = latin1(b, 0, b.length);
    } else if (sink && entry && id === CODEC_PRIVATE) {
      const b = data(size);
      if (b) entry.codecPrivate = b.slice();
    } else if (sink && entry && id === CHANNELS && size <= 8) {
      const b = r.bytes(size);
      if (b) entry.channels = readUint(b);
    } else if (sink && entry && id === SAMPLING_FREQUENCY && (size === 4 || size === 8)) {
      const b = r.bytes(size);
      if (b) entry.rate = size === 4 ? view(b).getFloat32(0) : view(b).getFloat64(0);
    } else if (id === TIMECODE_SCALE && size <= 8) {
      const b = r.bytes(size);
      if (b) scale = readUint(b) || 1_000_000;
    } else if (id === DURATION && (size === 4 || size === 8)) {
      const b = r.bytes(size);
      if (b) infoDuration = size === 4 ? view(b).getFloat32(0) : view(b).getFloat64(0);
    } else if (id === CLUSTER_TIMECODE && size <= 8) {
      const b = r.bytes(size);
      if (b) clusterTime = readUint(b);
    } else if (id === SIMPLE_BLOCK || id === BLOCK) {
      const track = vint(r, false);
      const tc = r.bytes(2);
      if (track !== null && tc) {
        const t = clusterTime + view(tc).getInt16(0);
        if (lastTime === null || t > lastTime) lastTime = t;
        if (sink) {
          const flags = r.byte();
          if (flags === null) break;
          if (flags & 0x06) throw new Error('a laced block');
          const payload = r.pos < bodyEnd ? data(bodyEnd - r.pos) : null;
          if (payload) sink.block(track, payload.slice());
        }
      }
    }
    r.pos = bodyEnd;
  }
  if (!sawTrack) throw new Error('no tracks');
  const ticks = lastTime !== null && lastTime > 0 ? lastTime : infoDuration;
  const seconds = ticks === null || !Number.isFinite(ticks) || ticks < 0 ? null : (ticks * scale) / 1e9;
  return { hasVideo, seconds };
}

// --- MP4 / QuickTime ---------------------------------------------------------------------------

/**
 * Boxes that hold boxes: every one music-metadata goes into (it runs after this walker), so a
 * nesting it would follow is measured here first.
 */
const MP4_CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'udta', 'ilst', 'tref', 'moof', 'traf', 'meta', 'edts', 'dinf', 'mvex', 'mfra']);

/**
 * Whether an MP4/QuickTime file has a video track (a `vide` handler in moov/trak/mdia/hdlr) and
 * its length from moov/mvhd (null when it says 0, as fragmented files do). A LimitError over a bound.
 * @param {Reader} r
 * @returns {{ hasVideo: boolean; seconds: number | null }}
 */
export function walkMp4(r) {
  const budget = r.budget;
  let hasVideo = false;
  /** @type {number | null} */
  let seconds = null;
  /** Open boxes: their type and where they end. */
  const stack = [{ type: '', end: r.size }];
  while (stack.length > 0) {
    const top = /** @type {{ type: string; end: number }} */ (stack[stack.length - 1]);
    if (r.pos + 8 > top.end) {
      r.pos = top.end;
      stack.pop();
      continue;
    }
    const start = r.pos;
    const h = r.bytes(8);
    if (!h) break;
    budget.element();
    let size = view(h).getUint32(0);
    const type = latin1(h, 4, 8);
    let headerLength = 8;
    if (size === 1) {
      const big = r.bytes(8);
      if (!big) break;
      size = Number(view(big).getBigUint64(0));
      headerLength = 16;
    } else if (size === 0) size = top.end - start;
    if (size < headerLength) break; // a broken box ends the walk: what was read so far counts
    const boxEnd = Math.min(start + size, top.end);
    if (MP4_CONTAINERS.has(type) || top.type === 'ilst') {
      budget.depth(stack.length);
      if (type === 'meta') {
        // ISO's meta is a full box (4 bytes of version and flags before its children), QuickTime's is not
        const vf = r.bytes(4);
        if (vf && view(vf).getUint32(0) !== 0) r.pos -= 4;
      }
      stack.push({ type, end: boxEnd });
      continue;
    }
    if (type === 'hdlr' && top.type === 'mdia') {
      const b = r.bytes(12);
      if (b && latin1(b, 8, 12) === 'vide') hasVideo = true;
    } else if (type === 'mvhd' && top.type === 'moov') {
      const b = r.bytes(32);
      if (b) {
        const v1 = b[0] === 1;
        const timescale = v1 ? view(b).getUint32(20) : view(b).getUint32(12);
        const duration = v1 ? Number(view(b).getBigUint64(24)) : view(b).getUint32(16);
        if (timescale > 0 && duration > 0 && !(!v1 && duration === 0xffffffff)) seconds = duration / timescale;
      }
    }
    r.pos = boxEnd;
  }
  return { hasVideo, seconds };
}

// --- WAV (RIFF) --------------------------------------------------------------------------------

/** Formats whose samples all have one size, so the data's bytes tell the length: PCM, IEEE float, A-law, µ-law. */
const WAV_FIXED_FORMATS = new Set([1, 3, 6, 7]);
const WAV_EXTENSIBLE = 0xfffe;
/** What a WAV may declare and still be audio a browser plays (its AudioContext takes 3,000–768,000 Hz). */
export const WAV_BOUNDS = Object.freeze({ minRate: 1000, maxRate: 768_000, maxChannels: 32 });

/**
 * A WAV's length measured from its data, as a player plays it: the `data` chunk's bytes (up to
 * the end of the file; a size of 0 or 0xFFFFFFFF, as streaming writers leave it, means to the
 * end) over the frame the `fmt ` chunk gives (channels × bytes per sample) and its sample rate.
 * A `fact` chunk's sample count is a claim and not read (players ignore it for these formats).
 * Throws on a file that is not a RIFF WAVE or is not audio: no `fmt ` or `data` chunk, 0 channels,
 * a sample rate out of WAV_BOUNDS, a compressed format (only its own frames could tell its
 * length, and browsers play none of them), or no whole sample; a LimitError over a bound.
 * @param {Reader} r
 * @returns {{ hasVideo: boolean; seconds: number }}
 */
export function walkWav(r) {
  const head = r.bytes(12);
  if (!head || latin1(head, 0, 4) !== 'RIFF' || latin1(head, 8, 12) !== 'WAVE') throw new Error('not a RIFF WAVE');
  /** @type {{ format: number; channels: number; rate: number; bits: number } | null} */
  let fmt = null;
  for (;;) {
    const h = r.bytes(8);
    if (!h) throw new Error('no data chunk');
    r.budget.element();
    const id = latin1(h, 0, 4);
    const size = view(h).getUint32(4, true);
    const body = r.pos;
    if (id === 'fmt ') {
      const b = size >= 16 ? r.bytes(Math.min(size, 26)) : null;
      if (!b) throw new Error('fmt chunk too short');
      const v = view(b);
      let format = v.getUint16(0, true);
      if (format === WAV_EXTENSIBLE && b.length >= 26) format = v.getUint16(24, true);
      fmt = { format, channels: v.getUint16(2, true), rate: v.getUint32(4, true), bits: v.getUint16(14, true) };
    } else if (id === 'data') {
      if (!fmt) throw new Error('data before fmt');
      const { format, channels, rate, bits } = fmt;
      if (channels < 1 || channels > WAV_BOUNDS.maxChannels) throw new Error(`${channels} channels`);
      if (rate < WAV_BOUNDS.minRate || rate > WAV_BOUNDS.maxRate) throw new Error(`sample rate ${rate}`);
      const sampleBytes = Math.ceil(bits / 8);
      if (!WAV_FIXED_FORMATS.has(format) || sampleBytes < 1 || sampleBytes > 8) throw new Error(`format ${format}, ${bits} bits`);
      const rest = r.size - body;
      const bytes = size === 0 || size === 0xffffffff ? rest : Math.min(size, rest);
      const frames = Math.floor(bytes / (channels * sampleBytes));
      if (frames < 1) throw new Error('no samples');
      return { hasVideo: false, seconds: frames / rate };
    }
    r.pos = body + size + (size % 2);
  }
}
