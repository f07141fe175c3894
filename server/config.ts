import { isIP } from 'node:net';
import { z } from 'zod';
import { parsePushHost } from './lib/push-hosts';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Names proxy-addr (Fastify's trustProxy) knows for address ranges. */
export const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;

/** An IPv4/IPv6 address or a CIDR range (10.0.0.0/8, fd00::/8); a bare address is its own /32 or /128. */
function isAddressOrCidr(s: string): boolean {
  const [addr = '', prefix, ...rest] = s.split('/');
  const v = isIP(addr);
  if (!v || rest.length) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (v === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: off (default), `true` (every hop), a hop count, or the proxies' addresses/CIDRs
 * separated by commas; mapped onto Fastify's `trustProxy`.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): false | true | number | string[] => {
    const v = raw.trim().toLowerCase();
    if (v === 'false' || v === 'no' || v === 'off') return false;
    if (v === 'true' || v === 'yes') return true;
    if (/^\d+$/.test(v)) {
      const n = Number(v);
      if (n >= 1 && n <= 20) return n;
      ctx.addIssue({ code: 'custom', message: 'a hop count must be between 1 and 20 (false turns it off)' });
      return z.NEVER;
    }
    const list = v.split(',').map((x) => x.trim()).filter((x) => x !== '');
    const bad = list.filter((x) => !isAddressOrCidr(x) && !(PROXY_RANGE_NAMES as readonly string[]).includes(x));
    if (!list.length || bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `must be false, true, a hop count, or addresses/CIDR ranges separated by commas (${bad.length ? `not an address: ${bad.join(', ')}` : 'empty list'})`,
      });
      return z.NEVER;
    }
    return list;
  });

const seconds = (min: number, max: number, def: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce.number({ message: 'must be a number' }).min(min, `must be at least ${min}`).max(max, `must be at most ${max}`).default(def),
  );

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An S3 bucket name (AWS rules, which MinIO, Garage and R2 share). */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

