/**
 * The first screen's reads that the warm-up script started while the app's script was on its way
 * (web/warm-up.js, web/app/first-screens.ts; docs/decisions/first-load-on-a-phone.md): `api()`
 * takes each over once, for the same address, token and language, within a few seconds of the
 * page's start. Anything else is fetched as ever.
 */
/**
 * Called when the app's script runs: a warm-up script that runs after it (a fast line, where the
 * app's script arrived first) starts nothing, the app asks for itself.
 */
export function markAppStarted(): void {
  (globalThis as { __appStarted?: boolean }).__appStarted = true;
}

type WarmRead = { token: string; lang: string; at: number; response: Promise<Response> };

/** Older than this (from the page's start), a read is not taken over: the answer may be stale. */
export const WARM_READ_MAX_AGE_MS = 10_000;

export function takeWarmRead(url: string, token: string | null, lang: string): Promise<Response> | null {
  const reads = (globalThis as { __warmReads?: Map<string, WarmRead> }).__warmReads;
  const read = reads?.get(url);
  if (!reads || !read) return null;
  reads.delete(url);
  if (read.token !== token || read.lang !== lang || performance.now() - read.at > WARM_READ_MAX_AGE_MS) return null;
  return read.response;
}
