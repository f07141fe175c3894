import { z } from 'zod';

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const configSchema = z.object({
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
        return `${key}${value === undefined ? '' : ` (got "${key === 'APP_SECRET' ? '***' : value}")`}: ${i.message}`;
      }),
    );
  }
  return parsed.data;
}
