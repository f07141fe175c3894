import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { tokens, users } from '../db/schema/index';
import { forbidden, unauthorized } from '../errors';
import { TOKEN_IDLE_DAYS } from '../../contract/constants';

export type Role = 'teacher' | 'student';
export type AuthUser = { id: number; name: string; email: string; role: Role; teacherId: number | null; tokenId: number };

/** Who may call a route. Every /api route declares one in `config.access`; the app refuses to start otherwise. */
export type Access = 'public' | 'user' | 'teacher' | 'student';

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

const IDLE_MS = TOKEN_IDLE_DAYS * 24 * 60 * 60 * 1000;
// last_used_at is refreshed at most once a minute, so a read does not cost a write.
const TOUCH_MS = 60 * 1000;

export async function userForToken(db: Db, token: string, now = new Date()): Promise<AuthUser | null> {
  const found = await db
    .select({
      id: users.id,
      name: users.name,
      email: users.email,
      role: users.role,
      teacherId: users.teacherId,
      tokenId: tokens.id,
      lastUsedAt: tokens.lastUsedAt,
    })
    .from(tokens)
    .innerJoin(users, eq(users.id, tokens.userId))
    .where(eq(tokens.tokenHash, hashToken(token)))
    .limit(1);
  const row = found[0];
  if (!row) return null;
  const idle = now.getTime() - row.lastUsedAt.getTime();
  if (idle > IDLE_MS) {
    await db.delete(tokens).where(eq(tokens.id, row.tokenId));
    return null;
  }
  if (idle > TOUCH_MS) {
    await db.update(tokens).set({ lastUsedAt: sql`now()` }).where(and(eq(tokens.id, row.tokenId)));
  }
  const { lastUsedAt: _ignored, ...user } = row;
  return user;
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(h.trim());
  return m?.[1] ?? null;
}

/** The signed-in user of a route whose access is user/teacher/student. */
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
    if (!url.startsWith('/api/')) return;
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (!access) throw new Error(`Route ${route.method} ${url} declares no config.access`);
    if (access === 'public') return;
    const check = async (req: FastifyRequest, _reply: FastifyReply) => {
      const token = bearer(req);
      if (!token) throw unauthorized();
      const user = await userForToken(db, token);
      if (!user) throw unauthorized();
      req.user = user;
      if (access !== 'user' && user.role !== access) throw forbidden();
    };
    // onRequest: before the body is read or validated, so a guest gets 401 (not 422) and uploads stop early.
    const existing = route.onRequest;
    route.onRequest = existing ? [check, ...(Array.isArray(existing) ? existing : [existing])] : [check];
  });
}
