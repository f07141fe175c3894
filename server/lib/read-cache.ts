import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { AuthUser } from './auth';
import { requestLang } from './lang';
import { todayInZone } from './time';
import type { Cluster } from './cluster';

/**
 * Answers of the list calls kept in memory, per school tenant (a teacher with their students).
 *
 * Why: at school scale the lists that screens load again and again (students, exercises, a page
 * of tasks, a calendar month) cost a database query of 1–20 ms and 25 KB–1 MB of JSON each time,
 * although most of them change only when somebody in the same tenant writes
 * (docs/decisions/0004-read-cache.md).
 *
 * Correctness:
 * - Every non-GET call of a signed-in user bumps that user's tenant generation when its handler
 *   has finished (after its transaction committed, before the answer goes out). An answer is
 *   served only while its tenant's generation is the one it was read under, so a read that
 *   overlapped a write is never served after that write answered.
 * - The key holds the caller's user id, the answer's language, the school's date (task status
 *   depends on it) and the whole URL; authentication and validation run before the lookup.
 * - Other server processes on the same PostgreSQL, and the CLI, tell this one of their writes
 *   through the cluster (server/lib/cluster.ts: NOTIFY, a bump here as above); while it cannot be
 *   sure to hear them, nothing is served from memory. What is written past the server (SQL by
 *   hand) shows after at most `ttlMs` (10 s by default, READ_CACHE_SECONDS).
 * - Bounded: at most `maxBytes` in total, no single answer over `maxEntryBytes`, oldest use
 *   evicted first.
 */

export type ReadCacheOptions = { ttlMs: number; maxBytes?: number; maxEntryBytes?: number };

type Entry = {
  tenant: number;
  gen: number;
  expiresAt: number;
  body: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  bytes: number;
};

export type ReadCacheStats = { hits: number; misses: number; stored: number; entries: number; bytes: number };

export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly byTenant = new Map<number, Set<string>>();
  private readonly gens = new Map<number, number>();
  /** Raised by `dropAll`: an answer read before it is not kept, whatever its tenant. */
  private epoch = 0;
  private bytes = 0;
  readonly stats = { hits: 0, misses: 0, stored: 0 };
  readonly ttlMs: number;
  readonly maxBytes: number;
  readonly maxEntryBytes: number;

  constructor(opts: ReadCacheOptions) {
    this.ttlMs = opts.ttlMs;
    this.maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
    this.maxEntryBytes = opts.maxEntryBytes ?? 1024 * 1024;
  }

  generation(tenant: number): number {
    return this.epoch * 2 ** 32 + (this.gens.get(tenant) ?? 0);
  }

  /** Something in the tenant changed: none of its answers may be served again. */
  bump(tenant: number): void {
    this.gens.set(tenant, (this.gens.get(tenant) ?? 0) + 1);
    const keys = this.byTenant.get(tenant);
    if (!keys) return;
    for (const key of keys) this.drop(key, false);
    this.byTenant.delete(tenant);
  }

  get(key: string, tenant: number, now: number): Entry | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.tenant !== tenant || e.gen !== this.generation(tenant) || now >= e.expiresAt) {
      this.drop(key, true);
      return undefined;
    }
    // most recently used goes last
    this.entries.delete(key);
    this.entries.set(key, e);
    return e;
  }

  /** Keeps `body` unless the tenant changed since `gen` was read (the read may have seen older data). */
  set(key: string, tenant: number, gen: number, body: Buffer, now: number): boolean {
    if (gen !== this.generation(tenant) || body.length > this.maxEntryBytes) return false;
    this.drop(key, true);
    const e: Entry = { tenant, gen, expiresAt: now + this.ttlMs, body, bytes: body.length };
    this.entries.set(key, e);
    let keys = this.byTenant.get(tenant);
    if (!keys) this.byTenant.set(tenant, (keys = new Set()));
    keys.add(key);
    this.bytes += e.bytes;
    this.stats.stored++;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.drop(oldest, true);
    }
    return true;
  }

  /** The compressed form of an entry, made once on first demand. */
  encoded(e: Entry, encoding: 'br' | 'gzip'): Buffer {
    const have = e[encoding];
    if (have) return have;
    const out =
      encoding === 'br'
        ? brotliCompressSync(e.body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: e.body.length } })
        : gzipSync(e.body, { level: GZIP_LEVEL });
    e[encoding] = out;
    e.bytes += out.length;
    this.bytes += out.length;
    return out;
  }

  clear(): void {
    this.entries.clear();
    this.byTenant.clear();
    this.bytes = 0;
  }

  /** Anything may have changed (another process's restore, a missed message): drop all, keep no read in flight. */
  dropAll(): void {
    this.epoch++;
    this.gens.clear();
    this.clear();
  }

  snapshot(): ReadCacheStats {
    return { ...this.stats, entries: this.entries.size, bytes: this.bytes };
  }

  private drop(key: string, fromTenant: boolean): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.bytes -= e.bytes;
    if (fromTenant) {
      const keys = this.byTenant.get(e.tenant);
      keys?.delete(key);
      if (keys && keys.size === 0) this.byTenant.delete(e.tenant);
    }
  }
}

/** Marks a request whose (non-GET) handler has started: it may have written. */
const WRITING = Object.freeze({ key: '', tenant: -1, gen: -1 });

