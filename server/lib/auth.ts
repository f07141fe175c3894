import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { tokens, users } from '../db/schema/index';
import { forbidden, unauthorized } from '../errors';
import { TOKEN_IDLE_DAYS } from '@contract/constants';
import { clusterOf } from './cluster';

export type Role = 'admin' | 'teacher' | 'student' | 'guardian';
export type AuthUser = { id: number; schoolId: number; name: string; email: string; role: Role; teacherId: number | null; tokenId: number };

/**
 * Who may call a route. Every /api route declares one in `config.access`; the app refuses to start otherwise.
 * `user`: a teacher or a student (the practice app's routes); `any`: every signed-in account
 * (admin, teacher, student, guardian); `staff`: a teacher or the school's administrator; the
 * other values name one role (docs/decisions/schools-and-roles.md).
 */
export type Access = 'public' | 'any' | 'user' | 'staff' | Role;

/** Whether a role may call a route of this access (after the token check). */
export function roleAllowed(access: Exclude<Access, 'public'>, role: Role): boolean {
  if (access === 'any') return true;
  if (access === 'user') return role === 'teacher' || role === 'student';
  if (access === 'staff') return role === 'teacher' || role === 'admin';
  return access === role;
}

declare module 'fastify' {
  interface FastifyRequest {
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    /** Every route as registered, with its declared access (read by the authorization-matrix test). */
    routeTable: RouteEntry[];
  }
}

