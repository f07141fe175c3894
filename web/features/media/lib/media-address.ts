/** The same signed link, served as a download (`download=1`). */
export function downloadUrl(url: string): string {
  const base = typeof window !== 'undefined' ? window.location.origin : 'http://localhost';
  const u = new URL(url, base);
  u.searchParams.set('download', '1');
  // keep a relative link relative
  return /^https?:\/\//i.test(url) ? u.toString() : `${u.pathname}${u.search}${u.hash}`;
}

const VIDEO_TYPES: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  avi: 'video/x-msvideo',
  mov: 'video/quicktime',
  wmv: 'video/x-ms-wmv',
  flv: 'video/x-flv',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
};

/** The lower-case extension of a file name or path ('' when there is none). */
export function extensionOf(name: string): string {
  const base = name.split(/[?#]/)[0]?.split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** SPEC.md section 9: the video type by extension; mp4 by default. */
export function videoTypeFor(name: string): string {
  return VIDEO_TYPES[extensionOf(name)] ?? 'video/mp4';
}

/**
 * The <source> list of a video: the type the server sniffed from the bytes first, then the type
 * by the original name's extension, then by the stored path's, without duplicates.
 */
export function videoSourceTypes(file: { filename: string; path: string; mime_type?: string | null }): string[] {
  const types = [file.mime_type && file.mime_type.startsWith('video/') ? file.mime_type : null, videoTypeFor(file.filename), videoTypeFor(file.path)];
  return [...new Set(types.filter((x): x is string => Boolean(x)))];
}

/**
 * SPEC.md's media address rule: the path URL-encoded; without the exercises/ prefix it becomes
 * exercises/{exerciseId}/media/{file} (1 as fallback id). Kept here, not imported from the
 * contract module, so the task screen's chunk does not carry zod.
 */
export function mediaApiPath(path: string, exerciseId?: number | null): string {
  const full = path.startsWith('exercises/') ? path : `exercises/${exerciseId ?? 1}/media/${path}`;
  return `/api/media/${encodeURIComponent(full)}`;
}
