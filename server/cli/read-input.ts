import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, type Stats } from 'node:fs';
import { mixToMono } from '@contract/listening/mono';
import { MAX_SECONDS, TrackBuilder, trackFromHz, type PitchTrack } from '@contract/listening/track';
import { sampleReader, WAV_LIMITS } from '@contract/listening/wav';

/**
 * What `npm run cli -- analyze` reads, and how, so that no file can take the machine's memory or
 * hang the command (docs/decisions/listening.md, "CLI"):
 * - only regular files: a path is opened without blocking (a FIFO cannot hold the command) and the
 *   opened file itself is checked, after links are followed: a link to /dev/zero, a FIFO, a socket or
 *   a device is refused with a message, never read;
 * - a byte cap per kind of file, checked on the opened file;
 * - audio streams: read in slices, decoded chunk by chunk, mixed to mono and handed to the analysis'
 *   TrackBuilder, which decimates and computes the pitch and onset frames as the samples come, so
 *   the take's PCM is never held whole; it stops after MAX_SECONDS (60 minutes; the rest is cut);
 * - pitch text is read in slices and line by line, up to 60 minutes and 720,000 frames.
 */

export const INPUT_LIMITS = {
  /** A WAV file (16-bit stereo 48 kHz is 0.69 GB an hour). */
  maxWavBytes: WAV_LIMITS.maxBytes,
  /** A compressed file (MP3, Ogg, WebM). */
  maxCompressedBytes: 512 * 1024 * 1024,
  /** A plain pitch track. */
  maxTextBytes: 64 * 1024 * 1024,
  maxLines: 10_000_000,
  /**
   * Frames of a pitch track analysed: 60 minutes at 5 ms, as many as a stored track may have
   * (contract/listening/encoding.ts). The report's memory grows with them (~0.3 KB a frame).
   */
  maxFrames: 720_000,
  /** Audio and pitch tracks are analysed up to this length; the rest is cut. */
  maxSeconds: MAX_SECONDS,
  /**
   * Reading, decoding and tracking one file (wall clock): a 60-minute MP3 takes about a minute on
   * one idle core of this machine, and 4.5 minutes on a busy one (load 10 on 2 cores).
   */
  maxMs: 600_000,
} as const;

/** A file that cannot be analysed, with a message a person can act on. */
export class InputError extends Error {}

const kind = (s: Stats) =>
  s.isDirectory() ? 'a directory' : s.isFIFO() ? 'a FIFO' : s.isSocket() ? 'a socket' : s.isCharacterDevice() ? 'a character device' : s.isBlockDevice() ? 'a block device' : 'not a regular file';

function isSocket(path: string): boolean {
  try {
    return lstatSync(path).isSocket();
  } catch {
    return false;
  }
}

/** An opened regular file, read by position. */
export type InputFile = {
  readonly path: string;
  readonly size: number;
  /** Fills `into` from position `at`; the bytes read (fewer at the end). */
  readAt(into: Uint8Array, at: number): number;
  close(): void;
};

/**
 * Opens `path` for reading if it is a regular file (links followed). O_NONBLOCK: opening a FIFO
 * returns at once instead of waiting for a writer; the opened file is then checked with fstat, so
 * what is read is what was checked.
 */
export function openInput(path: string): InputFile {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  } catch (e) {
    // A socket cannot be opened (ENXIO): name what it is.
    if ((e as NodeJS.ErrnoException).code === 'ENXIO' && isSocket(path)) throw new InputError('not a regular file (a socket): only files are read');
    throw e;
  }
  const s = fstatSync(fd);
  if (!s.isFile()) {
    closeSync(fd);
    throw new InputError(`not a regular file (${kind(s)}): only files are read`);
  }
  let closed = false;
  return {
    path,
    size: s.size,
    readAt(into, at) {
      let got = 0;
      while (got < into.length) {
        const n = readSync(fd, into, got, into.length - got, at + got);
        if (n === 0) break;
        got += n;
      }
      return got;
    },
    close() {
      if (!closed) closeSync(fd);
      closed = true;
    },
  };
}

/** Reads `file` front to back in slices of `step` bytes (one buffer, reused: copy what is kept). */
export function* slices(file: InputFile, from = 0, to = file.size, step = 1024 * 1024): Generator<Uint8Array> {
  const buf = new Uint8Array(step);
  for (let at = from; at < to; ) {
    const got = file.readAt(buf.subarray(0, Math.min(step, to - at)), at);
    if (got === 0) return;
    yield buf.subarray(0, got);
    at += got;
  }
}

