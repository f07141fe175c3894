import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponsesOf } from '@contract/common';
import { mediaFileQuery, mediaFileResponses, mediaLinkParams, mediaLinkResponse } from '@contract/media';
import { AppError, forbidden, notFound, type Msg } from '../../errors';
import { currentUser } from '../../lib/auth';
import { NotStoredError } from '../../lib/storage';
import {
  contentDisposition,
  findMediaByPath,
  findVisibleMedia,
  isMediaPath,
  parseRange,
  signMediaUrl,
  verifyMediaSignature,
  withTypeExtension,
} from './media.service';

const text: Record<'expired' | 'badSignature' | 'range', Msg> = {
  expired: { de: 'Der Link ist abgelaufen. Bitte die Datei erneut öffnen.', tr: 'Bağlantının süresi doldu. Dosya yeniden açılmalı.' },
  badSignature: { de: 'Der Link ist ungültig.', tr: 'Bağlantı geçersiz.' },
  range: { de: 'Der angeforderte Bereich ist nicht verfügbar.', tr: 'İstenen aralık mevcut değil.' },
};

/** Media files are images, videos and PDFs: nothing in them may run scripts or load other things. */
const MEDIA_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; object-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'self'";

export default async function mediaRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const storage = app.deps.storage;

  app.get(
    '/api/media/*',
    {
      config: { access: 'any' },
      schema: {
        tags: ['media'],
        description:
          'A signed link (one hour) to a media file of an exercise: for its teacher, a student with a task of it, or a guardian of such a student; ' +
          "to a recording: for its student, their teacher and their guardians. An administrator's call answers 403.",
        params: mediaLinkParams,
        querystring: mediaFileQuery.pick({ language: true }),
        response: { 200: mediaLinkResponse, ...errorResponsesOf(401, 403, 404) },
      },
    },
    async (req) => {
      const user = currentUser(req);
      // Teachers, students and guardians (docs/decisions/schools-and-roles.md); the administration opens no one's files.
      if (user.role === 'admin') throw forbidden();
      const path = req.params['*'];
      if (!isMediaPath(path)) throw notFound();
      const media = await findVisibleMedia(app.deps.db, user, path);
      if (!media) throw notFound();
      return { url: signMediaUrl(app.deps.secret, media.path) };
    },
  );

  app.get(
    '/api/media-file/*',
    {
      config: { access: 'public' },
      schema: {
        tags: ['media'],
        security: [],
        description: 'The file behind a signed link from GET /api/media/{path} (no sign-in: the signature is the permission). Supports Range.',
        params: mediaLinkParams,
        querystring: mediaFileQuery,
        response: mediaFileResponses,
      },
    },
    async (req, reply) => {
      const path = req.params['*'];
      // Refused before anything is touched: only stored-media paths, only a valid signature.
      if (!isMediaPath(path)) throw notFound();
      // Signed over its decimal value: any other spelling (1e9, 0x…, +1, spaces) is another link.
      const exp = /^[1-9][0-9]{0,14}$/.test(req.query.exp ?? '') ? Number(req.query.exp) : NaN;
      const check =
        req.query.sig && Number.isSafeInteger(exp) && exp > 0
          ? verifyMediaSignature(app.deps.secret, path, exp, req.query.sig)
          : 'bad-signature';
      if (check !== 'ok') throw new AppError(403, check === 'expired' ? text.expired : text.badSignature);
      const media = await findMediaByPath(app.deps.db, path);
      if (!media) throw notFound();
      const st = await storage.stat(media.path);
      if (!st) throw notFound();

      const size = st.size;
      const range = parseRange(req.headers.range, size);
      if (range === 'unsatisfiable') {
        throw new AppError(416, text.range, undefined, undefined, { 'content-range': `bytes */${size}`, 'accept-ranges': 'bytes' });
      }
      const remaining = Math.max(0, exp - Math.floor(Date.now() / 1000));
      reply
        .header('content-type', media.mime_type)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', MEDIA_CSP)
        .header('accept-ranges', 'bytes')
        .header('cache-control', `private, max-age=${remaining}`)
        .header('last-modified', st.mtime.toUTCString())
        // Saved under the extension of its real type, whatever name it was uploaded with.
        .header('content-disposition', contentDisposition(req.query.download === '1' ? 'attachment' : 'inline', withTypeExtension(media.filename, media.mime_type)));

      // Opened before the status is sent: a file deleted since stat() is a 404, not a broken body.
      const body = await storage.open(media.path, range ?? undefined).catch((e: unknown) => {
        throw e instanceof NotStoredError ? notFound() : e;
      });
      if (range) {
        return reply
          .code(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
          .header('content-length', String(range.end - range.start + 1))
          .send(body);
      }
      return reply.code(200).header('content-length', String(size)).send(body);
    },
  );
}

