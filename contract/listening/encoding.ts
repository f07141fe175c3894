import { MAX_SECONDS, type PitchTrack } from './track';

/**
 * The stored form of a pitch track (docs/decisions/listening.md): bytes, then base64 for JSON.
 *
 *   "UKL1" | hop (uint16 LE, 0.1 ms) | frames (uint32 LE) | onsets (uint32 LE)
 *   | per frame: zigzag varint of the difference to the previous value, where a value is
 *     0 (unvoiced) or 1 + round(4 · cents above C0 = 16.3516 Hz) (quarter-cent resolution)
 *   | per onset: varint of the ms since the previous onset (the first: since 0)
 *
 * A held note costs one byte a frame: a 5-minute take at 20 ms is 15,000 frames, ~15–30 KB.
 * The decoder takes untrusted bytes: it bounds bytes, counts and time, and never throws.
 */

const MAGIC = [0x55, 0x4b, 0x4c, 0x31];
const C0 = 16.351597831287414;
const HEADER = 14;

export const DECODE_LIMITS = {
  maxBytes: 4 * 1024 * 1024,
  maxFrames: Math.ceil((MAX_SECONDS * 1000) / 5),
  maxOnsets: 500_000,
  maxMs: 500,
} as const;

function hzToCode(hz: number): number {
  if (!(hz > 0) || !Number.isFinite(hz)) return 0;
  const c = Math.round(4 * 1200 * Math.log2(hz / C0)) + 1;
  return Math.min(65535, Math.max(1, c));
}

const codeToHz = (c: number): number => (c === 0 ? 0 : C0 * 2 ** ((c - 1) / 4800));

class Writer {
  bytes = new Uint8Array(1024);
  n = 0;
  byte(b: number) {
    if (this.n === this.bytes.length) {
      const next = new Uint8Array(this.bytes.length * 2);
      next.set(this.bytes);
      this.bytes = next;
    }
    this.bytes[this.n++] = b;
  }
  varint(v: number) {
    let x = v;
    while (x >= 0x80) {
      this.byte((x & 0x7f) | 0x80);
      x = Math.floor(x / 128);
    }
    this.byte(x);
  }
  u16(v: number) {
    this.byte(v & 0xff);
    this.byte((v >>> 8) & 0xff);
  }
  u32(v: number) {
    this.u16(v & 0xffff);
    this.u16((v >>> 16) & 0xffff);
  }
}

/** The track as bytes. */
export function encodeTrack(track: PitchTrack): Uint8Array {
  const w = new Writer();
  for (const b of MAGIC) w.byte(b);
  w.u16(Math.max(1, Math.min(65535, Math.round(track.hopMs * 10))));
  w.u32(track.f0.length);
  w.u32(track.onsetsMs.length);
  let prev = 0;
  for (let i = 0; i < track.f0.length; i++) {
    const c = hzToCode(track.f0[i] as number);
    const d = c - prev;
    w.varint(d >= 0 ? d * 2 : -d * 2 - 1);
    prev = c;
  }
  let last = 0;
  for (const t of track.onsetsMs) {
    const ms = Math.max(last, Math.round(t));
    w.varint(ms - last);
    last = ms;
  }
  return w.bytes.slice(0, w.n);
}

export type DecodeResult = { ok: true; track: PitchTrack } | { ok: false; error: string };

