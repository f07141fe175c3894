import type { FastifyRequest } from 'fastify';
import type { Lang, Msg } from '../errors';

/** Turkish when the request says language=tr or Accept-Language prefers tr; German otherwise. */
export function requestLang(req: FastifyRequest): Lang {
  const q = req.query as Record<string, unknown> | undefined;
  if (q && typeof q.language === 'string') return q.language === 'tr' ? 'tr' : 'de';
  const al = req.headers['accept-language'];
  if (typeof al === 'string' && /^\s*tr\b/i.test(al)) return 'tr';
  return 'de';
}

export function t(req: FastifyRequest, msg: Msg): string {
  return msg[requestLang(req)];
}
