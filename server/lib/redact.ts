/**
 * The one place that knows which parts of a URL are bearer secrets (whoever has them may act), so
 * that the request log never holds one (docs/decisions/0002-tokens-and-passwords.md, "Secrets in
 * URLs"). Each is replaced by `[redacted]`, the rest of the URL stays readable:
 * - `/calendar/{secret}.ics`: a private calendar address (reading someone's tasks);
 * - `/api/invites/{token}` and `/api/invites/{token}/accept`: an invitation (becoming a teacher or a parent);
 * - `/einladung/{token}`: the web page of that invitation (served by the server as index.html);
 * - `/api/password-reset/{token}` and its page `/passwort-neu/{token}`: a "Passwort vergessen?" link (setting someone's password);
 * - `/api/unsubscribe/{token}` and its page `/abmelden/{token}`: a reminder mail's unsubscribe link;
 * - the query parameters `sig`, `signature`, `token`, `exp`, `secret`, `key`: media signatures and the like.
 *
 * A route that takes a secret in its path or query must be added here; server/lib/redact.test.ts
 * fails for a public route with a path parameter that this does not cover.
 */

export const REDACTED = '[redacted]';

/** A path segment that follows one of these is a secret (case-insensitive, repeated slashes allowed: the log shows what was sent). */
const SECRET_PATH = /(\/(?:api\/+invites|api\/+password-reset|api\/+unsubscribe|calendar|einladung|passwort-neu|abmelden)\/+)[^/?#]+/gi;
const SECRET_QUERY = /([?&;](?:sig|signature|token|exp|secret|key)=)[^&;#]*/gi;

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The URL (path and query, as in a request line) with every bearer secret replaced. A path with
 * percent-escapes is matched decoded as well (the router decodes `/api/%69nvites/…` to the same
 * route) and then logged decoded; a query whose decoded form names a secret parameter in an
 * escaped spelling (`%73ig=`) is hidden whole.
 */
export function redactUrl(url: string): string {
  const q = url.search(/[?#]/);
  const rawPath = q === -1 ? url : url.slice(0, q);
  const rawQuery = q === -1 ? '' : url.slice(q);
  const hidePath = (p: string) => p.replace(SECRET_PATH, `$1${REDACTED}`);
  let path = hidePath(rawPath);
  if (rawPath.includes('%')) {
    const decoded = safeDecode(rawPath);
    if (hidePath(decoded) !== decoded) path = hidePath(decoded);
  }
  let query = rawQuery.replace(SECRET_QUERY, `$1${REDACTED}`);
  if (query.includes('%')) {
    const decoded = safeDecode(query);
    if (decoded.replace(SECRET_QUERY, `$1${REDACTED}`) !== decoded) query = `${query[0] ?? '?'}${REDACTED}`;
  }
  return path + query;
}
