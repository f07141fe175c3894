import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import compress from '@fastify/compress';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { hasZodFastifySchemaValidationErrors, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { existsSync, readFileSync } from 'node:fs';
import { constants as zlibConstants } from 'node:zlib';
import { join, resolve } from 'node:path';
import type pg from 'pg';
import { z } from 'zod';
import { createFastSerializerCompiler } from './lib/serializer';
import { openApiTransform, openApiTransformObject } from './lib/openapi';
import type { AppConfig } from './config';
import type { Db } from './db/client';
import { AppError, invalid, messages, type Msg } from './errors';
import { registerAccessControl } from './lib/auth';
import { clusterOf } from './lib/cluster';
import { createStorage, type Storage } from './lib/storage';
import { registerIdempotency } from './lib/idempotency';
import { BROTLI_QUALITY, COMPRESS_THRESHOLD, GZIP_LEVEL, registerReadCache } from './lib/read-cache';
import { requestLang } from './lib/lang';
import { clientErrorHandler, fastifyTrustProxy, JSON_BODY_LIMIT, limitConnectionsPerAddress, registerBodyLimits, serverTimeouts, trustedPeer } from './lib/limits';
import { methodTableFor } from './lib/methods';
import { redactUrl } from './lib/redact';
import { modules } from './modules/index';

const localeDe = z.locales.de();
const localeTr = z.locales.tr();

export type AppDeps = {
  config: AppConfig;
  db: Db;
  /** Folder of uploaded media (DATA_DIR/media; with MEDIA_STORE=s3 only their temporary upload files). */
  mediaDir: string;
  /** Where media files live (server/lib/storage.ts); made from the settings when not given, and then closed with the app. */
  storage?: Storage;
  /** Signs media links. */
  secret: string;
  dbKind: 'pglite' | 'postgres';
  /** The PostgreSQL pool (advisory locks of scheduled jobs need a connection of their own). */
  pool?: pg.Pool;
};

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps & { storage: Storage };
    /** Set when the process is shutting down: /api/health answers 503 so a load balancer stops sending. */
    lifecycle: { draining: boolean };
  }
}

export type App = FastifyInstance & ReturnType<FastifyInstance['withTypeProvider']>;

const dbConflict = {
  de: 'Die Daten wurden inzwischen geändert. Bitte neu laden und erneut versuchen.',
  tr: 'Veriler bu arada değişti. Yenileyip tekrar denemek gerekiyor.',
};

/** Statuses that keep their meaning (everything else in 4xx is invalid input: 422), each with its own text. */
const PASS_THROUGH: Record<number, Msg> = {
  405: messages.methodNotAllowed,
  408: messages.requestTimeout,
  413: messages.payloadTooLarge,
  415: messages.unsupportedMedia,
  416: messages.rangeNotSatisfiable,
  429: messages.rateLimited,
  431: messages.headersTooLarge,
};

/** The SQLSTATE of a database error (pg and PGlite errors carry `code`; Drizzle wraps them in `cause`). */
function pgErrorCode(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/** The first field (dotted path) of a parsed request part whose text holds U+0000, if any. */
function nulField(value: unknown, path: string[] = [], depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path.slice(1).join('.') || path[0] || 'body' : undefined;
  if (!value || typeof value !== 'object' || depth > 64) return undefined;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k.includes('\u0000')) return [...path.slice(1), k].join('.') || 'body';
    const found = nulField(v, [...path, k], depth + 1);
    if (found) return found;
  }
  return undefined;
}

/** Where log lines go: anything with write (pino's destination). */
export type LogStream = { write(line: string): void };

/**
 * The request log's settings: passwords, tokens and the Authorization header are never written, and
 * a request's URL only with its bearer secrets hidden (server/lib/redact.ts). `stream`: where the
 * lines go (standard output when not given; the tests capture them).
 */