/** Reads bytes from encodeTrack; any other input gives `{ ok: false, error }`, never an exception. */
export function decodeTrack(bytes: Uint8Array, limits: Partial<Record<keyof typeof DECODE_LIMITS, number>> = {}): DecodeResult {
  const L = { ...DECODE_LIMITS, ...limits };
  try {
    if (!(bytes instanceof Uint8Array)) return { ok: false, error: 'not bytes' };
    if (bytes.length > L.maxBytes) return { ok: false, error: `track is ${bytes.length} bytes, more than ${L.maxBytes}` };
    if (bytes.length < HEADER) return { ok: false, error: 'track is shorter than its header' };
    for (let i = 0; i < 4; i++) if (bytes[i] !== MAGIC[i]) return { ok: false, error: 'not a pitch track (bad magic)' };
    const u16 = (o: number) => (bytes[o] as number) | ((bytes[o + 1] as number) << 8);
    const u32 = (o: number) => u16(o) + u16(o + 2) * 65536;
    const hopMs = u16(4) / 10;
    const frames = u32(6);
    const onsets = u32(10);
    if (hopMs < 1) return { ok: false, error: `hop ${hopMs} ms is below 1 ms` };
    if (frames > L.maxFrames) return { ok: false, error: `${frames} frames, more than ${L.maxFrames}` };
    if (onsets > L.maxOnsets) return { ok: false, error: `${onsets} onsets, more than ${L.maxOnsets}` };
    if (frames * hopMs > MAX_SECONDS * 1000) return { ok: false, error: `track lasts more than ${MAX_SECONDS} s` };
    if (HEADER + frames + onsets > bytes.length) return { ok: false, error: 'track is truncated' };
    const started = performance.now();
    let p = HEADER;
    const readVarint = (maxBytes: number): number | null => {
      let v = 0;
      let mul = 1;
      for (let k = 0; k < maxBytes; k++) {
        if (p >= bytes.length) return null;
        const b = bytes[p++] as number;
        v += (b & 0x7f) * mul;
        if (b < 0x80) return v;
        mul *= 128;
      }
      return null;
    };
    const f0 = new Float32Array(frames);
    let prev = 0;
    for (let i = 0; i < frames; i++) {
      if ((i & 4095) === 4095 && performance.now() - started > L.maxMs) return { ok: false, error: `decoding took more than ${L.maxMs} ms` };
      const z = readVarint(3);
      if (z === null) return { ok: false, error: `frame ${i}: truncated or overlong number` };
      const c = prev + (z % 2 === 0 ? z / 2 : -(z + 1) / 2);
      if (c < 0 || c > 65535) return { ok: false, error: `frame ${i}: pitch out of range` };
      f0[i] = codeToHz(c);
      prev = c;
    }
    const onsetsMs: number[] = [];
    let t = 0;
    const endMs = frames * hopMs + 1000;
    for (let i = 0; i < onsets; i++) {
      if ((i & 4095) === 4095 && performance.now() - started > L.maxMs) return { ok: false, error: `decoding took more than ${L.maxMs} ms` };
      const d = readVarint(5);
      if (d === null) return { ok: false, error: `onset ${i}: truncated or overlong number` };
      t += d;
      if (t > Math.max(endMs, MAX_SECONDS * 1000)) return { ok: false, error: `onset ${i} lies after the end of the take` };
      onsetsMs.push(t);
    }
    if (p !== bytes.length) return { ok: false, error: `${bytes.length - p} bytes after the track` };
    return { ok: true, track: { hopMs, f0, onsetsMs } };
  } catch (e) {
    return { ok: false, error: `unreadable track: ${e instanceof Error ? e.message : String(e)}` };
  }
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const B64_INDEX = new Int16Array(128).fill(-1);
for (let i = 0; i < B64.length; i++) B64_INDEX[B64.charCodeAt(i)] = i;

export function toBase64(bytes: Uint8Array): string {
  let out = '';
  const chunk: string[] = [];
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number;
    const b = i + 1 < bytes.length ? (bytes[i + 1] as number) : 0;
    const c = i + 2 < bytes.length ? (bytes[i + 2] as number) : 0;
    chunk.push(
      (B64[a >> 2] as string) +
        (B64[((a & 3) << 4) | (b >> 4)] as string) +
        (i + 1 < bytes.length ? (B64[((b & 15) << 2) | (c >> 6)] as string) : '=') +
        (i + 2 < bytes.length ? (B64[c & 63] as string) : '='),
    );
    if (chunk.length === 4096) {
      out += chunk.join('');
      chunk.length = 0;
    }
  }
  return out + chunk.join('');
}

/** Base64 to bytes; null when it is not base64 or longer than `maxChars`. */
export function fromBase64(text: string, maxChars = Math.ceil((DECODE_LIMITS.maxBytes * 4) / 3) + 4): Uint8Array | null {
  if (typeof text !== 'string' || text.length > maxChars || text.length % 4 !== 0) return null;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((text.length / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const v: number[] = [];
    for (let k = 0; k < 4; k++) {
      const ch = text.charCodeAt(i + k);
      const last = i + 4 === text.length;
      if (ch === 61 && last && k >= 4 - pad) {
        v.push(0);
        continue;
      }
      const idx = ch < 128 ? (B64_INDEX[ch] as number) : -1;
      if (idx < 0) return null;
      v.push(idx);
    }
    const [a, b, c, d] = v as [number, number, number, number];
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    if (o < out.length) out[o++] = (n >> 16) & 255;
    if (o < out.length) out[o++] = (n >> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}
