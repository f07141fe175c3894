/**
 * The streaming-upload measurement of `npm run bench` (DESIGN.md: a 50 MiB upload grows the
 * server's RSS by ≤ 16 MB). The body is generated while it is sent – a multipart form whose file
 * part is a WAV (16-bit mono 44.1 kHz: 88,200 B/s) or a PNG followed by zero bytes – so neither
 * the bench nor the server ever holds it whole; the server's VmRSS is sampled meanwhile.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const CHUNK = 64 * 1024;

/** A 16-bit mono 44.1 kHz PCM WAV of exactly `bytes` bytes (a 440 Hz tone), in 64 KiB chunks. */
export function* wavChunks(bytes: number): Generator<Buffer> {
  const dataSize = Math.max(0, bytes - 44) & ~1;
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'ascii');
  h.writeUInt32LE(36 + dataSize, 4);
  h.write('WAVE', 8, 'ascii');
  h.write('fmt ', 12, 'ascii');
  h.writeUInt32LE(16, 16); // fmt chunk size
  h.writeUInt16LE(1, 20); // PCM
  h.writeUInt16LE(1, 22); // mono
  h.writeUInt32LE(44100, 24);
  h.writeUInt32LE(88200, 28); // byte rate
  h.writeUInt16LE(2, 32); // block align
  h.writeUInt16LE(16, 34); // bits per sample
  h.write('data', 36, 'ascii');
  h.writeUInt32LE(dataSize, 40);
  yield h;
  const tone = Buffer.alloc(CHUNK);
  for (let i = 0; i < CHUNK / 2; i++) tone.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / 44100)), i * 2);
  for (let left = dataSize; left > 0; left -= CHUNK) yield left >= CHUNK ? tone : tone.subarray(0, left);
}

/** `head` followed by zero bytes up to `bytes` (a picture with trailing padding, as the exercise tests send). */
export function* paddedChunks(head: Buffer, bytes: number): Generator<Buffer> {
  yield head;
  const zeros = Buffer.alloc(CHUNK);
  for (let left = bytes - head.length; left > 0; left -= CHUNK) yield left >= CHUNK ? zeros : zeros.subarray(0, left);
}

export type FormPart =
  | { name: string; value: string }
  | { name: string; filename: string; contentType: string; size: number; chunks: () => Iterable<Buffer> };

/** POSTs a multipart form generated while it is sent (Content-Length known up front). */
export async function postForm(url: string, headers: Record<string, string>, parts: FormPart[]): Promise<{ status: number; body: string; ms: number; bytes: number }> {
  const boundary = `----ukbench${randomBytes(12).toString('hex')}`;
  const heads = parts.map((p) =>
    Buffer.from(
      'value' in p
        ? `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`
        : `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.contentType}\r\n\r\n`,
    ),
  );
  const tail = Buffer.from(`--${boundary}--\r\n`);
  const length = heads.reduce((a, h, i) => {
    const p = parts[i]!;
    return a + h.length + ('value' in p ? 0 : p.size + 2);
  }, tail.length);
  function* body(): Generator<Buffer> {
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      yield heads[i]!;
      if ('value' in p) continue;
      let sent = 0;
      for (const c of p.chunks()) {
        sent += c.length;
        yield c;
      }
      if (sent !== p.size) throw new Error(`part ${p.name}: ${sent} bytes generated, ${p.size} announced`);
      yield Buffer.from('\r\n');
    }
    yield tail;
  }
  const u = new URL(url);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      { host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, method: 'POST', headers: { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(length) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, ms: Math.round(performance.now() - t0), bytes: length }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // An early answer (a refusal) may end the socket before the body is through: the answer counts.
    pipeline(Readable.from(body(), { objectMode: false }), req).catch(() => {});
  });
}

/** VmRSS of a process in MiB, or 0 when it is gone. */
export function vmRss(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m?.[1] ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export type UploadRss = {
  name: string;
  label: string;
  request: string;
  file_bytes: number;
  status: number;
  ms: number;
  /** Median VmRSS over the 0.5 s before the upload. */
  rss_base_mb: number;
  /** Highest VmRSS from the first byte sent until 0.3 s after the answer. */
  rss_peak_mb: number;
  growth_mb: number;
  samples: number;
  sample_ms: number;
  /** Every run's growth in MB (the figure above is the run with the largest). */
  runs_growth_mb?: number[];
  note?: string;
};

const r1 = (v: number) => Math.round(v * 10) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One upload with the server's VmRSS sampled every `everyMs` (before, during and just after it). */
export async function measureUploadRss(
  pid: number,
  o: { name: string; label: string; request: string; fileBytes: number; everyMs?: number },
  send: () => Promise<{ status: number; body: string; ms: number }>,
): Promise<UploadRss & { body: string }> {
  const every = o.everyMs ?? 25;
  const before: number[] = [];
  for (let i = 0; i < Math.round(500 / every); i++) {
    before.push(vmRss(pid));
    await sleep(every);
  }
  const sorted = [...before].sort((a, b) => a - b);
  const base = sorted[Math.floor(sorted.length / 2)] ?? 0;
  let peak = base;
  let samples = 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, vmRss(pid));
    samples++;
  }, every);
  let res: { status: number; body: string; ms: number };
  try {
    res = await send();
    const t = performance.now();
    while (performance.now() - t < 300) {
      peak = Math.max(peak, vmRss(pid));
      samples++;
      await sleep(every);
    }
  } finally {
    clearInterval(timer);
  }
  return {
    name: o.name,
    label: o.label,
    request: o.request,
    file_bytes: o.fileBytes,
    status: res.status,
    ms: res.ms,
    rss_base_mb: r1(base),
    rss_peak_mb: r1(peak),
    growth_mb: r1(peak - base),
    samples,
    sample_ms: every,
    body: res.body,
  };
}
