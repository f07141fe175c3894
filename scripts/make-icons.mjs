// Renders the app icons (web/public/icons/*.png) from the favicon's glyph with Debian's Chromium.
// Run once after changing the glyph: node scripts/make-icons.mjs. The PNGs are committed.
import { chromium } from 'playwright';
import { fileURLToPath } from 'node:url';

const out = (name) => fileURLToPath(new URL(`../web/public/icons/${name}`, import.meta.url));
const glyph = 'M13 22.5a3.5 3.5 0 1 1-2-3.16V8.5l11-2.5v13a3.5 3.5 0 1 1-2-3.16V9.6l-7 1.6z';
// "any": rounded square as the favicon; "maskable": full bleed, the glyph inside the 80 % safe zone.
const svg = (size, maskable) =>
  maskable
    ? `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32"><rect width="32" height="32" fill="#4338ca"/><g transform="translate(16 16) scale(0.62) translate(-14.75 -16)"><path d="${glyph}" fill="#fff"/></g></svg>`
    : `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4338ca"/><path d="${glyph}" fill="#fff"/></svg>`;

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage();
for (const [name, size, maskable] of [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['maskable-512.png', 512, true],
  ['apple-touch-icon-180.png', 180, true],
]) {
  await page.setViewportSize({ width: size, height: size });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg(size, maskable)}</body></html>`);
  await page.locator('svg').screenshot({ path: out(name), omitBackground: true });
}
await browser.close();
