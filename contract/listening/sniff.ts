/**
 * What a take's bytes are, from their first bytes (never from the file name): the CLI's decoders
 * and the browser's analysis Worker choose their way with it (docs/decisions/listening.md).
 */
export type AudioFormat = 'wav' | 'mp3' | 'ogg-opus' | 'ogg-vorbis' | 'webm' | 'flac' | 'mp4' | null;

export function sniffAudio(b: Uint8Array): AudioFormat {
  const ascii = (at: number, s: string) => s.split('').every((c, i) => b[at + i] === c.charCodeAt(0));
  if (ascii(0, 'RIFF') && ascii(8, 'WAVE')) return 'wav';
  if (ascii(0, 'OggS')) {
    const head = String.fromCharCode(...b.subarray(0, 512));
    if (head.includes('OpusHead')) return 'ogg-opus';
    if (head.includes('\u0001vorbis')) return 'ogg-vorbis';
    return null;
  }
  if (b[0] === 0x1a && b[1] === 0x45 && b[2] === 0xdf && b[3] === 0xa3) return 'webm';
  if (ascii(0, 'fLaC')) return 'flac';
  if (ascii(4, 'ftyp')) return 'mp4';
  if (ascii(0, 'ID3')) return 'mp3';
  if (b[0] === 0xff && ((b[1] ?? 0) & 0xe0) === 0xe0 && ((b[1] ?? 0) & 0x06) !== 0) return 'mp3';
  return null;
}