export const configSchema = z
  .object({
  PORT: z.preprocess(emptyToUndefined, z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(0).max(65535, 'must be at most 65535').default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  APP_TIMEZONE: z.preprocess(
    emptyToUndefined,
    z.string().refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin').default('Europe/Berlin'),
  ),
  // No reminder is sent in this stretch of the school's night (docs/decisions/reminders.md), nor can one be set in it.
  QUIET_HOURS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/, 'must be two times of day such as 21:00-07:00 (from-to, in APP_TIMEZONE)')
      .default('21:00-07:00'),
  ),
  /** Who runs this server, for the push services (VAPID `sub`): an https: address or mailto:. Default: PUBLIC_URL, else a placeholder. */
  PUSH_CONTACT: z.preprocess(emptyToUndefined, z.string().regex(/^(mailto:\S+@\S+|https:\/\/\S+)$/, 'must be a mailto: or https: address').optional()),
  /**
   * The hosts a push subscription may point at (docs/decisions/web-push.md): the browsers' push
   * services. The server posts to these addresses, so no other host is accepted.
   */
  PUSH_SERVICE_HOSTS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('fcm.googleapis.com,updates.push.services.mozilla.com,web.push.apple.com,*.notify.windows.com,*.push.apple.com')
      .transform((v) => v.split(',').map((h) => h.trim().toLowerCase()).filter((h) => h !== ''))
      .refine((hosts) => hosts.every((h) => parsePushHost(h) !== null), {
        message: 'must be host names (*.domain for subdomains) with an optional :port, separated by commas; no scheme, path or user',
      }),
  ),
  APP_SECRET: z.preprocess(emptyToUndefined, z.string().min(32, 'must be at least 32 characters long').optional()),
  DEMO_SEED: z.preprocess(emptyToUndefined, boolish.default(true)),
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  STATIC_DIR: z.preprocess(emptyToUndefined, z.string().default('./dist/web')),
  // How long list answers may be served from memory (server/lib/read-cache.ts); 0 turns the cache off.
  READ_CACHE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(0).max(300, 'must be at most 300').default(10),
  ),
  // Reverse proxies whose X-Forwarded-For is believed (server/lib/limits.ts, README "Behind a reverse proxy").
  TRUST_PROXY: z.preprocess(emptyToUndefined, trustProxy),
  // Open connections one address may hold; 0 turns the cap off. Sockets of trusted proxies are not counted.
  MAX_CONNECTIONS_PER_IP: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(0).max(100_000, 'must be at most 100000').default(256),
  ),
  // Headers, and a body other than an upload, must arrive within this many seconds.
  REQUEST_TIMEOUT_SECONDS: seconds(0.1, 600, 30),
  // A connection that sends and receives nothing for this long is closed (an upload may take long, but must not stall).
  IDLE_TIMEOUT_SECONDS: seconds(0.1, 3600, 30),
  // On SIGTERM /api/health answers 503 for this long before the server stops taking connections,
  // so that a load balancer takes it out first (docs/deploy.md); in-flight requests always finish.
  SHUTDOWN_DRAIN_SECONDS: seconds(0, 120, 0),
  // Recordings (and their files) older than this many days are removed by the daily job (server/modules/recordings).
  RECORDINGS_KEEP_DAYS: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(36500, 'must be at most 36500').default(365),
  ),
  // Storage quotas (docs/decisions/storage-quota.md): the defaults a school's administrator may
  // change for their school. A student's recordings, and the school's recordings and exercise media.
  STORAGE_QUOTA_STUDENT_MB: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(50, 'must be at least 50').max(1_048_576, 'must be at most 1048576').default(1024),
  ),
  STORAGE_QUOTA_SCHOOL_GB: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(1, 'must be at least 1').max(102_400, 'must be at most 102400').default(50),
  ),
  // An upload is refused (507) unless the disk of DATA_DIR/media keeps this much free beyond the file.
  STORAGE_FREE_MARGIN_MB: z.preprocess(
    emptyToUndefined,
    z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(0, 'must be at least 0').max(1_048_576, 'must be at most 1048576').default(512),
  ),
  // Where media files (exercise media, recordings) live: the folder DATA_DIR/media, or an
  // S3-compatible bucket (docs/decisions/0014-media-on-s3.md). Every process of one school must use the same.
  MEDIA_STORE: z.preprocess(emptyToUndefined, z.enum(['local', 's3'], { message: 'must be local or s3' }).default('local')),
  // The store's address; empty for AWS S3 itself (then S3_REGION picks the endpoint).
  S3_ENDPOINT: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => {
        try {
          const u = new URL(v);
          return (u.protocol === 'http:' || u.protocol === 'https:') && u.search === '' && u.hash === '';
        } catch {
          return false;
        }
      }, 'must be an http:// or https:// address such as https://s3.example.org or http://127.0.0.1:9000')
      .optional(),
  ),
  S3_BUCKET: z.preprocess(emptyToUndefined, z.string().regex(BUCKET_NAME, 'must be a bucket name: 3–63 lower-case letters, digits, dots and dashes').optional()),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'must be a region name such as eu-central-1 (any name your store accepts)').default('us-east-1')),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  // Bucket in the path (http://host/bucket/key) instead of the host name: MinIO, Garage and most self-hosted stores need true.
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, boolish.default(false)),
  // The address users open the app at (https://uebung.musikschule.example): invitation links and
  // calendar addresses are built from it, never from the request's Host header
  // (server/lib/public-url.ts). Only scheme, host and port; a trailing slash is dropped.
  PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => {
        try {
          const u = new URL(v.trim());
          return (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname !== '' && u.username === '' && u.password === '' && u.pathname === '/' && u.search === '' && u.hash === '';
        } catch {
          return false;
        }
      }, 'must be the http:// or https:// address users open, without a path, such as https://uebung.musikschule.example')
      .transform((v) => new URL(v.trim()).origin)
      .optional(),
  ),
  // Optional (docs/decisions/schools-and-roles.md): the mail server that sends invitation links, e.g. smtps://user:password@mail.example.org:465
  // or smtp://mail.example.org:587 (STARTTLS when offered). Without it the links are only shown to copy.
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => {
        try {
          const u = new URL(v);
          return (u.protocol === 'smtp:' || u.protocol === 'smtps:') && u.hostname !== '';
        } catch {
          return false;
        }
      }, 'must be an smtp:// or smtps:// address such as smtps://user:password@mail.example.org:465')
      .optional(),
  ),
  // The sender of those mails, e.g. "Musikschule Klangwelt <verwaltung@example.org>"; required with SMTP_URL.
  SMTP_FROM: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .max(300)
      .refine((v) => /^[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>$|^[^\s<>@]+@[^\s<>@]+$/.test(v.trim()), 'must be an e-mail address, optionally with a name: Name <address@example.org>')
      .optional(),
  ),
  })
  .superRefine((c, ctx) => {
    if (c.MEDIA_STORE !== 's3') return;
    if (!c.S3_BUCKET) ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: 'is required when MEDIA_STORE=s3' });
    // Both keys, or neither (then the AWS SDK's own chain: AWS_* variables, an instance role…).
    if (!!c.S3_ACCESS_KEY_ID !== !!c.S3_SECRET_ACCESS_KEY) {
      const missing = c.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID';
      ctx.addIssue({ code: 'custom', path: [missing], message: 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS SDK\'s own credentials (AWS_* variables, an instance role)' });
    }
  })
  .superRefine((c, ctx) => {
    if (c.SMTP_URL && !c.SMTP_FROM) ctx.addIssue({ code: 'custom', path: ['SMTP_FROM'], message: 'is required when SMTP_URL is set (the sender of invitation mails)' });
  });

export type AppConfig = z.output<typeof configSchema>;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** Parses the environment once; every bad value gets its own line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const key = String(i.path[0] ?? '?');
        const value = env[key];
        return `${key}${value === undefined ? '' : ` (got "${key === 'APP_SECRET' || key === 'S3_SECRET_ACCESS_KEY' || key === 'SMTP_URL' ? '***' : value}")`}: ${i.message}`;
      }),
    );
  }
  return parsed.data;
}
