import { deflateSync } from 'node:zlib';

/**
 * Small real media files made in code: the demo school's attachments and test fixtures.
 * A minimal PNG encoder (8-bit RGB, one IDAT) and a one-page PDF with correct xref offsets.
 */

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const b of buf) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

export type Rgb = [number, number, number];

/** A PNG of width×height whose pixel colours come from `pixel(x, y)`. */
export function makePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let o = 0;
  for (let y = 0; y < height; y++) {
    raw[o++] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[o++] = r;
      raw[o++] = g;
      raw[o++] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A five-line staff with a few note heads: a tiny music-sheet picture. */
export function staffPng(width = 480, height = 200, notes: number[] = [4, 6, 5, 3, 7, 8, 6, 4]): Buffer {
  const paper: Rgb = [250, 248, 240];
  const ink: Rgb = [30, 41, 59];
  const top = Math.round(height * 0.3);
  const gap = Math.round(height * 0.08);
  const lines = [0, 1, 2, 3, 4].map((i) => top + i * gap);
  const heads = notes.map((step, i) => ({
    x: Math.round(((i + 1) * width) / (notes.length + 1)),
    y: Math.round(top + 4 * gap - (step * gap) / 2),
  }));
  const rx = Math.max(3, Math.round(gap * 0.7));
  const ry = Math.max(2, Math.round(gap * 0.5));
  return makePng(width, height, (x, y) => {
    if (x >= 20 && x < width - 20 && lines.some((ly) => y === ly)) return ink;
    for (const h of heads) {
      const dx = (x - h.x) / rx;
      const dy = (y - h.y) / ry;
      if (dx * dx + dy * dy <= 1) return ink;
      if (x === h.x + rx - 1 && y <= h.y && y >= h.y - gap * 3) return ink; // stem
    }
    return paper;
  });
}

/** A valid one-page PDF (A4) showing the given lines in Helvetica. */
export function makePdf(title: string, lines: string[] = []): Buffer {
  // WinAnsi covers German umlauts; Turkish ş, ğ, ı lose their marks (s, g, i); anything else becomes '?'.
  const toLatin1 = (c: string) => {
    if (c.charCodeAt(0) <= 0xff) return c;
    if (c === 'ı') return 'i';
    const base = c.normalize('NFKD').replace(/[\u0300-\u036f]/g, '');
    return base.length === 1 && base.charCodeAt(0) <= 0xff ? base : '?';
  };
  const esc = (s: string) =>
    [...s]
      .map(toLatin1)
      .join('')
      .replace(/[\\()]/g, (c) => `\\${c}`)
      .replace(/[^\x20-\xff]/g, '?');
  const content = [
    'BT',
    '/F1 20 Tf',
    '56 770 Td',
    `(${esc(title)}) Tj`,
    '/F1 12 Tf',
    ...lines.flatMap((l) => ['0 -24 Td', `(${esc(l)}) Tj`]),
    'ET',
  ].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