/**
 * Decoded audio on its way to the pitch track: chunks of any channel count are mixed to mono and
 * handed to a TrackBuilder (created at the first chunk's rate); one sample rate; the clock checked
 * per chunk. `full` once MAX_SECONDS arrived: the reader stops, and `cut` says whether more came.
 */
export class TrackSink {
  private builder: TrackBuilder | null = null;
  private readonly deadline: number;
  cut = false;

  /** `maxSeconds` below the hour only for tests. */
  constructor(
    private readonly maxMs: number = INPUT_LIMITS.maxMs,
    readonly maxSeconds: number = INPUT_LIMITS.maxSeconds,
  ) {
    this.deadline = Date.now() + maxMs;
  }

  get full(): boolean {
    return this.builder?.full ?? false;
  }

  checkTime(): void {
    if (Date.now() > this.deadline) throw new InputError(`reading and decoding took more than ${this.maxMs / 1000} s`);
  }

  /** `n` samples of each plane (channel) at `rate`. The planes may be reused by their decoder afterwards. */
  add(planes: readonly Float32Array[], n: number, rate: number): void {
    this.checkTime();
    if (!n || !planes.length) return;
    const b = this.start(rate);
    const room = Math.floor(this.maxSeconds * rate) - b.samples;
    if (n > room) this.cut = true;
    if (room <= 0) return;
    b.push(mixToMono(planes, Math.min(n, room)));
  }

  /** Mono samples at `rate`, in an array the sink may keep. */
  addMono(pcm: Float32Array, rate: number): void {
    this.checkTime();
    if (!pcm.length) return;
    const b = this.start(rate);
    const room = Math.floor(this.maxSeconds * rate) - b.samples;
    if (pcm.length > room) this.cut = true;
    if (room <= 0) return;
    b.push(pcm.length > room ? pcm.subarray(0, room) : pcm);
  }

  finish(): PitchTrack {
    if (!this.builder?.samples) throw new InputError('no audio could be decoded');
    return this.builder.finish();
  }

  private start(rate: number): TrackBuilder {
    if (this.builder && rate !== this.builder.sampleRate) throw new InputError(`the sample rate changes (${this.builder.sampleRate} → ${rate} Hz)`);
    if (!this.builder) {
      if (!Number.isFinite(rate) || rate < 8000 || rate > 384000) throw new InputError(`sample rate ${rate} is not in 8000…384000`);
      this.builder = new TrackBuilder(rate, { maxSeconds: this.maxSeconds });
    }
    return this.builder;
  }
}

const tag = (b: Uint8Array, o: number) => String.fromCharCode(b[o] ?? 0, b[o + 1] ?? 0, b[o + 2] ?? 0, b[o + 3] ?? 0);

/**
 * A WAV read slice by slice into `sink` (the formats and bounds of contract/listening/wav.ts:
 * PCM 8/16/24/32, float 32/64, extensible, ≤ 64 chunks before the data, ≤ 32 channels). A data
 * chunk that claims more than the file holds is read up to the file's end; reading stops at 60
 * minutes.
 */