export function loggerOptions(config: Pick<AppConfig, 'LOG_LEVEL'>, stream?: LogStream) {
  return {
    level: config.LOG_LEVEL,
    redact: { paths: ['req.headers.authorization', '*.password', '*.token', 'password', 'token'], censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
    ...(stream ? { stream } : {}),
  };
}

/**
 * `logStream`: the request log goes there instead of standard output (with the same settings).
 * `checkResponses` (the API tests): every answer is also encoded by zod and compared with the
 * fast serializer's (server/lib/serializer.ts).
 */
export async function buildApp(deps: AppDeps, opts: { logger?: boolean | object; logStream?: LogStream; checkResponses?: boolean } = {}) {
  const app = Fastify({
    logger: opts.logger === undefined ? loggerOptions(deps.config, opts.logStream) : opts.logger,
    bodyLimit: JSON_BODY_LIMIT, // JSON bodies (routes may set less); uploads are multipart with their own limits
    trustProxy: fastifyTrustProxy(deps.config.TRUST_PROXY),
    ...serverTimeouts(deps.config),
    clientErrorHandler,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(createFastSerializerCompiler({ check: opts.checkResponses ?? false }));
  const storage = deps.storage ?? (await createStorage(deps.config, deps.mediaDir));
  if (!deps.storage) app.addHook('onClose', async () => storage.close());
  app.decorate('deps', { ...deps, storage });
  app.decorate('lifecycle', { draining: false });
  // While shutting down every answer closes its connection: a client (or balancer) that kept it
  // open reconnects, to another process; the server's close does not wait on idle keep-alives.
  app.addHook('onSend', async (_req, reply, payload) => {
    if (app.lifecycle.draining) reply.header('connection', 'close');
    return payload;
  });
  limitConnectionsPerAddress(app.server, deps.config.MAX_CONNECTIONS_PER_IP, trustedPeer(deps.config.TRUST_PROXY));
  registerBodyLimits(app, deps.config);

  // Answers over 2 KB go compressed to clients that ask for it (every browser): JSON shrinks to
  // about a tenth, the web app's scripts to what the /login budget counts. Fast settings: the
  // server's CPU matters more than the last percent of size.
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    zlibOptions: { level: GZIP_LEVEL },
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameSrc: ["'self'"],
        frameAncestors: ["'self'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'no-referrer' },
    hsts: false,
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Übungskontrolle API', version: '1.0.0', description: 'Generated from the zod schemas that validate each call.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    // server/lib/openapi.ts: 204 without content, the multipart encoding, empty query values
    transform: openApiTransform,
    transformObject: openApiTransformObject,
  });

  registerAccessControl(app, deps.db);
  const methodTable = methodTableFor(app.routeTable);
  const allowedMethods = methodTable.allowed;
  // A path that belongs to a more specific route of other methods is not this parametric route's
  // (DELETE /api/recordings/inbox is not recording "inbox"): 405 with that path's methods, before
  // the access check, as for any path called with a method it does not have.
  app.addHook('onRequest', async (req, reply) => {
    const url = req.routeOptions.url;
    if (!url?.startsWith('/api/') || !/[:*]/.test(url)) return;
    const path = req.url.split('?')[0] ?? '';
    const owner = methodTable.owner(path);
    if (owner === null || owner === url) return;
    return reply
      .code(405)
      .header('allow', allowedMethods(path).join(', '))
      .send({ message: messages.methodNotAllowed[requestLang(req)] });
  });
  // After the access check (the lookup needs the caller), before the routes (it wraps their handlers).
  registerReadCache(app, { ttlMs: deps.config.READ_CACHE_SECONDS * 1000, timeZone: deps.config.APP_TIMEZONE, cluster: clusterOf(deps.db) });
  // After the access check (keys are per user), before the routes: a repeated Idempotency-Key answers the first answer.
  registerIdempotency(app, deps.db, deps.dbKind);
  // PostgreSQL text cannot hold U+0000: refuse it in any JSON body, query or path field (422),
  // before a handler could try to store it (multipart text fields are caught by the DB mapping below).
  app.addHook('preValidation', async (req) => {
    const field = nulField({ body: req.body, query: req.query, params: req.params });
    if (field) throw invalid({ [field]: messages.validation });
  });

  app.setErrorHandler((err: FastifyError | AppError, req, reply) => {
    const lang = requestLang(req);
    if (err instanceof AppError) {
      if (err.headers) reply.headers(err.headers);
      const errors = err.fieldErrors
        ? Object.fromEntries(Object.entries(err.fieldErrors).map(([k, v]) => [k, v.map((m) => m[lang])]))
        : undefined;
      return reply.code(err.statusCode).send({ message: err.msg[lang], ...(errors ? { errors } : {}), ...(err.extra ?? {}) });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const locale = lang === 'tr' ? localeTr : localeDe;
      const errors: Record<string, string[]> = {};
      for (const v of err.validation) {
        const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.') || (err.validationContext ?? 'body');
        const issue = { code: v.keyword, ...v.params, path: [], message: v.message } as never;
        let text: string | undefined;
        const params = v.params as { minimum?: unknown; origin?: unknown; format?: unknown; keys?: unknown; params?: { msg?: Msg } };
        const missing = v.keyword === 'invalid_type' && /received undefined/.test(v.message ?? '');
        if (v.keyword === 'unrecognized_keys' && Array.isArray(params.keys)) {
          // a parameter (or field) the route does not document: named, one entry each
          const prefix = field === err.validationContext ? '' : `${field}.`;
          for (const key of params.keys.map(String)) {
            // a name like __proto__ or constructor cannot be a key of `errors`: named in the text instead
            if (key in {}) (errors[field] ??= []).push(`${messages.unknownParameter[lang]} (${key.slice(0, 100)})`);
            else (errors[`${prefix}${key}`] ??= []).push(messages.unknownParameter[lang]);
          }
          continue;
        }
        if (params.params?.msg) text = params.params.msg[lang]; // a contract check with its own text (contract/common.ts IssueMsg)
        else if (missing || (v.keyword === 'too_small' && params.minimum === 1 && params.origin === 'string')) text = messages.required[lang];
        else if (v.keyword === 'invalid_format' && params.format === 'email') text = messages.email[lang];
        else try {
          const r = locale.localeError(issue) as string | { message: string } | undefined;
          text = typeof r === 'string' ? r : r?.message;
        } catch {
          text = undefined;
        }
        (errors[field] ??= []).push(text ?? v.message ?? messages.validation[lang]);
      }
      return reply.code(422).send({ message: messages.validation[lang], errors });
    }
    const status = (err as FastifyError).statusCode ?? 500;
    // A path without this method (a body method such as QUERY fails while its body is read): 405/404.
    if (req.is404 && status >= 400 && status < 500 && status !== 413 && status !== 408) return notFound(req, reply);
    if ((err as FastifyError).code === 'FST_REQ_FILE_TOO_LARGE') return reply.code(413).send({ message: messages.payloadTooLarge[lang] });
    const passThrough = PASS_THROUGH[status];
    if (passThrough) return reply.code(status).send({ message: passThrough[lang] });
    if (status >= 400 && status < 500) {
      // Malformed JSON, wrong content type for a body and the like: invalid input.
      req.log.info({ code: (err as FastifyError).code }, 'rejected request');
      return reply.code(status === 404 ? 404 : 422).send({ message: (status === 404 ? messages.notFound : messages.validation)[lang] });
    }
    // Input the database refused (a value out of range, a check constraint, a row that a
    // concurrent request changed): the client's problem, never a 500. Logged for the operator.
    const dbCode = pgErrorCode(err);
    if (dbCode && (dbCode.startsWith('22') || dbCode === '23514')) {
      req.log.warn({ err }, 'input refused by the database');
      return reply.code(422).send({ message: messages.validation[lang] });
    }
    if (dbCode === '23505' || dbCode === '23503' || dbCode === '40001' || dbCode === '40P01') {
      req.log.warn({ err }, 'conflicting write refused by the database');
      return reply.code(409).send({ message: dbConflict[lang] });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.code(500).send({ message: messages.internal[lang] });
  });

  app.get('/api/health', { config: { access: 'public' }, schema: { hide: true } }, async (_req, reply) => {
    // A process that received SIGTERM still serves, but tells the balancer to send nothing new.
    if (app.lifecycle.draining) return reply.code(503).header('cache-control', 'no-store').send({ status: 'draining' });
    await deps.db.execute('select 1' as never);
    return reply.header('cache-control', 'no-store').send({ status: 'ok' });
  });

  for (const mod of modules) await app.register(mod);

  app.get('/api/docs', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  // The built web app, with index.html for client routes (never for /api/* or missing /assets/*).
  const staticDir = resolve(deps.config.STATIC_DIR);
  const indexFile = join(staticDir, 'index.html');
  const hasWeb = existsSync(indexFile);
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: staticDir,
      index: false,
      wildcard: true,
      cacheControl: false, // set below: hashed assets for a year, everything else revalidated
      // The build's `.br` and `.gz` of each script and stylesheet (vite.config.ts), compressed harder
      // than the on-the-fly compression below can afford; other files as before.
      preCompressed: true,
      // A folder ('/', '/assets/') is not a file: without this, send answers 403 (shown as 422) instead of the app page.
      allowedPath: (pathName: string) => !pathName.endsWith('/'),
      setHeaders: (res, path) => {
        if (path.includes(`${join(staticDir, 'assets')}`)) {
          res.setHeader('cache-control', 'public, max-age=31536000, immutable');
          // The answer depends on the encodings the client takes (the build's .br or .gz, or the file).
          res.setHeader('vary', 'Accept-Encoding');
        } else res.setHeader('cache-control', 'no-cache');
        // docs/decisions/offline-practice.md: the service worker is always revalidated (a new version must be found) and
        // controls the whole site; the manifest with its registered type.
        if (path === join(staticDir, 'sw.js')) res.setHeader('service-worker-allowed', '/');
        if (path.endsWith('.webmanifest')) res.setHeader('content-type', 'application/manifest+json; charset=utf-8');
      },
    });
  }
  let indexHtml: string | undefined;
  app.setNotFoundHandler((req, reply) => notFound(req, reply));
  function notFound(req: FastifyRequest, reply: FastifyReply) {
    const lang = requestLang(req);
    const path = req.url.split('?')[0] ?? '';
    // An existing path called with another method: 405 with the methods it has (public: /api/docs lists them).
    const allow = path.startsWith('/api/') ? allowedMethods(path) : [];
    if (allow.length && !allow.includes(req.method)) {
      return reply.code(405).header('allow', allow.join(', ')).send({ message: messages.methodNotAllowed[lang] });
    }
    const wantsPage = (req.method === 'GET' || req.method === 'HEAD') && !path.startsWith('/api/') && !path.startsWith('/assets/') && hasWeb;
    if (!wantsPage) return reply.code(404).send({ message: messages.notFound[lang] });
    indexHtml ??= readFileSync(indexFile, 'utf8');
    return reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  }

  return app;
}
