import { open, type FileHandle } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import { parseFile } from 'music-metadata';
import type { RecordingKind, RecordingMimeType } from '../../../contract/recordings';

/**
 * What a recording's own bytes say: its type (audio or video, from the container and its
 * tracks) and, where the format tells, its length. Never the name or the declared type.
 */
export type Probe =
  | { ok: true; mime: RecordingMimeType; ext: string; kind: RecordingKind; durationMs: number | null }
  | { ok: false; detected: string | null };

type Family = 'wav' | 'mpeg' | 'ogg' | 'webm' | 'mp4' | 'mov';

/** file-type's names → the container family. */
const FAMILIES: Record<string, Family> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mpeg',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/x-vorbis+ogg': 'ogg',
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/mp4': 'mp4',
  'audio/x-m4a': 'mp4',
  'audio/m4a': 'mp4',
  'video/mp4': 'mp4',
  'video/x-m4v': 'mp4',
  'video/quicktime': 'mov',
};

const TYPES: Record<Family, { audio: [RecordingMimeType, string]; video: [RecordingMimeType, string] | null }> = {
  wav: { audio: ['audio/wav', 'wav'], video: null },
  mpeg: { audio: ['audio/mpeg', 'mp3'], video: null },
  ogg: { audio: ['audio/ogg', 'ogg'], video: null },
  webm: { audio: ['audio/webm', 'webm'], video: ['video/webm', 'webm'] },
  mp4: { audio: ['audio/mp4', 'm4a'], video: ['video/mp4', 'mp4'] },
  mov: { audio: ['audio/mp4', 'm4a'], video: ['video/quicktime', 'mov'] },
};

export async function probeRecording(file: string): Promise<Probe> {
  const ft = await fileTypeFromFile(file).catch(() => undefined);
  const detected = ft?.mime.split(';')[0]?.trim() ?? null; // 'audio/ogg; codecs=opus'
  const family = detected ? FAMILIES[detected] : undefined;
  if (!family) return { ok: false, detected };

  let hasVideo: boolean | undefined;
  let seconds: number | undefined;
  if (family === 'webm') {
    const m = await scanWebm(file).catch(() => null);
    if (!m) return { ok: false, detected };
    hasVideo = m.hasVideo;
    seconds = m.seconds ?? undefined;
  } else {
    try {
      const meta = await parseFile(file, { duration: true, skipCovers: true });
      hasVideo = meta.format.hasVideo;
      seconds = meta.format.duration;
    } catch {
      /* a quirk of the parser: the boxes below decide the kind, the recorder the length */
    }
    if ((family === 'mp4' || family === 'mov') && hasVideo === undefined) hasVideo = await mp4HasVideo(file).catch(() => false);
  }
  const type = hasVideo ? TYPES[family].video : TYPES[family].audio;
  if (!type) return { ok: false, detected: `video/${family}` };
  const durationMs = seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : null;
  return { ok: true, mime: type[0], ext: type[1], kind: hasVideo ? 'video' : 'audio', durationMs };
}

/** Reads a file front to back through a 64 KiB window (never the whole file in memory). */
class Reader {
  private buf = Buffer.alloc(0);
  private bufStart = 0;
  pos = 0;
  constructor(
    private readonly fh: FileHandle,
    readonly size: number,
  ) {}

  async bytes(n: number): Promise<Buffer | null> {
    if (this.pos + n > this.size) return null;
    if (this.pos < this.bufStart || this.pos + n > this.bufStart + this.buf.length) {
      const len = Math.min(Math.max(n, 64 * 1024), this.size - this.pos);
      const b = Buffer.alloc(len);
      const { bytesRead } = await this.fh.read(b, 0, len, this.pos);
      this.buf = b.subarray(0, bytesRead);
      this.bufStart = this.pos;
      if (bytesRead < n) return null;
    }
    const o = this.pos - this.bufStart;
    this.pos += n;
    return this.buf.subarray(o, o + n);
  }

  async byte(): Promise<number | null> {
    const b = await this.bytes(1);
    return b ? (b[0] ?? null) : null;
  }
}

async function withFile<T>(file: string, fn: (r: Reader) => Promise<T>): Promise<T> {
  const fh = await open(file, 'r');
  try {
    const { size } = await fh.stat();
    return await fn(new Reader(fh, size));
  } finally {
    await fh.close();
  }
}

/** An EBML variable-length integer; `keepMarker` for element ids. null at the end of the file; -1 for "unknown size". */
async function vint(r: Reader, keepMarker: boolean): Promise<number | null> {
  const first = await r.byte();
  if (first === null || first === 0) return null;
  let len = 1;
  while (len <= 8 && !(first & (0x80 >> (len - 1)))) len++;
  let value = keepMarker ? first : first & (0xff >> len);
  let allOnes = value === 0xff >> len;
  const rest = len > 1 ? await r.bytes(len - 1) : Buffer.alloc(0);
  if (!rest) return null;
  for (const b of rest) {
    value = value * 256 + b;
    if (b !== 0xff) allOnes = false;
  }
  if (!keepMarker && allOnes) return -1;
  return value;
}

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
/** Children of a Segment: where a Cluster of unknown size ends. */
const SEGMENT_CHILDREN = new Set([CLUSTER, INFO, TRACKS, 0x114d9b74, 0x1c53bb6b, 0x1941a469, 0x1043a770, 0x1254c367]);

