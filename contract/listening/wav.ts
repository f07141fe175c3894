/**
 * A bounded WAV (RIFF/RF64-less) reader for the listening CLI and tests (docs/decisions/listening.md):
 * PCM 8/16/24/32-bit and IEEE float 32/64, WAVE_FORMAT_EXTENSIBLE, any channel count (mixed to mono).
 * Untrusted bytes: at most MAX_CHUNKS chunks are walked, sizes are checked against the buffer, and
 * every failure is a `{ ok: false, error }`, never an exception.
 */

export const WAV_LIMITS = { maxBytes: 1024 * 1024 * 1024, maxChunks: 64, maxChannels: 32, maxSeconds: 60 * 60 } as const;

export type WavResult = { ok: true; pcm: Float32Array; sampleRate: number; channels: number } | { ok: false; error: string };

const tag = (b: Uint8Array, o: number) => String.fromCharCode(b[o] as number, b[o + 1] as number, b[o + 2] as number, b[o + 3] as number);

export function decodeWav(bytes: Uint8Array, limits: Partial<typeof WAV_LIMITS> = {}): WavResult {
  const L = { ...WAV_LIMITS, ...limits };
  try {
    if (bytes.length > L.maxBytes) return { ok: false, error: `file is ${bytes.length} bytes, more than ${L.maxBytes}` };
    if (bytes.length < 12 || tag(bytes, 0) !== 'RIFF' || tag(bytes, 8) !== 'WAVE') return { ok: false, error: 'not a RIFF/WAVE file' };
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let p = 12;
    let fmt: { format: number; channels: number; rate: number; bits: number } | null = null;
    let data: { start: number; size: number } | null = null;
    for (let n = 0; n < L.maxChunks && p + 8 <= bytes.length; n++) {
      const id = tag(bytes, p);
      const size = view.getUint32(p + 4, true);
      const body = p + 8;
      if (id === 'fmt ') {
        if (size < 16 || body + 16 > bytes.length) return { ok: false, error: 'fmt chunk is truncated' };
        let format = view.getUint16(body, true);
        const channels = view.getUint16(body + 2, true);
        const rate = view.getUint32(body + 4, true);
        const bits = view.getUint16(body + 14, true);
        if (format === 0xfffe && size >= 26 && body + 26 <= bytes.length) format = view.getUint16(body + 24, true);
        fmt = { format, channels, rate, bits };
      } else if (id === 'data') {
        data = { start: body, size: Math.min(size, bytes.length - body) };
        break;
      }
      p = body + size + (size % 2);
    }
    if (!fmt) return { ok: false, error: 'no fmt chunk' };
    if (!data) return { ok: false, error: 'no data chunk' };
    const { format, channels, rate, bits } = fmt;
    if (channels < 1 || channels > L.maxChannels) return { ok: false, error: `${channels} channels` };
    if (rate < 8000 || rate > 384000) return { ok: false, error: `sample rate ${rate}` };
    const pcmInt = format === 1 && [8, 16, 24, 32].includes(bits);
    const pcmFloat = format === 3 && (bits === 32 || bits === 64);
    if (!pcmInt && !pcmFloat) return { ok: false, error: `unsupported WAV encoding (format ${format}, ${bits} bits)` };
    const bps = bits / 8;
    const frameBytes = bps * channels;
    let frames = Math.floor(data.size / frameBytes);
    if (frames / rate > L.maxSeconds) frames = Math.floor(L.maxSeconds * rate);
    const pcm = new Float32Array(frames);
    const read = sampleReader(bytes, pcmFloat, bits);
    for (let i = 0; i < frames; i++) {
      let acc = 0;
      const o = data.start + i * frameBytes;
      for (let c = 0; c < channels; c++) acc += read(o + c * bps);
      const v = acc / channels;
      pcm[i] = Number.isFinite(v) ? v : 0;
    }
    return { ok: true, pcm, sampleRate: rate, channels };
  } catch (e) {
    return { ok: false, error: `unreadable WAV: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** How one sample at byte offset `o` of `bytes` reads as −1…1 (PCM 8/16/24/32 bits, float 32/64). */
export function sampleReader(bytes: Uint8Array, float: boolean, bits: number): (o: number) => number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return (o) => {
    if (float) return bits === 32 ? view.getFloat32(o, true) : view.getFloat64(o, true);
    if (bits === 8) return ((bytes[o] as number) - 128) / 128;
    if (bits === 16) return view.getInt16(o, true) / 32768;
    if (bits === 24) {
      const v = (bytes[o] as number) | ((bytes[o + 1] as number) << 8) | ((bytes[o + 2] as number) << 16);
      return ((v << 8) >> 8) / 8388608;
    }
    return view.getInt32(o, true) / 2147483648;
  };
}

/** A 16-bit mono WAV of `pcm` (tests, fixtures). */
export function encodeWav16(pcm: Float32Array, sampleRate: number): Uint8Array {
  const out = new Uint8Array(44 + pcm.length * 2);
  const v = new DataView(out.buffer);
  const str = (o: number, s: string) => {
    for (let i = 0; i < 4; i++) out[o + i] = s.charCodeAt(i);
  };
  str(0, 'RIFF');
  v.setUint32(4, 36 + pcm.length * 2, true);
  str(8, 'WAVE');
  str(12, 'fmt ');
  v.setUint32(16, 16, true);
  v.setUint16(20, 1, true);
  v.setUint16(22, 1, true);
  v.setUint32(24, sampleRate, true);
  v.setUint32(28, sampleRate * 2, true);
  v.setUint16(32, 2, true);
  v.setUint16(34, 16, true);
  str(36, 'data');
  v.setUint32(40, pcm.length * 2, true);
  for (let i = 0; i < pcm.length; i++) v.setInt16(44 + i * 2, Math.max(-32768, Math.min(32767, Math.round((pcm[i] as number) * 32767))), true);
  return out;
}
