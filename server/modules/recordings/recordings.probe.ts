import type { RecordingKind, RecordingMimeType } from '@contract/recordings';
import { probeMedia } from '../../lib/media-guard';

/**
 * What a recording's own bytes say: its type (audio or video, from the container and its
 * tracks) and, where the format tells, its length. Never the name or the declared type. The
 * bytes are read only through the media guard (server/lib/media-guard.ts), which refuses a file
 * over its bounds with a 422 (docs/decisions/media-parser-guard.md).
 */
export type Probe =
  | { ok: true; mime: RecordingMimeType; ext: string; kind: RecordingKind; durationMs: number | null }
  | { ok: false; detected: string | null };

type Family = 'wav' | 'mpeg' | 'ogg' | 'webm' | 'mp4' | 'mov';

/** file-type's names → the container family. */
const FAMILIES: Record<string, Family> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/vnd.wave': 'wav',
  'audio/wave': 'wav',
  'audio/mpeg': 'mpeg',
  'audio/ogg': 'ogg',
  'audio/opus': 'ogg',
  'audio/x-vorbis+ogg': 'ogg',
  'audio/webm': 'webm',
  'video/webm': 'webm',
  'audio/mp4': 'mp4',
  'audio/x-m4a': 'mp4',
  'audio/m4a': 'mp4',
  'video/mp4': 'mp4',
  'video/x-m4v': 'mp4',
  'video/quicktime': 'mov',
};

const TYPES: Record<Family, { audio: [RecordingMimeType, string]; video: [RecordingMimeType, string] | null }> = {
  wav: { audio: ['audio/wav', 'wav'], video: null },
  mpeg: { audio: ['audio/mpeg', 'mp3'], video: null },
  ogg: { audio: ['audio/ogg', 'ogg'], video: null },
  webm: { audio: ['audio/webm', 'webm'], video: ['video/webm', 'webm'] },
  mp4: { audio: ['audio/mp4', 'm4a'], video: ['video/mp4', 'mp4'] },
  mov: { audio: ['audio/mp4', 'm4a'], video: ['video/quicktime', 'mov'] },
};

export async function probeRecording(file: string): Promise<Probe> {
  const p = await probeMedia(file, { deep: true });
  const detected = p.mime;
  const family = detected ? FAMILIES[detected] : undefined;
  if (!family || p.unreadable) return { ok: false, detected };
  const hasVideo = p.hasVideo ?? false;
  const seconds = p.seconds ?? undefined;
  const type = hasVideo ? TYPES[family].video : TYPES[family].audio;
  if (!type) return { ok: false, detected: `video/${family}` };
  const durationMs = seconds !== undefined && Number.isFinite(seconds) && seconds >= 0 ? Math.round(seconds * 1000) : null;
  return { ok: true, mime: type[0], ext: type[1], kind: hasVideo ? 'video' : 'audio', durationMs };
}
