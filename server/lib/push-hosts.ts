// Which addresses the server may post push notifications to (docs/decisions/web-push.md): the
// hosts of PUSH_SERVICE_HOSTS. No imports, so server/config.ts checks the setting with the same
// parser the sender uses.

/**
 * One entry of PUSH_SERVICE_HOSTS: a host name, `*.` and a domain (its subdomains), or an IP
 * address ([…] for IPv6), each with an optional `:port`. Nothing else: no scheme, path or
 * userinfo. Config refuses an entry that does not parse (server/config.ts).
 */
const HOST_ENTRY = /^(\*\.)?([a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::([1-9][0-9]{0,4}))?$/;

export type PushHost = { wildcard: boolean; name: string; port: string };

/** An entry of PUSH_SERVICE_HOSTS, or null when it is not one; `port` '' means the scheme's default (443). */
export function parsePushHost(entry: string): PushHost | null {
  const m = HOST_ENTRY.exec(entry.trim().toLowerCase());
  if (!m || !m[2]) return null;
  const port = m[3] ?? '';
  if (port !== '' && Number(port) > 65535) return null;
  if (m[1] && m[2].startsWith('[')) return null;
  return { wildcard: m[1] !== undefined, name: m[2], port: port === '443' ? '' : port };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Whether the server may post to an endpoint (docs/decisions/web-push.md): https on a listed push
 * service ('*.example.com' allows its subdomains), on the default port 443 unless the entry names
 * another (`host:port`), with no userinfo (`user:password@`); http only for a listed loopback
 * host (the tests).
 */
export function pushEndpointAllowed(endpoint: string, hosts: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '') return false;
  const host = url.hostname.toLowerCase();
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(host)))) return false;
  // URL leaves `port` empty when it is the scheme's default (443 for https, 80 for http)
  const port = url.port;
  return hosts.some((entry) => {
    const h = parsePushHost(entry);
    if (!h || h.port !== port) return false;
    return h.wildcard ? host.endsWith(`.${h.name}`) : host === h.name;
  });
}