function readUint(b: Buffer): number {
  let v = 0;
  for (const x of b) v = v * 256 + x;
  return v;
}

/**
 * A WebM's tracks and length, read from its elements as MediaRecorder writes them (Segment and
 * Clusters of unknown size, no Duration): the length is the last block's time, else Info's Duration.
 */
export async function scanWebm(file: string): Promise<{ hasVideo: boolean; seconds: number | null }> {
  return withFile(file, async (r) => {
    let scale = 1_000_000;
    let infoDuration: number | null = null;
    let hasVideo = false;
    let sawTrack = false;
    let clusterTime = 0;
    let lastTime: number | null = null;

    async function blockTime(size: number, end: number): Promise<void> {
      const start = r.pos;
      const track = await vint(r, false);
      const tc = await r.bytes(2);
      if (track !== null && tc) {
        const t = clusterTime + tc.readInt16BE(0);
        if (lastTime === null || t > lastTime) lastTime = t;
      }
      r.pos = Math.min(start + size, end);
    }

    /** Walks the elements from r.pos up to `end` (or, for unknown size, until a Segment child starts). */
    async function walk(end: number, inCluster: boolean, depth: number): Promise<void> {
      while (r.pos < end) {
        const at = r.pos;
        const id = await vint(r, true);
        if (id === null) return;
        if (inCluster && SEGMENT_CHILDREN.has(id)) {
          r.pos = at; // the unknown-size cluster ended here
          return;
        }
        const size = await vint(r, false);
        if (size === null) return;
        const bodyEnd = size === -1 ? end : Math.min(r.pos + size, end);
        if (size === -1 && id !== SEGMENT && id !== CLUSTER) return; // nothing else may be of unknown size
        if (id === SEGMENT || id === TRACKS || id === TRACK_ENTRY || id === INFO || id === BLOCK_GROUP) {
          if (depth < 6) await walk(bodyEnd, false, depth + 1);
          r.pos = bodyEnd;
        } else if (id === CLUSTER) {
          clusterTime = 0;
          await walk(bodyEnd, size === -1, depth + 1);
          if (size !== -1) r.pos = bodyEnd;
        } else if (id === TRACK_TYPE) {
          const b = await r.bytes(size);
          sawTrack = true;
          if (b && readUint(b) === 1) hasVideo = true;
        } else if (id === TIMECODE_SCALE && size <= 8) {
          const b = await r.bytes(size);
          if (b) scale = readUint(b) || 1_000_000;
        } else if (id === DURATION && (size === 4 || size === 8)) {
          const b = await r.bytes(size);
          if (b) infoDuration = size === 4 ? b.readFloatBE(0) : b.readDoubleBE(0);
        } else if (id === CLUSTER_TIMECODE && size <= 8) {
          const b = await r.bytes(size);
          if (b) clusterTime = readUint(b);
        } else if (id === SIMPLE_BLOCK || id === BLOCK) {
          await blockTime(size, bodyEnd);
        } else {
          r.pos = bodyEnd;
        }
      }
    }

    const header = await r.bytes(4);
    if (!header || header.readUInt32BE(0) !== 0x1a45dfa3) throw new Error('not EBML');
    r.pos = 0;
    await walk(r.size, false, 0);
    if (!sawTrack) throw new Error('no tracks');
    const ticks: number | null = lastTime !== null && lastTime > 0 ? lastTime : infoDuration;
    const seconds = ticks === null || !Number.isFinite(ticks) || ticks < 0 ? null : (ticks * scale) / 1e9;
    return { hasVideo, seconds };
  });
}

/** Whether an MP4/QuickTime file has a video track (a `vide` handler in moov/trak/mdia/hdlr). */
export async function mp4HasVideo(file: string): Promise<boolean> {
  return withFile(file, async (r) => {
    async function walk(end: number, path: string[]): Promise<boolean> {
      while (r.pos + 8 <= end) {
        const start = r.pos;
        const h = await r.bytes(8);
        if (!h) return false;
        let size = h.readUInt32BE(0);
        const type = h.toString('latin1', 4, 8);
        if (size === 1) {
          const big = await r.bytes(8);
          if (!big) return false;
          size = Number(big.readBigUInt64BE(0));
        } else if (size === 0) size = end - start;
        if (size < 8) return false;
        const boxEnd = Math.min(start + size, end);
        if (type === 'moov' || type === 'trak' || type === 'mdia') {
          if (await walk(boxEnd, [...path, type])) return true;
        } else if (type === 'hdlr' && path[path.length - 1] === 'mdia') {
          const b = await r.bytes(12);
          if (b && b.toString('latin1', 8, 12) === 'vide') return true;
        }
        r.pos = boxEnd;
      }
      return false;
    }
    return walk(r.size, []);
  });
}
