import { BlockList, isIP, type Socket } from 'node:net';
import type { Server } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config';
import { AppError, messages, type Msg } from '../errors';

/**
 * What the server accepts from one client, and for how long it waits (docs/decisions/0012-request-limits.md):
 * body sizes, JSON depth, time for headers and bodies, idle connections, connections per address.
 */

/** JSON bodies: the largest real one (an assignment to 500 students with a 2,000-character note) is under 20 KB. */
export const JSON_BODY_LIMIT = 64 * 1024;
/** Sign-in: an e-mail (254) and a password (200 characters). */
export const LOGIN_BODY_LIMIT = 4 * 1024;
/** No real body nests deeper than 3; refused before JSON.parse runs. */
export const JSON_MAX_DEPTH = 16;
/** An upload may take this long in all (it is cut earlier when it stalls: IDLE_TIMEOUT_SECONDS). */
export const UPLOAD_TOTAL_MS = 60 * 60 * 1000;

/** True when the JSON text opens more than `max` arrays/objects inside each other (strings skipped). */
export function jsonTooDeep(text: string, max = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** The timeout options of Fastify and node's http server for these settings. */
export function serverTimeouts(config: AppConfig) {
  const headersMs = Math.round(config.REQUEST_TIMEOUT_SECONDS * 1000);
  return {
    // Socket idle time: nothing received or sent for this long closes the connection.
    connectionTimeout: Math.round(config.IDLE_TIMEOUT_SECONDS * 1000),
    // node's total time for a whole request; uploads are the long ones (others: bodyDeadline below).
    requestTimeout: UPLOAD_TOTAL_MS,
    http: {
      headersTimeout: headersMs,
      requestTimeout: UPLOAD_TOTAL_MS,
      // How often node looks for requests past their time (default 30 s, too coarse for small timeouts).
      connectionsCheckingInterval: Math.min(5000, Math.max(50, Math.round(headersMs / 5))),
    },
  };
}

/**
 * TRUST_PROXY as Fastify's `trustProxy`: a hop count n trusts the n nearest hops (what Fastify does
 * with a number, whose type it does not declare).
 */
export function fastifyTrustProxy(trust: AppConfig['TRUST_PROXY']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address: string, hop: number) => hop < trust : trust;
}

const RANGE_NAMES: Record<string, Array<[string, number, 'ipv4' | 'ipv6']>> = {
  loopback: [['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']],
  linklocal: [['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']],
  uniquelocal: [['10.0.0.0', 8, 'ipv4'], ['172.16.0.0', 12, 'ipv4'], ['192.168.0.0', 16, 'ipv4'], ['fc00::', 7, 'ipv6']],
};

/** Whether a socket's address is a proxy that TRUST_PROXY names (`true` or a hop count: every peer is one). */
export function trustedPeer(trust: AppConfig['TRUST_PROXY']): (address: string) => boolean {
  if (trust === false) return () => false;
  if (trust === true || typeof trust === 'number') return () => true;
  const list = new BlockList();
  for (const entry of trust) {
    const named = RANGE_NAMES[entry];
    if (named) {
      for (const [net, prefix, type] of named) list.addSubnet(net, prefix, type);
      continue;
    }
    const [addr = '', prefix] = entry.split('/');
    const type = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(addr, type);
    else list.addSubnet(addr, Number(prefix), type);
  }
  return (address) => {
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const type = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
    return isIP(plain) !== 0 && list.check(plain, type);
  };
}

/**
 * At most `max` open connections per remote address (0: no cap); the next one is closed at once.
 * Connections of a trusted proxy are not counted: behind it every client has the proxy's address.
 */
export function limitConnectionsPerAddress(server: Server, max: number, trusted: (address: string) => boolean): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || trusted(address)) return;
    const n = open.get(address) ?? 0;
    if (n >= max) {
      socket.destroy();
      return;
    }
    open.set(address, n + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
}

/** A raw HTTP answer for a socket that is closed right after (no request object to answer through). */
function rawAnswer(status: number, reason: string, msg: Msg): string {
  const body = JSON.stringify({ message: msg.de });
  return `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/**
 * Fastify's clientErrorHandler: errors before there is a request (headers too slow or too large,
 * garbage) answer in the app's error format, then the connection closes.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.write(rawAnswer(408, 'Request Timeout', messages.requestTimeout));
    else if (err.code === 'HPE_HEADER_OVERFLOW') socket.write(rawAnswer(431, 'Request Header Fields Too Large', messages.headersTooLarge));
    else socket.write(rawAnswer(400, 'Bad Request', messages.badRequest));
  }
  socket.destroy();
}

function hasBody(req: FastifyRequest): boolean {
  const len = req.headers['content-length'];
  return (len !== undefined && len !== '0') || req.headers['transfer-encoding'] !== undefined;
}

/**
 * Body rules for every route: JSON bodies at most JSON_BODY_LIMIT (routes may set less), never
 * nested deeper than JSON_MAX_DEPTH (checked on the text, before JSON.parse), and a body other than
 * a multipart upload must arrive within REQUEST_TIMEOUT_SECONDS of its headers (node's own
 * request timeout is the long one of uploads, which are cut when they stall instead).
 */
export function registerBodyLimits(app: FastifyInstance, config: AppConfig): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (jsonTooDeep(text)) {
      done(new AppError(422, messages.validation, { body: [messages.tooDeep] }), undefined);
      return;
    }
    parseJson(req, text, done);
  });

  const deadlineMs = Math.round(config.REQUEST_TIMEOUT_SECONDS * 1000);
  app.addHook('onRequest', async (req, reply) => {
    if (!hasBody(req) || /^multipart\//i.test(req.headers['content-type'] ?? '')) return;
    const raw = req.raw;
    if (raw.complete) return;
    const timer = setTimeout(() => {
      if (raw.complete) return;
      const socket = raw.socket;
      req.log.info('request body too slow: connection closed');
      if (socket.writable && !socket.destroyed) socket.write(rawAnswer(408, 'Request Timeout', messages.requestTimeout));
      // (app.inject's stand-in socket has no destroy)
      if (typeof socket.destroy === 'function') socket.destroy();
    }, deadlineMs);
    timer.unref();
    const stop = () => clearTimeout(timer);
    raw.once('end', stop);
    raw.once('close', stop);
    // Answered before the body was read (401, 403, 413 …): the body no longer matters.
    reply.raw.once('finish', stop);
    reply.raw.once('close', stop);
  });
}
