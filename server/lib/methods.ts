import type { RouteEntry } from './auth';

type Pattern = { url: string; re: RegExp; rank: number[]; methods: Set<string> };

/** A route URL (`/api/students/:id`, `/api/media/*`) as a regular expression for a concrete path. */
function patternToRegExp(url: string): RegExp {
  const body = url
    .replace(/\/+$/, '')
    .split('/')
    .map((seg) => {
      if (seg === '*') return '.*';
      if (seg.startsWith(':')) return '[^/]+';
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/** Per segment: a fixed name 0, a parameter 1, the wildcard 2 (lower is more specific, as the router decides). */
const rankOf = (url: string) => url.split('/').map((seg) => (seg === '*' ? 2 : seg.startsWith(':') ? 1 : 0));
function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? -1) - (b[i] ?? -1);
    if (d) return d;
  }
  return 0;
}

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

export type MethodTable = {
  /** The methods a path answers to (for 405 and its Allow header); empty for no /api path. */
  allowed: (path: string) => string[];
  /**
   * The route URL a concrete path belongs to: the most specific one that matches it, whatever the
   * method (`/api/recordings/inbox` is the inbox, not recording "inbox" of `/api/recordings/:id`).
   */
  owner: (path: string) => string | null;
};

/**
 * The methods each path has, from the app's route table (docs/decisions/0012-request-limits.md,
 * "Methods"). Only /api routes count: the web app's catch-all serves pages, not resources. A path
 * has the methods of the route URL it belongs to — the most specific that matches, as documented
 * in the OpenAPI document — not those of every parametric URL it also matches. HEAD goes with GET.
 */
export function methodTableFor(routes: RouteEntry[]): MethodTable {
  let patterns: Pattern[] | undefined;
  const compile = (): Pattern[] => {
    const byUrl = new Map<string, Set<string>>();
    for (const r of routes) {
      if (!r.url.startsWith('/api/')) continue;
      const set = byUrl.get(r.url) ?? new Set<string>();
      set.add(r.method.toUpperCase());
      byUrl.set(r.url, set);
    }
    return [...byUrl]
      .map(([url, methods]) => ({ url, re: patternToRegExp(url), rank: rankOf(url), methods }))
      .sort((a, b) => compareRank(a.rank, b.rank));
  };
  const find = (path: string): Pattern | undefined => {
    patterns ??= compile();
    return patterns.find((p) => p.re.test(path));
  };
  return {
    allowed: (path) => {
      const found = new Set(find(path)?.methods ?? []);
      if (found.has('GET')) found.add('HEAD');
      return [...found].sort((a, b) => (ORDER.indexOf(a) + 1 || 99) - (ORDER.indexOf(b) + 1 || 99));
    },
    owner: (path) => find(path)?.url ?? null,
  };
}

/** The methods a path answers to (see methodTableFor). */
export function allowedMethodsFor(routes: RouteEntry[]): (path: string) => string[] {
  return methodTableFor(routes).allowed;
}