/** The tenant of a signed-in user: a teacher's own id, a student's teacher. */
export function tenantOf(user: AuthUser): number | null {
  return user.role === 'teacher' ? user.id : user.teacherId;
}

/**
 * How answers are compressed, here and by @fastify/compress (app.ts): below the threshold they go
 * out as they are; fast settings, since the server's CPU matters more than the last percent.
 */
export const COMPRESS_THRESHOLD = 2048;
export const BROTLI_QUALITY = 4;
export const GZIP_LEVEL = 4;

/**
 * The encoding for a cached answer, by the client's Accept-Encoding: br before gzip, q=0 refuses.
 * (For answers that are not cached, @fastify/compress decides.)
 */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  if (!acceptEncoding) return undefined;
  const q: Record<string, number> = {};
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    q[name.trim()] = Number.isFinite(weight) ? weight : 0;
  }
  const weight = (name: string) => q[name] ?? q['*'] ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return undefined;
}

/** `Cache-Control: no-cache | no-store | max-age=0` or `Pragma: no-cache` on the request. */
export function wantsFresh(req: { headers: Record<string, string | string[] | undefined> }): boolean {
  const cc = req.headers['cache-control'];
  if (typeof cc === 'string' && /(?:^|,)\s*(?:no-cache|no-store|max-age\s*=\s*0)\s*(?:,|$)/i.test(cc)) return true;
  const pragma = req.headers.pragma;
  return typeof pragma === 'string' && /no-cache/i.test(pragma);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** GET answers of this route may be served from the read cache (server/lib/read-cache.ts). */
    cache?: boolean;
  }
  interface FastifyRequest {
    readCache: { key: string; tenant: number; gen: number } | null;
    /** This (writing) request's invalidation went out to the other processes already. */
    readCacheSent: boolean;
  }
  interface FastifyInstance {
    readCache: ReadCache | null;
  }
}

/**
 * Registers the cache: routes with `config.cache` answer from it, every other /api call of a
 * signed-in user that is not a GET or HEAD invalidates the caller's tenant when its handler ends.
 * Must be registered before the routes and before @fastify/compress's route hooks run (app.ts).
 */
export function registerReadCache(app: FastifyInstance, opts: { ttlMs: number; timeZone: string; maxBytes?: number; cluster: Cluster }): void {
  const cache = opts.ttlMs > 0 ? new ReadCache({ ttlMs: opts.ttlMs, maxBytes: opts.maxBytes }) : null;
  app.decorate('readCache', cache);
  app.decorateRequest('readCache', null);
  app.decorateRequest('readCacheSent', false);
  if (!cache) return;
  const cluster = opts.cluster;
  cluster.on((inv) => {
    if (inv.kind === 'tenant') cache.bump(inv.id);
    else if (inv.kind === 'all') cache.dropAll();
  });
  /** Bumps the caller's tenant here and in every other process, once per request. */
  const invalidate = async (req: FastifyRequest) => {
    const tenant = req.user ? tenantOf(req.user) : null;
    if (tenant === null) return;
    if (req.readCacheSent) {
      cache.bump(tenant);
      return;
    }
    req.readCacheSent = true;
    await cluster.publish({ kind: 'tenant', id: tenant });
  };

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((m) => m === 'GET' || m === 'HEAD')) return;
    const handler = route.handler;
    route.handler = async function invalidatingHandler(this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      req.readCache = WRITING;
      try {
        return await handler.call(this, req, reply);
      } finally {
        await invalidate(req);
      }
    } as typeof handler;
  });

  app.addHook('preHandler', async (req, reply) => {
    if (req.method !== 'GET' || !req.routeOptions.config.cache || !req.user) return;
    const tenant = tenantOf(req.user);
    if (tenant === null) return;
    const now = Date.now();
    const key = `${req.user.id}\n${requestLang(req)}\n${todayInZone(opts.timeZone, new Date(now))}\n${req.url}`;
    // A client that asks for a fresh answer (a forced reload; the bench's cold runs) gets one,
    // which then replaces the kept one.
    // While another process's change could go unheard (server/lib/cluster.ts), answer from the database.
    if (!cluster.trusted) return;
    const hit = wantsFresh(req) ? undefined : cache.get(key, tenant, now);
    if (!hit) {
      cache.stats.misses++;
      req.readCache = { key, tenant, gen: cache.generation(tenant) };
      return;
    }
    cache.stats.hits++;
    reply.header('content-type', 'application/json; charset=utf-8');
    const encoding =
      hit.body.length >= COMPRESS_THRESHOLD && req.headers['x-no-compression'] === undefined
        ? pickEncoding(req.headers['accept-encoding'])
        : undefined;
    if (encoding) {
      reply.header('content-encoding', encoding).header('vary', 'accept-encoding');
      return reply.send(cache.encoded(hit, encoding));
    }
    return reply.send(hit.body);
  });

  app.addHook('onSend', async (req, reply, payload) => {
    // A handler that sends its answer itself (`reply.send(…)`) would let it start out before the
    // wrapper above runs: bump here too, before the first byte is written.
    const pending = req.readCache;
    if (pending === WRITING) {
      await invalidate(req);
      return payload;
    }
    if (!pending || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    req.readCache = null;
    cache.set(pending.key, pending.tenant, pending.gen, Buffer.from(payload, 'utf8'), Date.now());
    return payload;
  });
}
