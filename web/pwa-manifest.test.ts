import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { manifestFor } from './pwa-manifest';

describe('the web app manifests (docs/decisions/offline-practice.md)', () => {
  it('the Turkish file is the Turkish manifest (regenerate it from pwa-manifest.ts when this fails)', () => {
    const file = JSON.parse(readFileSync(new URL('./public/manifest.tr.webmanifest', import.meta.url), 'utf8')) as unknown;
    expect(file).toEqual(manifestFor('tr'));
  });

  it('both are installable: standalone, a start inside the scope, 192 and 512 px icons and a maskable one that exist', () => {
    for (const lang of ['de', 'tr'] as const) {
      const m = manifestFor(lang);
      expect(m.display).toBe('standalone');
      expect(m.start_url.startsWith(m.scope)).toBe(true);
      expect(m.lang).toBe(lang);
      const sizes = m.icons.filter((i) => i.type === 'image/png').map((i) => `${i.sizes}:${i.purpose}`);
      expect(sizes).toEqual(expect.arrayContaining(['192x192:any', '512x512:any', '512x512:maskable']));
      for (const icon of m.icons) expect(() => readFileSync(new URL(`./public${icon.src}`, import.meta.url))).not.toThrow();
    }
    expect(manifestFor('de').short_name).not.toBe(manifestFor('tr').short_name);
  });
});
