/**
 * The address a notification may open (docs/decisions/web-push.md, "What the notification says"):
 * a path of the app itself. The payload's `url` is resolved against the app's origin the way the
 * browser will resolve it, and only a result on that same origin is kept, so `/\evil.example/`,
 * its tab and newline variants, `//evil`, `https://evil` and `javascript:` all open the start page.
 * What comes back is the resolved path, query and fragment (never the raw text), so nothing is
 * parsed a second time in a different way.
 */
export function appPath(url: unknown, origin: string): string {
  if (typeof url !== 'string' || !url.startsWith('/')) return '/';
  let resolved: URL;
  try {
    resolved = new URL(url, origin);
  } catch {
    return '/';
  }
  if (resolved.origin !== new URL(origin).origin) return '/';
  return `${resolved.pathname}${resolved.search}${resolved.hash}`;
}
