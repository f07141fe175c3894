import type { FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import type { AppConfig } from '../config';

/**
 * The origin of the links the server hands out (invitations, calendar addresses and the task links
 * inside a calendar), docs/decisions/public-url.md. Never taken from the request's `Host` (or a
 * forwarded host) alone: a forged header would make an invitation e-mail point elsewhere and hand
 * its token to whoever runs that address.
 * - `PUBLIC_URL` set: always that.
 * - unset: the request's own origin when it names this machine (localhost, 127.0.0.0/8, ::1: a
 *   developer, the tests, a school running it on one computer), else `http://localhost:PORT`
 *   (main.ts warns at start when the server listens beyond loopback without PUBLIC_URL).
 */
export function publicOrigin(req: FastifyRequest, config: Pick<AppConfig, 'PUBLIC_URL' | 'PORT'>): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL;
  const port = req.host.slice(req.hostname.length);
  if (isLoopbackName(req.hostname) && /^(:\d{1,5})?$/.test(port)) return `${req.protocol === 'https' ? 'https' : 'http'}://${req.hostname}${port}`;
  return `http://localhost:${config.PORT}`;
}

/** localhost (and *.localhost, RFC 6761), 127.0.0.0/8, ::1. */
export function isLoopbackName(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) === 6) return h === '::1' || h === '0:0:0:0:0:0:0:1';
  return false;
}
