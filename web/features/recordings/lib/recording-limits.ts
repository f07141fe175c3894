import { RECORDING_AUDIO_TYPES, RECORDING_LIMITS, RECORDING_VIDEO_TYPES, type RecordingKind } from '@contract/recordings-limits';

/** What the browser calls a type, as the server names it ('' when it says nothing). */
export function normaliseType(raw: string): string {
  const base = raw.split(';')[0]?.trim().toLowerCase() ?? '';
  const aliases: Record<string, string> = {
    'audio/x-m4a': 'audio/mp4',
    'audio/m4a': 'audio/mp4',
    'audio/aac': 'audio/mp4',
    'audio/x-wav': 'audio/wav',
    'audio/wave': 'audio/wav',
    'audio/vnd.wave': 'audio/wav',
    'audio/mp3': 'audio/mpeg',
    'audio/opus': 'audio/ogg',
  };
  return aliases[base] ?? base;
}

export function kindOfType(type: string): RecordingKind {
  return normaliseType(type).startsWith('video/') ? 'video' : 'audio';
}

export type LimitProblem = { key: 'tooLarge' } | { key: 'tooLongAudio' } | { key: 'tooLongVideo' } | { key: 'badType'; type: string };

/**
 * The limits of RECORDINGS.md, checked before sending (the server checks them again on the bytes).
 * A type the browser does not name is left to the server.
 */
export function checkLimits(take: { size: number; type: string; durationMs: number | null }): LimitProblem | null {
  const type = normaliseType(take.type);
  const known = [...RECORDING_AUDIO_TYPES, ...RECORDING_VIDEO_TYPES] as readonly string[];
  if (type && !known.includes(type)) return { key: 'badType', type };
  if (take.size > RECORDING_LIMITS.maxBytes) return { key: 'tooLarge' };
  const kind = kindOfType(type);
  const max = kind === 'video' ? RECORDING_LIMITS.videoMaxMs : RECORDING_LIMITS.audioMaxMs;
  if (take.durationMs !== null && take.durationMs > max) return { key: kind === 'video' ? 'tooLongVideo' : 'tooLongAudio' };
  return null;
}

/** The longest take of a kind, in ms. */
export const maxLengthMs = (kind: RecordingKind) => (kind === 'video' ? RECORDING_LIMITS.videoMaxMs : RECORDING_LIMITS.audioMaxMs);

/**
 * The recorder's format: Opus in WebM where offered (Chrome, Firefox), AAC in MP4 on Safari;
 * '' lets the browser choose.
 */
export function pickMimeType(kind: RecordingKind, isTypeSupported: (type: string) => boolean): string {
  const candidates =
    kind === 'video'
      ? ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4;codecs=avc1,mp4a.40.2', 'video/mp4']
      : ['audio/webm;codecs=opus', 'audio/webm', 'audio/mp4;codecs=mp4a.40.2', 'audio/mp4', 'audio/ogg;codecs=opus'];
  return candidates.find((c) => isTypeSupported(c)) ?? '';
}

/** The file extension the upload's name gets (the server reads the type from the bytes anyway). */
export function extensionFor(type: string): string {
  const t = normaliseType(type);
  if (t.endsWith('/webm')) return 'webm';
  if (t === 'audio/mp4') return 'm4a';
  if (t === 'video/mp4') return 'mp4';
  if (t === 'video/quicktime') return 'mov';
  if (t === 'audio/ogg') return 'ogg';
  if (t === 'audio/mpeg') return 'mp3';
  if (t === 'audio/wav') return 'wav';
  return 'bin';
}

/** getUserMedia's refusals (shared with the tuner in web/lib/microphone.ts). */
export { permissionProblem, type PermissionProblem } from '@web/lib/microphone';