export function readWav(file: InputFile, sink: TrackSink): void {
  const head = new Uint8Array(12);
  if (file.readAt(head, 0) < 12 || tag(head, 0) !== 'RIFF' || tag(head, 8) !== 'WAVE') throw new InputError('not a RIFF/WAVE file');
  let fmt: { format: number; channels: number; rate: number; bits: number } | null = null;
  let data: { start: number; size: number } | null = null;
  const chunk = new Uint8Array(8);
  let p = 12;
  for (let n = 0; n < WAV_LIMITS.maxChunks && p + 8 <= file.size; n++) {
    file.readAt(chunk, p);
    const id = tag(chunk, 0);
    const size = new DataView(chunk.buffer).getUint32(4, true);
    const body = p + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > file.size) throw new InputError('fmt chunk is truncated');
      const f = new Uint8Array(Math.min(size, 40));
      file.readAt(f, body);
      const v = new DataView(f.buffer);
      let format = v.getUint16(0, true);
      if (format === 0xfffe && size >= 26 && body + 26 <= file.size) format = v.getUint16(24, true);
      fmt = { format, channels: v.getUint16(2, true), rate: v.getUint32(4, true), bits: v.getUint16(14, true) };
    } else if (id === 'data') {
      data = { start: body, size: Math.max(0, Math.min(size, file.size - body)) };
      break;
    }
    p = body + size + (size % 2);
  }
  if (!fmt) throw new InputError('no fmt chunk');
  if (!data) throw new InputError('no data chunk');
  const { format, channels, rate, bits } = fmt;
  if (channels < 1 || channels > WAV_LIMITS.maxChannels) throw new InputError(`${channels} channels`);
  if (rate < 8000 || rate > 384000) throw new InputError(`sample rate ${rate}`);
  const pcmInt = format === 1 && [8, 16, 24, 32].includes(bits);
  const pcmFloat = format === 3 && (bits === 32 || bits === 64);
  if (!pcmInt && !pcmFloat) throw new InputError(`unsupported WAV encoding (format ${format}, ${bits} bits)`);
  const bps = bits / 8;
  const frameBytes = bps * channels;
  const frames = Math.min(Math.floor(data.size / frameBytes), Math.floor(sink.maxSeconds * rate));
  if (Math.floor(data.size / frameBytes) > frames) sink.cut = true;
  // About 1 MiB a slice, whole frames.
  const step = Math.max(1, Math.floor((1024 * 1024) / frameBytes)) * frameBytes;
  const end = data.start + frames * frameBytes;
  for (const bytes of slices(file, data.start, end, step)) {
    const read = sampleReader(bytes, pcmFloat, bits);
    const n = Math.floor(bytes.length / frameBytes);
    const pcm = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      let acc = 0;
      const o = i * frameBytes;
      for (let c = 0; c < channels; c++) acc += read(o + c * bps);
      const v = acc / channels;
      pcm[i] = Number.isFinite(v) ? v : 0;
    }
    sink.addMono(pcm, rate);
  }
}

/**
 * A plain pitch track read line by line: one frequency per line (the last number of a line, so
 * 'time hz' works too), `#` comments and header lines before the first number skipped. Up to
 * `maxLines` lines; up to 60 minutes and 720,000 frames at `hopS` (then `cut`).
 */
export class PitchLines {
  private values = new Float64Array(1024);
  private count = 0;
  private lines = 0;
  private readonly maxFrames: number;
  cut = false;

  constructor(private readonly hopS: number) {
    this.maxFrames = Math.min(INPUT_LIMITS.maxFrames, Math.floor(INPUT_LIMITS.maxSeconds / hopS));
  }

  /** The length read before the track was cut, in seconds. */
  get seconds(): number {
    return this.maxFrames * this.hopS;
  }

  /** Whether 60 minutes of frames were read (what follows is cut). */
  get full(): boolean {
    return this.count >= this.maxFrames;
  }

  line(raw: string): void {
    if (this.lines >= INPUT_LIMITS.maxLines) throw new InputError(`more than ${INPUT_LIMITS.maxLines} lines`);
    this.lines++;
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    const parts = line.split(/[\s,;]+/);
    const v = Number(parts[parts.length - 1]);
    if (!Number.isFinite(v)) {
      if (this.count === 0) return; // a header
      throw new InputError(`line ${this.count + 1}: "${line.slice(0, 40)}" is not a frequency`);
    }
    if (this.full) {
      this.cut = true;
      return;
    }
    if (this.count === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.count++] = v;
  }

  track(): PitchTrack {
    return trackFromHz(this.values.subarray(0, this.count), this.hopS * 1000);
  }
}

/** The longest line of a pitch text (a number, a time and comments fit many times). */
export const MAX_LINE_CHARS = 4096;

/**
 * A pitch text file, read in slices (a line may span two), into `lines`; stops at the first number
 * after the frames it takes (`lines.cut`).
 */
export function readPitchText(file: InputFile, lines: PitchLines, clock: { checkTime(): void }): void {
  const decoder = new TextDecoder('utf-8');
  let rest = '';
  for (const bytes of slices(file)) {
    clock.checkTime();
    const text = rest + decoder.decode(bytes, { stream: true });
    let start = 0;
    for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
      lines.line(text.slice(start, end));
      start = end + 1;
      if (lines.cut) return;
    }
    rest = text.slice(start);
    if (rest.length > MAX_LINE_CHARS) throw new InputError(`a line of more than ${MAX_LINE_CHARS} characters`);
  }
  rest += decoder.decode();
  if (rest) lines.line(rest);
}
