import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { rows, type Db } from '../db/client';
import { AppError, invalid, type Msg } from '../errors';

/**
 * `Idempotency-Key` on the writes a device may queue offline (docs/decisions/idempotency-and-offline-sessions.md).
 *
 * A route opts in with `config.idempotent: true` and documents the header in its schema
 * (`headers: idempotencyHeaders`, contract/common.ts, which also refuses a malformed key with 422).
 * For a request that carries a key, after authentication and validation:
 * - the key is reserved for the caller (a row in `idempotency_keys` without a status, unique per
 *   user and key); then the handler runs;
 * - a 2xx answer is stored in that row (status, body, content type) before it goes out; any other
 *   answer deletes the reservation, so a write that failed can be sent again with the same key;
 * - a repeat of the key by the same user answers the stored answer (same status and body) without
 *   running the handler; with another method, path or body → 422; while the first still runs → 409.
 * Keys of different users never meet. Rows older than 24 hours are ignored and deleted (at most
 * once an hour, one statement).
 *
 * A reservation does not outlive the process that holds it (the decision's "After a crash"): each
 * process knows the reservations it holds; on the embedded database (one process per data folder)
 * any other reservation was left by an earlier run and is free at once; on PostgreSQL the holding
 * process renews its reservations every HEARTBEAT_MS (a lease on `created_at`), and one not renewed
 * for LEASE_MS belongs to a process that is gone and is free.
 */

/** How long a stored answer is given again. */
export const IDEMPOTENCY_KEEP_MS = 24 * 60 * 60 * 1000;
/** On PostgreSQL: how often a process renews the reservations it holds. */
export const HEARTBEAT_MS = 2_000;
/** On PostgreSQL: a reservation not renewed for this long belongs to a process that is gone. */
export const LEASE_MS = 10_000;
/** How often the expired keys of all users are deleted. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const HEADER = 'idempotency-key';

export const idempotencyMessages = {
  otherRequest: {
    de: 'Dieser Idempotency-Key wurde bereits für eine andere Anfrage verwendet.',
    tr: 'Bu Idempotency-Key başka bir istek için zaten kullanıldı.',
  },
  otherBody: {
    de: 'Dieser Idempotency-Key wurde bereits für dieselbe Anfrage mit anderem Inhalt verwendet.',
    tr: 'Bu Idempotency-Key aynı istek için farklı bir içerikle zaten kullanıldı.',
  },
  stillRunning: {
    de: 'Eine Anfrage mit diesem Idempotency-Key wird noch bearbeitet. Bitte gleich erneut versuchen.',
    tr: 'Bu Idempotency-Key ile gönderilen bir istek hâlâ işleniyor. Birazdan tekrar denenmeli.',
  },
} satisfies Record<string, Msg>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Writes of this route may carry an `Idempotency-Key` (server/lib/idempotency.ts). */
    idempotent?: boolean;
  }
  interface FastifyRequest {
    /** The key reserved for this request, until its answer is stored or the reservation dropped. */
    idempotency: { userId: number; key: string } | null;
  }
}

/**
 * The request a key was first used for, kept in the row's `headers` under this name (a colon
 * cannot begin an HTTP header name, so it is never replayed as one): SHA-256 of method, path and
 * the validated body. A multipart upload is read by its handler, after this: its body counts as none.
 */
const FINGERPRINT = ':fingerprint';
function fingerprintOf(req: FastifyRequest, path: string): string {
  const multipart = /^multipart\//i.test(req.headers['content-type'] ?? '');
  const body = req.body === undefined || multipart ? '' : JSON.stringify(req.body);
  return createHash('sha256').update(`${req.method}\n${path}\n${body}`).digest('base64url');
}

type Stored = { method: string; path: string; status: number | null; body: string | null; headers: Record<string, string> | null };

const keepInterval = sql`make_interval(secs => ${IDEMPOTENCY_KEEP_MS / 1000}::double precision)`;
const leaseInterval = sql`make_interval(secs => ${LEASE_MS / 1000}::double precision)`;

type Held = { userId: number; key: string };
const heldId = (h: Held) => `${h.userId} ${h.key}`;

/**
 * The reservations this process holds on one database (shared by apps on the same handle, as
 * in tests), and on PostgreSQL the heartbeat that renews them while any is held.
 */
class Reservations {
  private readonly held = new Map<string, Held>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: Db,
    private readonly renews: boolean,
  ) {}

  has(h: Held): boolean {
    return this.held.has(heldId(h));
  }

  /** Marks a key as held here (before its row is inserted, so no other request of this process frees it meanwhile). */
  add(h: Held): void {
    this.held.set(heldId(h), h);
    if (this.renews && !this.timer) {
      this.timer = setInterval(() => void this.renew(), HEARTBEAT_MS);
      this.timer.unref();
    }
  }

  delete(h: Held): void {
    this.held.delete(heldId(h));
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  private async renew(): Promise<void> {
    const all = [...this.held.values()];
    if (!all.length) return;
    const pairs = sql.join(
      all.map((h) => sql`(${h.userId}::int, ${h.key}::text)`),
      sql`, `,
    );
    try {
      await this.db.execute(sql`update idempotency_keys set created_at = now() where status is null and (user_id, key) in (${pairs})`);
    } catch {
      // The next beat tries again; a lease runs LEASE_MS, several beats.
    }
  }
}

