/**
 * Small real recordings made in code, for tests (no ffmpeg or sox needed): a PCM WAV, MPEG-1
 * Layer III frames, an Ogg Opus stream with correct page checksums, WebM (Matroska) files as a
 * browser's MediaRecorder writes them (audio or video track, with or without a Duration), and an
 * MP4 skeleton (ftyp + moov with a sound or video handler).
 */

/** A mono 16-bit PCM WAV of `ms` milliseconds (a quiet 440 Hz tone). */
export function makeWav(ms: number, sampleRate = 8000): Buffer {
  const samples = Math.round((sampleRate * ms) / 1000);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(Math.round(3000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(sampleRate, 24);
  h.writeUInt32LE(sampleRate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, mono: silent frames of 1152 samples (~26.1 ms) each. */
export function makeMp3(ms: number): Buffer {
  const frames = Math.max(1, Math.round((ms / 1000) * (44100 / 1152)));
  const frameLength = Math.floor((144 * 128000) / 44100); // 417 bytes without padding
  const frame = Buffer.alloc(frameLength);
  frame.writeUInt32BE(0xfffb90c4, 0); // sync, MPEG-1, Layer III, no CRC, 128 kbit/s, 44.1 kHz, no padding, mono
  return Buffer.concat(Array.from({ length: frames }, () => frame));
}

const OGG_CRC = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    t[i] = r >>> 0;
  }
  return t;
})();

function oggCrc(buf: Buffer): number {
  let crc = 0;
  for (const b of buf) crc = ((crc << 8) ^ (OGG_CRC[((crc >>> 24) ^ b) & 0xff] ?? 0)) >>> 0;
  return crc >>> 0;
}

function oggPage(packet: Buffer, seq: number, granule: bigint, flags: number): Buffer {
  const segments: number[] = [];
  let left = packet.length;
  while (left >= 255) {
    segments.push(255);
    left -= 255;
  }
  segments.push(left);
  const header = Buffer.alloc(27 + segments.length);
  header.write('OggS', 0, 'ascii');
  header[4] = 0;
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(0x5155, 14); // stream serial
  header.writeUInt32LE(seq, 18);
  header.writeUInt32LE(0, 22);
  header[26] = segments.length;
  segments.forEach((s, i) => (header[27 + i] = s));
  const page = Buffer.concat([header, packet]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

/** An Ogg Opus stream of `ms` milliseconds (the length is the last page's granule position). */
export function makeOggOpus(ms: number): Buffer {
  const preSkip = 312;
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'ascii');
  head[8] = 1;
  head[9] = 1; // mono
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(48000, 12);
  const vendor = Buffer.from('uk-test', 'ascii');
  const tags = Buffer.alloc(8 + 4 + vendor.length + 4);
  tags.write('OpusTags', 0, 'ascii');
  tags.writeUInt32LE(vendor.length, 8);
  vendor.copy(tags, 12);
  const pages = [oggPage(head, 0, 0n, 0x02), oggPage(tags, 1, 0n, 0)];
  // 20 ms packets (TOC 0x08: SILK NB 20 ms, one frame) of 40 bytes (16 kbit/s, as low as a
  // recorder goes: the server believes no length its size cannot carry), 50 per page
  const packets = Math.max(1, Math.round(ms / 20));
  const packet = Buffer.concat([Buffer.from([0x08]), Buffer.alloc(39, 0xfe)]);
  let seq = 2;
  for (let done = 0; done < packets; ) {
    const n = Math.min(50, packets - done);
    done += n;
    const last = done === packets;
    // one page may carry several packets: lacing values of 40 bytes each
    const body = Buffer.concat(Array.from({ length: n }, () => packet));
    const header = Buffer.alloc(27 + n);
    header.write('OggS', 0, 'ascii');
    header[5] = last ? 0x04 : 0;
    header.writeBigInt64LE(BigInt(done * 960 + preSkip), 6);
    header.writeUInt32LE(0x5155, 14);
    header.writeUInt32LE(seq++, 18);
    header[26] = n;
    for (let i = 0; i < n; i++) header[27 + i] = packet.length;
    const page = Buffer.concat([header, body]);
    page.writeUInt32LE(oggCrc(page), 22);
    pages.push(page);
  }
  return Buffer.concat(pages);
}

// --- EBML (WebM) ---------------------------------------------------------------------------

function ebmlId(id: number): Buffer {
  const bytes: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from(bytes);
}

function ebmlSize(n: number): Buffer {
  // 8-byte size: 0x01 marker then 7 bytes
  const b = Buffer.alloc(8);
  b[0] = 0x01;
  let v = n;
  for (let i = 7; i >= 1; i--) {
    b[i] = v & 0xff;
    v = Math.floor(v / 256);
  }
  return b;
}

const UNKNOWN_SIZE = Buffer.from([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);

function el(id: number, ...children: Buffer[]): Buffer {
  const body = Buffer.concat(children);
  return Buffer.concat([ebmlId(id), ebmlSize(body.length), body]);
}
function uint(id: number, v: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v);
  return el(id, b);
}
function float(id: number, v: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeDoubleBE(v);
  return el(id, b);
}
function str(id: number, s: string): Buffer {
  return el(id, Buffer.from(s, 'ascii'));
}

/**
 * A WebM file like MediaRecorder's: the Segment and Cluster of unknown size, no Duration unless
 * `durationMs` is given, one audio (Opus) or video (VP8) track, blocks every 100 ms up to
 * `lengthMs` (one block at 0 without it), each with `padding` bytes of data.
 */
export function makeWebm(o: { video?: boolean; durationMs?: number; lengthMs?: number; padding?: number } = {}): Buffer {
  const header = el(0x1a45dfa3, uint(0x4286, 1), uint(0x42f7, 1), uint(0x42f2, 4), uint(0x42f3, 8), str(0x4282, 'webm'), uint(0x4287, 4), uint(0x4285, 2));
  const info = el(0x1549a966, uint(0x2ad7b1, 1_000_000), str(0x4d80, 'uk-test'), str(0x5741, 'uk-test'), ...(o.durationMs !== undefined ? [float(0x4489, o.durationMs)] : []));
  const audioTrack = el(0xae, uint(0xd7, 1), uint(0x73c5, 1), uint(0x83, 2), str(0x86, 'A_OPUS'), el(0xe1, float(0xb5, 48000), uint(0x9f, 1)));
  const videoTrack = el(0xae, uint(0xd7, 2), uint(0x73c5, 2), uint(0x83, 1), str(0x86, 'V_VP8'), el(0xe0, uint(0xb0, 64), uint(0xba, 48)));
  const tracks = el(0x1654ae6b, ...(o.video ? [audioTrack, videoTrack] : [audioTrack]));
  const block = (rel: number) => {
    const b = Buffer.concat([Buffer.from([0x81, 0x00, 0x00, 0x80]), Buffer.alloc(Math.max(16, o.padding ?? 64), 0x11)]);
    b.writeInt16BE(rel, 1);
    return el(0xa3, b);
  };
  // clusters of unknown size, one per second, a block every 100 ms up to lengthMs
  const clusters: Buffer[] = [];
  const length = o.lengthMs ?? 0;
  for (let c = 0; c === 0 || c <= length; c += 1000) {
    const blocks: Buffer[] = [];
    for (let t = c; t < Math.min(c + 1000, length + 1) || t === c; t += 100) blocks.push(block(t - c));
    clusters.push(Buffer.concat([ebmlId(0x1f43b675), UNKNOWN_SIZE, uint(0xe7, c), ...blocks]));
  }
  return Buffer.concat([header, ebmlId(0x18538067), UNKNOWN_SIZE, info, tracks, ...clusters]);
}

// --- MP4 ------------------------------------------------------------------------------------

function box(type: string, ...children: Buffer[]): Buffer {
  const body = Buffer.concat(children);
  const h = Buffer.alloc(8);
  h.writeUInt32BE(8 + body.length);
  h.write(type, 4, 'ascii');
  return Buffer.concat([h, body]);
}

/** An MP4 skeleton: ftyp, moov (mvhd, one trak with a sound or video handler), mdat of `padding` bytes. */
export function makeMp4(o: { video?: boolean; padding?: number; brand?: string } = {}): Buffer {
  const brand = o.brand ?? (o.video ? 'isom' : 'M4A ');
  const ftyp = box('ftyp', Buffer.from(brand, 'ascii'), Buffer.from([0, 0, 2, 0]), Buffer.from(`${brand}isommp41`, 'ascii'));
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale
  mvhd.writeUInt32BE(0, 16); // duration unknown
  mvhd.writeUInt32BE(0x00010000, 20);
  mvhd.writeUInt16BE(0x0100, 24);
  mvhd.writeUInt32BE(2, 96);
  const tkhd = Buffer.alloc(84);
  tkhd.writeUInt32BE(0x00000003, 0);
  tkhd.writeUInt32BE(1, 12);
  const mdhd = Buffer.alloc(24);
  mdhd.writeUInt32BE(48000, 12);
  const hdlr = Buffer.concat([Buffer.alloc(8), Buffer.from(o.video ? 'vide' : 'soun', 'ascii'), Buffer.alloc(12), Buffer.from('uk\0', 'ascii')]);
  const trak = box('trak', box('tkhd', tkhd), box('mdia', box('mdhd', mdhd), box('hdlr', hdlr)));
  return Buffer.concat([ftyp, box('moov', box('mvhd', mvhd), trak), box('mdat', Buffer.alloc(o.padding ?? 256, 0x22))]);
}
