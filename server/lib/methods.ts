import type { RouteEntry } from './auth';

type Pattern = { re: RegExp; methods: Set<string> };

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

/**
 * The methods a path answers to (for 405 and its Allow header), from the app's route table.
 * Only /api routes count: the web app's catch-all serves pages, not resources. HEAD goes with GET.
 */
export function allowedMethodsFor(routes: RouteEntry[]): (path: string) => string[] {
  let patterns: Pattern[] | undefined;
  const compile = (): Pattern[] => {
    const byUrl = new Map<string, Set<string>>();
    for (const r of routes) {
      if (!r.url.startsWith('/api/')) continue;
      const set = byUrl.get(r.url) ?? new Set<string>();
      set.add(r.method.toUpperCase());
      byUrl.set(r.url, set);
    }
    return [...byUrl].map(([url, methods]) => ({ re: patternToRegExp(url), methods }));
  };
  return (path) => {
    patterns ??= compile();
    const found = new Set<string>();
    for (const p of patterns) if (p.re.test(path)) for (const m of p.methods) found.add(m);
    if (found.has('GET')) found.add('HEAD');
    const order = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
    return [...found].sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  };
}
