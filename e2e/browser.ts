/**
 * The browser of the browser tests: Debian's Chromium, never one that Playwright downloads. CI runs
 * them in Debian's `chromium-headless-shell` (E2E_CHROMIUM in .ci/run): the same Blink and V8 without
 * the full browser's window machinery (docs/decisions/bench-results.md, "CI's time").
 */
export const CHROMIUM = process.env.E2E_CHROMIUM ?? '/usr/bin/chromium';

/**
 * The full browser, whatever E2E_CHROMIUM says: the headless shell has no push messaging, and a
 * phone that installs the app, works offline and is woken by a push is a whole browser
 * (`persistentPhone` in e2e/fixtures.ts).
 */
export const FULL_CHROMIUM = '/usr/bin/chromium';

/** The switches every launch shares: no sandbox (root in a container), no GPU, nothing phoning home. */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