const reservationsByDb = new WeakMap<object, Reservations>();

/** Registers the key handling; before the routes (app.ts). */
export function registerIdempotency(app: FastifyInstance, db: Db, dbKind: 'pglite' | 'postgres'): void {
  app.decorateRequest('idempotency', null);
  let lastPrune = 0;
  let reservations = reservationsByDb.get(db);
  if (!reservations) reservationsByDb.set(db, (reservations = new Reservations(db, dbKind === 'postgres')));
  const mine = reservations;

  app.addHook('onRoute', (route) => {
    if (!(route.config as { idempotent?: boolean } | undefined)?.idempotent) return;
    const headers = (route.schema as { headers?: unknown } | undefined)?.headers;
    if (!headers) throw new Error(`Route ${String(route.method)} ${route.url} is idempotent but does not document the Idempotency-Key header`);
  });

  const release = async (req: FastifyRequest, held: Held) => {
    try {
      await db.execute(sql`delete from idempotency_keys where user_id = ${held.userId} and key = ${held.key} and status is null`);
    } catch (err) {
      req.log.error({ err }, 'idempotency: could not drop a reservation');
    } finally {
      mine.delete(held);
    }
  };

  app.addHook('preHandler', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!req.routeOptions.config.idempotent || !req.user) return;
    const key = req.headers[HEADER];
    if (typeof key !== 'string') return; // none sent (the route's header schema refused a malformed one)
    const userId = req.user.id;
    const path = req.url.split('?')[0] ?? req.url;
    if (Date.now() - lastPrune > PRUNE_EVERY_MS) {
      lastPrune = Date.now();
      await db.execute(sql`delete from idempotency_keys where created_at < now() - ${keepInterval}`);
    }
    const held: Held = { userId, key };
    // Held by a request of this process: it still runs (the insert below conflicts → 409).
    const claimHere = !mine.has(held);
    if (claimHere) mine.add(held);
    let reserved: { key: string }[] = [];
    try {
      if (claimHere) {
        // An expired key, or a reservation whose process is gone, is free again: on the embedded
        // database every reservation not held here (an earlier run's), on PostgreSQL one whose lease ran out.
        const gone = dbKind === 'pglite' ? sql`true` : sql`created_at < now() - ${leaseInterval}`;
        await db.execute(
          sql`delete from idempotency_keys where user_id = ${userId} and key = ${key}
            and (created_at < now() - ${keepInterval} or (status is null and ${gone}))`,
        );
      }
      reserved = await rows<{ key: string }>(
        db,
        sql`insert into idempotency_keys (user_id, key, method, path, headers)
          values (${userId}, ${key}, ${req.method}, ${path}, ${JSON.stringify({ [FINGERPRINT]: fingerprintOf(req, path) })}::jsonb)
          on conflict (user_id, key) do nothing returning key`,
      );
    } finally {
      if (claimHere && !reserved.length) mine.delete(held);
    }
    if (reserved.length) {
      req.idempotency = held;
      return;
    }
    const [first] = await rows<Stored>(
      db,
      sql`select method, path, status, body, headers from idempotency_keys where user_id = ${userId} and key = ${key}`,
    );
    // Gone in between (the first request failed and dropped it): the client may simply send again.
    if (!first || first.status === null) throw new AppError(409, idempotencyMessages.stillRunning, undefined, undefined, { 'retry-after': '1' });
    if (first.method !== req.method || first.path !== path) throw invalid({ [HEADER]: idempotencyMessages.otherRequest });
    // The same call with another body: 422 (draft-ietf-httpapi-idempotency-key-header), never the first answer.
    const { [FINGERPRINT]: firstFingerprint, ...headers } = first.headers ?? {};
    if (firstFingerprint !== undefined && firstFingerprint !== fingerprintOf(req, path)) throw invalid({ [HEADER]: idempotencyMessages.otherBody });
    reply.code(first.status).headers(headers).header('idempotent-replayed', 'true');
    if (!headers['content-type']) reply.type('application/json; charset=utf-8');
    return reply.send(first.body ?? undefined);
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const held = req.idempotency;
    if (!held) return payload;
    req.idempotency = null;
    const status = reply.statusCode;
    const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : payload == null ? null : undefined;
    // Only a complete 2xx answer is kept; anything else (an error, a stream) frees the key for a retry.
    if (status < 200 || status >= 300 || text === undefined || reply.getHeader('content-encoding') !== undefined) {
      await release(req, held);
      return payload;
    }
    const type = reply.getHeader('content-type');
    const headers = typeof type === 'string' ? { 'content-type': type } : {};
    try {
      await db.execute(
        sql`update idempotency_keys set status = ${status}, body = ${text}, headers = coalesce(headers, '{}'::jsonb) || ${JSON.stringify(headers)}::jsonb
          where user_id = ${held.userId} and key = ${held.key}`,
      );
      mine.delete(held);
    } catch (err) {
      // The write itself is done: its answer goes out; only a repeat would run it again.
      req.log.error({ err }, 'idempotency: could not store an answer');
      await release(req, held);
    }
    return payload;
  });

  // An answer that never reached onSend (the connection broke off): the reservation goes.
  app.addHook('onResponse', async (req) => {
    const held = req.idempotency;
    if (!held) return;
    req.idempotency = null;
    await release(req, held);
  });
}
