/**
 * getUserMedia's refusals, each with its own message (RECORDINGS.md): shared by the recorder and
 * the tuner. The texts live in each feature's namespace under the same keys.
 */
export type PermissionProblem = 'notFound' | 'denied' | 'inUse' | 'unsupported' | 'other';

export function permissionProblem(err: unknown): PermissionProblem {
  const name = err && typeof err === 'object' && 'name' in err ? String((err as { name: unknown }).name) : '';
  if (name === 'NotFoundError' || name === 'DevicesNotFoundError' || name === 'OverconstrainedError') return 'notFound';
  if (name === 'NotAllowedError' || name === 'PermissionDeniedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotReadableError' || name === 'TrackStartError' || name === 'AbortError') return 'inUse';
  return 'other';
}

/** Music, not a call: no echo cancellation, noise suppression or automatic gain (they flatten a tone). */
export const MUSIC_AUDIO_CONSTRAINTS: MediaTrackConstraints = { echoCancellation: false, noiseSuppression: false, autoGainControl: false };