export type RouteEntry = { method: string; url: string; access: Access | undefined };

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export async function issueToken(db: Db, userId: number): Promise<string> {
  const token = newToken();
  await db.insert(tokens).values({ userId, tokenHash: hashToken(token) });
  return token;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const IDLE_MS = TOKEN_IDLE_DAYS * DAY_MS;
/** A token ends this long after its sign-in, however often it is used (docs/decisions/0002). */
export const TOKEN_MAX_AGE_DAYS = 90;
const MAX_AGE_MS = TOKEN_MAX_AGE_DAYS * DAY_MS;
/** Tokens one user may hold at once; a sign-in beyond drops the least recently used. */
export const TOKENS_PER_USER_MAX = 100;
/** How often a sign-in also deletes every ended token of all users (one cheap statement). */
const GLOBAL_PRUNE_MS = 60 * 60 * 1000;
let lastGlobalPrune = 0;

/**
 * Called on sign-in: deletes this user's ended tokens (idle 30 days or issued 90 days ago) and
 * those beyond TOKENS_PER_USER_MAX; at most once an hour, every user's ended tokens as well.
 */
export async function pruneTokens(db: Db, userId: number, now = new Date()): Promise<void> {
  const ended = or(lt(tokens.lastUsedAt, new Date(now.getTime() - IDLE_MS)), lt(tokens.createdAt, new Date(now.getTime() - MAX_AGE_MS)));
  await db.delete(tokens).where(and(eq(tokens.userId, userId), ended));
  const keep = db
    .select({ id: tokens.id })
    .from(tokens)
    .where(eq(tokens.userId, userId))
    .orderBy(desc(tokens.lastUsedAt), desc(tokens.id))
    .limit(TOKENS_PER_USER_MAX - 1);
  const dropped = await db
    .delete(tokens)
    .where(and(eq(tokens.userId, userId), notInArray(tokens.id, keep)))
    .returning({ id: tokens.id });
  if (dropped.length) await forgetUser(db, userId);
  if (now.getTime() - lastGlobalPrune > GLOBAL_PRUNE_MS) {
    lastGlobalPrune = now.getTime();
    await db.delete(tokens).where(ended);
  }
}
// last_used_at is refreshed at most once a minute, so a read does not cost a write.
const TOUCH_MS = 60 * 1000;
/**
 * How long a looked-up token is trusted without asking the database again. Everything that ends a
 * token or changes what is cached (logout, a new password, a deleted or renamed account) evicts it
 * at once here and, through PostgreSQL's NOTIFY, in every other server process on the database;
 * the TTL bounds what a change made past the server (SQL by hand) could still leave usable.
 */
export const TOKEN_CACHE_MS = 10 * 1000;
const TOKEN_CACHE_MAX = 10_000;

type CachedToken = { user: AuthUser; lastUsedAt: number; createdAt: number; cachedAt: number };

/**
 * tokenHash → user for the token check in front of every call: a one-query read then costs one
 * database round trip instead of two (docs/decisions/bench-results.md, cause 4).
 */
class TokenCache {
  private readonly entries = new Map<string, CachedToken>();
  /** Bumped by every eviction: a lookup that started before one must not store what it read. */
  private epoch = 0;

  get(hash: string, now: number): CachedToken | undefined {
    const e = this.entries.get(hash);
    if (!e) return undefined;
    if (now - e.cachedAt > TOKEN_CACHE_MS) {
      this.entries.delete(hash);
      return undefined;
    }
    return e;
  }

  currentEpoch(): number {
    return this.epoch;
  }

  set(hash: string, entry: CachedToken, epochAtStart: number): void {
    if (epochAtStart !== this.epoch) return;
    if (this.entries.size >= TOKEN_CACHE_MAX) {
      // Map keeps insertion order: drop the oldest tenth.
      let n = TOKEN_CACHE_MAX / 10;
      for (const k of this.entries.keys()) {
        this.entries.delete(k);
        if (--n <= 0) break;
      }
    }
    this.entries.set(hash, entry);
  }

  evictToken(tokenId: number): void {
    this.epoch++;
    for (const [k, e] of this.entries) if (e.user.tokenId === tokenId) this.entries.delete(k);
  }

  evictUser(userId: number): void {
    this.epoch++;
    for (const [k, e] of this.entries) if (e.user.id === userId) this.entries.delete(k);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }
}

/**
 * One token cache per database handle (a process has one; the tests that play two processes have
 * two). It hears of other processes' logouts and changed users through the handle's cluster
 * (server/lib/cluster.ts, docs/decisions/0013-many-processes.md); while the cluster cannot be sure
 * it hears everything, the cache is not used.
 */
const caches = new WeakMap<object, TokenCache>();
function cacheOf(db: Db): TokenCache {
  let c = caches.get(db);
  if (!c) {
    const made = new TokenCache();
    caches.set(db, (c = made));
    clusterOf(db).on((inv) => {
      if (inv.kind === 'token') made.evictToken(inv.id);
      else if (inv.kind === 'user') made.evictUser(inv.id);
      else if (inv.kind === 'all') made.clear();
    });
  }
  return c;
}

/**
 * Call after the change is committed: the token (logout) or every token of the user (new password,
 * changed name or e-mail, deleted account) is looked up in the database again, here at once and by
 * every other process on the database as soon as the message reaches it (awaited: it is sent).
 */
export const forgetToken = (db: Db, tokenId: number): Promise<void> => clusterOf(db).publish({ kind: 'token', id: tokenId });
export const forgetUser = (db: Db, userId: number): Promise<void> => clusterOf(db).publish({ kind: 'user', id: userId });
/** Forgets every cached token of this process (tests). */
export const forgetAllTokens = (db: Db): void => cacheOf(db).clear();

export async function userForToken(db: Db, token: string, now = new Date()): Promise<AuthUser | null> {
  const hash = hashToken(token);
  const nowMs = now.getTime();
  const cache = cacheOf(db);
  const trusted = clusterOf(db).trusted;
  const hit = trusted ? cache.get(hash, nowMs) : undefined;
  if (hit) {
    if (nowMs - hit.lastUsedAt > IDLE_MS || nowMs - hit.createdAt > MAX_AGE_MS) {
      cache.evictToken(hit.user.tokenId);
      await db.delete(tokens).where(eq(tokens.id, hit.user.tokenId));
      return null;
    }
    if (nowMs - hit.lastUsedAt > TOUCH_MS) {
      hit.lastUsedAt = nowMs;
      await db.update(tokens).set({ lastUsedAt: sql`now()` }).where(eq(tokens.id, hit.user.tokenId));
    }
    return hit.user;
  }
  const epoch = cache.currentEpoch();
  const found = await db
    .select({
      id: users.id,
      schoolId: users.schoolId,
      name: users.name,
      email: users.email,
      role: users.role,
      teacherId: users.teacherId,
      tokenId: tokens.id,
      lastUsedAt: tokens.lastUsedAt,
      createdAt: tokens.createdAt,
    })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    // A deactivated account's tokens are deleted when it is deactivated; this also refuses one that a change past the server left.
    .where(and(eq(tokens.tokenHash, hash), isNull(users.deactivatedAt)))
    .limit(1);
  const row = found[0];
  if (!row) return null;
  const idle = nowMs - row.lastUsedAt.getTime();
  if (idle > IDLE_MS || nowMs - row.createdAt.getTime() > MAX_AGE_MS) {
    await db.delete(tokens).where(eq(tokens.id, row.tokenId));
    return null;
  }
  let lastUsedAt = row.lastUsedAt.getTime();
  if (idle > TOUCH_MS) {
    await db.update(tokens).set({ lastUsedAt: sql`now()` }).where(eq(tokens.id, row.tokenId));
    lastUsedAt = nowMs;
  }
  const { lastUsedAt: _ignored, createdAt, ...rest } = row;
  const user: AuthUser = Object.freeze(rest);
  if (trusted) cache.set(hash, { user, lastUsedAt, createdAt: createdAt.getTime(), cachedAt: nowMs }, epoch);
  return user;
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  // The scheme is case-insensitive (RFC 9110 section 11.1): Bearer, bearer, BEARER.
  const m = /^bearer[ \t]+([A-Za-z0-9_-]{20,200})$/i.exec(h.trim());
  return m?.[1] ?? null;
}

/** The signed-in user of a route that is not public. */
export function currentUser(req: FastifyRequest): AuthUser {
  if (!req.user) throw unauthorized();
  return req.user;
}

/** Adds authentication and the role check to every route from its `config.access`. */
export function registerAccessControl(app: FastifyInstance, db: Db): void {
  app.decorateRequest('user', null);
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route) => {
    const url = route.url;
    for (const method of Array.isArray(route.method) ? route.method : [route.method])
      table.push({ method, url, access: (route.config as { access?: Access } | undefined)?.access });
    if (!url.startsWith('/api/') && !url.startsWith('/calendar/')) return;
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (!access) throw new Error(`Route ${route.method} ${url} declares no config.access`);
    if (access === 'public') return;
    const check = async (req: FastifyRequest, _reply: FastifyReply) => {
      const token = bearer(req);
      if (!token) throw unauthorized();
      const user = await userForToken(db, token);
      if (!user) throw unauthorized();
      req.user = user;
      if (!roleAllowed(access, user.role)) throw forbidden();
    };
    // onRequest: before the body is read or validated, so a guest gets 401 (not 422) and uploads stop early.
    const existing = route.onRequest;
    route.onRequest = existing ? [check, ...(Array.isArray(existing) ? existing : [existing])] : [check];
  });
}
