import { describe, expect, it } from 'vitest';
import { mediaApiPath } from './media-address';
import { downloadUrl, extensionOf, videoSourceTypes, videoTypeFor } from './media-address';

describe('media address rule (SPEC.md section 7, contract/media.ts)', () => {
  it('keeps a path that starts with exercises/, url-encoded into one segment', () => {
    expect(mediaApiPath('exercises/7/media/a b.png', 3)).toBe('/api/media/exercises%2F7%2Fmedia%2Fa%20b.png');
  });
  it('prefixes exercises/{exerciseId}/media/ when missing, with 1 as the fallback id', () => {
    expect(mediaApiPath('ab12.png', 3)).toBe('/api/media/exercises%2F3%2Fmedia%2Fab12.png');
    expect(mediaApiPath('x?.pdf', null)).toBe('/api/media/exercises%2F1%2Fmedia%2Fx%3F.pdf');
  });
});

describe('video types by extension (SPEC.md section 9)', () => {
  it.each([
    ['a.mp4', 'video/mp4'],
    ['a.M4V', 'video/mp4'],
    ['a.avi', 'video/x-msvideo'],
    ['a.mov', 'video/quicktime'],
    ['a.wmv', 'video/x-ms-wmv'],
    ['a.flv', 'video/x-flv'],
    ['a.webm', 'video/webm'],
    ['a.mkv', 'video/x-matroska'],
    ['noextension', 'video/mp4'],
    ['a.weird', 'video/mp4'],
  ])('%s → %s', (name, type) => expect(videoTypeFor(name)).toBe(type));

  it('reads the extension of the last path segment only', () => {
    expect(extensionOf('exercises/1.5/media/file')).toBe('');
    expect(extensionOf('x/y.Webm?sig=1')).toBe('webm');
    expect(extensionOf('.hidden')).toBe('');
  });

  it('offers the sniffed type first, then the name-based ones, without duplicates', () => {
    expect(videoSourceTypes({ filename: 'Etüde.mov', path: 'exercises/1/media/abc.mov', mime_type: 'video/quicktime' })).toEqual(['video/quicktime']);
    expect(videoSourceTypes({ filename: 'clip.mkv', path: 'exercises/1/media/abc', mime_type: 'video/webm' })).toEqual([
      'video/webm',
      'video/x-matroska',
      'video/mp4',
    ]);
  });
});

describe('downloadUrl', () => {
  it('adds download=1 to absolute and relative signed links', () => {
    expect(downloadUrl('https://x.test/media/abc?exp=1&sig=2')).toBe('https://x.test/media/abc?exp=1&sig=2&download=1');
    expect(downloadUrl('/api/media-files/abc?exp=1&sig=2')).toBe('/api/media-files/abc?exp=1&sig=2&download=1');
  });
});
