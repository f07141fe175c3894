import { describe, expect, it } from 'vitest';
import { contentDisposition, isMediaPath, parseRange, signMediaUrl, verifyMediaSignature } from './media.service';
import { isSafeRelativePath } from '../../lib/storage';
import { cleanFilename } from '../exercises/exercises.upload';

describe('parseRange', () => {
  it.each([
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-5', 100, { start: 95, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=50-1000', 100, { start: 50, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=9-3', 100, null],
    ['bytes=0-1,5-6', 100, null],
    ['items=0-1', 100, null],
    [undefined, 100, null],
  ] as const)('%s of %i bytes', (h, size, expected) => {
    expect(parseRange(h, size)).toEqual(expected);
  });
});

describe('paths', () => {
  it('accepts stored media paths only', () => {
    expect(isMediaPath(`exercises/12/media/${'a'.repeat(32)}.png`)).toBe(true);
    for (const p of ['../x', '/etc/passwd', 'exercises/12/media/../../x', 'exercises\\12', 'a\u0000b', 'exercises/12/media/%2e%2e', 'tmp/x.part', 'exercises//media/x.png']) {
      expect(isMediaPath(p), p).toBe(false);
    }
    expect(isSafeRelativePath('exercises/1/media/x.png')).toBe(true);
    expect(isSafeRelativePath('exercises/1/../x.png')).toBe(false);
  });
});

describe('signatures', () => {
  it('verifies its own links, refuses altered or expired ones', () => {
    const now = Date.now();
    const url = new URL(signMediaUrl('s'.repeat(40), 'exercises/1/media/a.png', now), 'http://x');
    const exp = Number(url.searchParams.get('exp'));
    const sig = url.searchParams.get('sig') ?? '';
    expect(verifyMediaSignature('s'.repeat(40), 'exercises/1/media/a.png', exp, sig, now)).toBe('ok');
    expect(verifyMediaSignature('t'.repeat(40), 'exercises/1/media/a.png', exp, sig, now)).toBe('bad-signature');
    expect(verifyMediaSignature('s'.repeat(40), 'exercises/1/media/b.png', exp, sig, now)).toBe('bad-signature');
    expect(verifyMediaSignature('s'.repeat(40), 'exercises/1/media/a.png', exp, sig, now + 3601 * 1000)).toBe('expired');
  });
});

describe('file names', () => {
  it('cleans names for display', () => {
    expect(cleanFilename('../../etc/passwd', 'png')).toBe('passwd');
    expect(cleanFilename('C:\\Users\\a\\Noten.pdf', 'pdf')).toBe('Noten.pdf');
    expect(cleanFilename('evil\u202egnp.exe', 'png')).toBe('evilgnp.exe');
    expect(cleanFilename('a\u0000b\nc.png', 'png')).toBe('abc.png');
    expect(cleanFilename('', 'pdf')).toBe('datei.pdf');
    expect(cleanFilename('...', 'pdf')).toBe('datei.pdf');
    const long = cleanFilename(`${'ü'.repeat(300)}.pdf`, 'pdf');
    expect([...long].length).toBe(200);
    expect(long.endsWith('.pdf')).toBe(true);
  });
  it('encodes Content-Disposition with an ASCII fallback', () => {
    expect(contentDisposition('attachment', 'Übung "1".pdf')).toBe(`attachment; filename="Ubung _1_.pdf"; filename*=UTF-8''%C3%9Cbung%20%221%22.pdf`);
  });
});

describe('sample files', () => {
  it('makes a PDF whose cross-reference table points at its objects, Turkish letters readable', async () => {
    const { makePdf } = await import('./sample-files');
    const pdf = makePdf('Rast-Beşli', ['Çargah, Dügah, ığ']).toString('latin1');
    expect(pdf.startsWith('%PDF-1.4')).toBe(true);
    expect(pdf).toContain('(Rast-Besli) Tj');
    expect(pdf).toContain('(\xc7argah, D\xfcgah, ig) Tj');
    const xref = Number(/startxref\n(\d+)/.exec(pdf)?.[1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...pdf.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((o, i) => expect(pdf.slice(o, o + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`));
  });
});
