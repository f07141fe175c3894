import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * What one process tells every other process on the same database (docs/decisions/0013-many-processes.md):
 * - `tenant`: something of a school tenant (a teacher's id) changed: drop its kept list answers;
 * - `token`: a token ended (logout);
 * - `user`: every token of a user ended or its user changed (new password, name, e-mail, deleted);
 * - `all`: anything may have changed (a restore, the retention job, the CLI): drop everything kept.
 */
export type Invalidation = { kind: 'tenant' | 'token' | 'user'; id: number } | { kind: 'all' };

export type ClusterStats = {
  /** Invalidations sent by this process. */
  sent: number;
  /** Invalidations of other processes applied here. */
  received: number;
  /** How often everything kept was dropped because a message may have been missed. */
  resets: number;
  /** Whether other processes' invalidations reach this one right now (always true on the embedded database). */
  listening: boolean;
  /** Invalidations that could not be sent (the database was not reachable). */
  sendErrors: number;
};

type Handler = (inv: Invalidation) => void;

/** The channel and the sequence (drizzle/0007) of the invalidation messages. */
export const CHANNEL = 'uk_invalidate';

/**
 * The caches of one process and the other processes on its database. Every cache that a write can
 * make wrong subscribes (`on`); a change is `publish`ed: applied here at once, and on PostgreSQL
 * sent to every other process with NOTIFY (after the change committed). A process that cannot be
 * sure it heard everything (its LISTEN connection broke, a heartbeat found a message it never got)
 * drops everything kept and serves from the database until it listens again (`trusted`).
 *
 * On the embedded database there is one process: `publish` only applies locally, nothing else runs.
 */
export class Cluster {
  private readonly handlers: Handler[] = [];
  readonly stats: ClusterStats = { sent: 0, received: 0, resets: 0, listening: true, sendErrors: 0 };
  constructor(protected readonly origin = randomBytes(6).toString('hex')) {}

  on(handler: Handler): void {
    this.handlers.push(handler);
    this.started();
  }

  /** False while another process's change could be missed: caches must not answer then. */
  get trusted(): boolean {
    return true;
  }

  /** Applies here at once; on PostgreSQL also tells every other process (awaited: the message is out before the caller answers). */
  async publish(inv: Invalidation): Promise<void> {
    this.apply(inv);
    await this.send([inv]);
  }

  /** Resolves once other processes' invalidations reach this one. */
  async ready(): Promise<void> {}

  protected apply(inv: Invalidation): void {
    for (const h of this.handlers) h(inv);
  }

  protected async send(_invs: Invalidation[]): Promise<void> {}

  /** A subscriber appeared: a listening cluster starts listening. */
  protected started(): void {}

  async close(): Promise<void> {}
}

/** Encodes a message: "origin kind id,kind id,…" (at most a few hundred bytes; NOTIFY allows 8000). */
export function encode(origin: string, invs: Invalidation[]): string {
  return `${origin} ${invs.map((i) => (i.kind === 'all' ? 'all' : `${i.kind}:${i.id}`)).join(',')}`;
}

/** Decodes `encode`'s text (and the sequence number PostgreSQL appended); null for anything else. */
export function decode(text: string): { origin: string; seq: number; invs: Invalidation[] } | null {
  const m = /^([0-9a-f]{1,32}) ([a-z0-9:,]+) (\d+)$/.exec(text);
  if (!m) return null;
  const invs: Invalidation[] = [];
  for (const part of m[2]!.split(',')) {
    if (part === 'all') {
      invs.push({ kind: 'all' });
      continue;
    }
    const [kind, id] = part.split(':');
    if ((kind === 'tenant' || kind === 'token' || kind === 'user') && id && /^\d+$/.test(id)) invs.push({ kind, id: Number(id) });
    else return null;
  }
  return { origin: m[1]!, seq: Number(m[3]), invs };
}

export type PgClusterOptions = {
  /** How often the LISTEN connection is checked (and missed messages looked for). */
  heartbeatMs?: number;
  /** A heartbeat that takes longer than this counts as a broken connection. */
  heartbeatTimeoutMs?: number;
  /** Wait before connecting again after the LISTEN connection broke. */
  reconnectMs?: number;
  log?: (msg: string) => void;
};

/**
 * LISTEN/NOTIFY on PostgreSQL, with a sequence number as the check that nothing was missed:
 * every message carries `nextval('uk_invalidation_seq')`. Each heartbeat reads the sequence's
 * `last_value`; by the next heartbeat every message numbered up to it must have arrived (they are
 * sent by autocommitted statements, so none is still in flight a heartbeat later). If one has not,
 * or the connection broke, everything kept is dropped and caches stay off until LISTEN works again.
 */
export class PgCluster extends Cluster {
  private client: pg.Client | null = null;
  /** The backend process id of the LISTEN connection (tests end it to play a network failure). */
  get listenerPid(): number | null {
    return (this.client as unknown as { processID?: number } | null)?.processID ?? null;
  }
  private connecting: Promise<void> | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private closed = false;
  private listening = false;
  private readonly dead = new WeakSet<pg.Client>();
  /** A connect attempt failed and was logged: the next failures are not. */
  private failing = false;
  private maxSeen = 0;
  /** `last_value` read by the previous heartbeat: every message up to it must have arrived since. */
  private mustHave = 0;
  private readonly opts: Required<Omit<PgClusterOptions, 'log'>> & { log: (msg: string) => void };

  constructor(
    private readonly pool: pg.Pool,
    private readonly connectionString: string,
    opts: PgClusterOptions = {},
  ) {
    super();
    this.stats.listening = false;
    this.opts = {
      heartbeatMs: opts.heartbeatMs ?? 1000,
      heartbeatTimeoutMs: opts.heartbeatTimeoutMs ?? 2000,
      reconnectMs: opts.reconnectMs ?? 500,
      log: opts.log ?? ((msg) => process.stderr.write(`${msg}\n`)),
    };
  }

  override get trusted(): boolean {
    return this.listening;
  }

  protected override async send(invs: Invalidation[]): Promise<void> {
    this.stats.sent += invs.length;
    try {
      // One autocommitted statement: numbered and sent at once; the listeners (this one too) get it on commit.
      await this.pool.query(`select pg_notify('${CHANNEL}', $1::text || ' ' || nextval('uk_invalidation_seq'))`, [encode(this.origin, invs)]);
    } catch (err) {
      // The change itself is committed; failing the request would not undo it. Without the database
      // the other processes' LISTEN connections break too, and they drop what they keep.
      this.stats.sendErrors++;
      this.opts.log(`cluster: an invalidation could not be sent (${(err as Error).message})`);
    }
  }

  protected override started(): void {
    if (!this.client && !this.connecting && !this.closed) this.connecting = this.connect();
  }

  /** Resolves once this process listens (tests; a start that wants to be sure). */
  override async ready(): Promise<void> {
    this.started();
    while (!this.listening && !this.closed) await (this.connecting ?? new Promise((r) => setTimeout(r, 20)));
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'uk-listen' });
    client.on('error', (err) => this.broken(client, err));
    client.on('end', () => this.broken(client, new Error('connection ended')));
    client.on('notification', (n) => {
      if (n.channel !== CHANNEL || !n.payload) return;
      const msg = decode(n.payload);
      if (!msg) return;
      if (msg.seq > this.maxSeen) this.maxSeen = msg.seq;
      if (msg.origin === this.origin) return;
      this.stats.received += msg.invs.length;
      for (const inv of msg.invs) this.apply(inv);
    });
    try {
      await client.connect();
      this.client = client;
      await client.query(`listen ${CHANNEL}`);
      const r = await client.query<{ v: string }>(`select last_value::text as v from uk_invalidation_seq`);
      // From here on every message reaches us: what was kept before may be older than a change we missed.
      this.maxSeen = Math.max(this.maxSeen, Number(r.rows[0]?.v ?? 0));
      this.mustHave = this.maxSeen;
      this.reset();
      this.listening = true;
      this.failing = false;
      this.stats.listening = true;
      this.heartbeat = setInterval(() => void this.beat(client), this.opts.heartbeatMs);
      this.heartbeat.unref();
    } catch (err) {
      this.broken(client, err as Error);
    } finally {
      this.connecting = null;
    }
  }

  private async beat(client: pg.Client): Promise<void> {
    if (this.client !== client) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      const r = await Promise.race([
        client.query<{ v: string }>(`select last_value::text as v from uk_invalidation_seq`),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('heartbeat timed out')), this.opts.heartbeatTimeoutMs);
        }),
      ]);
      if (this.maxSeen < this.mustHave) {
        // A message numbered at or below what the previous heartbeat saw never came.
        this.opts.log(`cluster: invalidation messages up to ${this.mustHave} missed (last seen ${this.maxSeen}); dropping every cached answer`);
        this.maxSeen = this.mustHave;
        this.reset();
      }
      this.mustHave = Number(r.rows[0]?.v ?? 0);
    } catch (err) {
      this.broken(client, err as Error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Everything kept may be stale. */
  private reset(): void {
    this.stats.resets++;
    this.apply({ kind: 'all' });
  }

  private broken(client: pg.Client, err: Error): void {
    if (this.dead.has(client)) return;
    this.dead.add(client);
    const wasListening = this.listening;
    this.listening = false;
    this.stats.listening = false;
    this.client = null;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    client.removeAllListeners('notification');
    client.end().catch(() => {});
    if (this.closed) return;
    if (wasListening) {
      this.opts.log(`cluster: the LISTEN connection broke (${err.message}); caches off until it is back`);
      this.reset();
    } else if (!this.failing) {
      this.opts.log(`cluster: cannot LISTEN (${err.message}); caches off, trying again`);
    }
    this.failing = true;
    setTimeout(() => {
      if (!this.closed && !this.client && !this.connecting) this.connecting = this.connect();
    }, this.opts.reconnectMs).unref();
  }

  override async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    if (this.heartbeat) clearInterval(this.heartbeat);
    await this.connecting?.catch(() => {});
    const c = this.client;
    this.client = null;
    if (c) await c.end().catch(() => {});
  }
}

const clusters = new WeakMap<object, Cluster>();

/** The cluster of a database handle's `db` (set when it is opened); a local one for anything else. */
export function clusterOf(db: object): Cluster {
  let c = clusters.get(db);
  if (!c) clusters.set(db, (c = new Cluster()));
  return c;
}

export function attachCluster(db: object, cluster: Cluster): void {
  clusters.set(db, cluster);
}
