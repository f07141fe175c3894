import { z } from 'zod';
import { errorResponsesOf, languageQuery } from './common';
import { UPLOAD_MIME_TYPES } from './constants';
import { RECORDING_MIME_TYPES } from './recordings';

/** GET /api/media/{url-encoded path}: the path as stored, e.g. exercises/12/media/3f…a9.png. */
export const mediaLinkParams = z.object({ '*': z.string().min(1).max(500) });

export const mediaLinkResponse = z.object({ url: z.string() }).meta({ id: 'MediaLink' });
export type MediaLinkResponse = z.infer<typeof mediaLinkResponse>;

/** The signed link: expiry (unix seconds), signature, and ?download=1 for an attachment. A missing or malformed signature answers 403. */
export const mediaFileQuery = z.strictObject({
  language: languageQuery,
  exp: z.string().max(20).optional(),
  sig: z.string().max(100).optional(),
  download: z.string().max(10).optional(),
});

/** The bytes of a media file, in its stored type. */
const mediaBytes = (description: string) => ({
  description,
  content: Object.fromEntries([...UPLOAD_MIME_TYPES, ...RECORDING_MIME_TYPES].map((type) => [type, { schema: z.any().meta({ type: 'string', format: 'binary' }) }])),
});

/**
 * The answers of the signed link GET /api/media-file/{path}?exp=…&sig=…: the file (200), a
 * part of it for a `Range` header (206), 403 for a missing, wrong or expired signature, 404,
 * 416 for a range outside the file, 422 for a bad parameter.
 */
export const mediaFileResponses = {
  200: mediaBytes('The whole file (Accept-Ranges: bytes).'),
  206: mediaBytes('The requested range (Content-Range).'),
  ...errorResponsesOf(403, 404, 416),
};

/** A signed media link stays valid this long. */
export const MEDIA_LINK_TTL_SECONDS = 3600;

/** Where a stored media path lives: exercises/{exerciseId}/media/{random name}.{ext} */
export const STORED_MEDIA_PATH = /^exercises\/[1-9]\d{0,9}\/media\/[a-f0-9]{32}\.(?:jpg|png|gif|webp|mp4|avi|mov|webm|mkv|pdf)$/;

/**
 * SPEC.md section 7 media address rule: a path without the exercises/ prefix becomes
 * exercises/{exerciseId}/media/{file} (1 as fallback id); the result is URL-encoded.
 */
export function mediaApiPath(path: string, exerciseId?: number | null): string {
  const full = path.startsWith('exercises/') ? path : `exercises/${exerciseId ?? 1}/media/${path}`;
  return `/api/media/${encodeURIComponent(full)}`;
}
