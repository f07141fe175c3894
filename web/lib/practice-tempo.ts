/**
 * The tempo the metronome last ran at, shared between features without importing each other
 * (docs/decisions/exercise-settings.md): the practice tools write it, the practice timer reads it when a session stops and
 * sends it as `tempo_bpm` (POST /api/practice-sessions/{id}/stop), "the tempo reached".
 *
 * Tools (metronome): `setPracticeTempo(bpm, true)` when it starts and on every tempo change while
 * it runs; `setPracticeTempo(bpm, false)` when it stops. `clearPracticeTempo()` when the tools
 * unmount or switch to another task.
 * Timer: `getPracticeTempo(session.started_at)` at stop: the tempo if the metronome runs now or
 * ran after the session started, else null (then the stop sends no tempo).
 */
import { TEMPO_RANGE } from '@contract/music-keys';

export type PracticeTempo = { bpm: number; running: boolean; at: number };
type Listener = (tempo: PracticeTempo | null) => void;

let current: PracticeTempo | null = null;
const listeners = new Set<Listener>();

/** A whole BPM within TEMPO_RANGE, or null for anything else. */
export function validTempo(bpm: unknown): number | null {
  if (typeof bpm !== 'number' || !Number.isFinite(bpm)) return null;
  const n = Math.round(bpm);
  return n >= TEMPO_RANGE.min && n <= TEMPO_RANGE.max ? n : null;
}

/** The metronome's tempo and whether it runs; `now` for tests. */
export function setPracticeTempo(bpm: number, running: boolean, now: number = Date.now()): void {
  const valid = validTempo(bpm);
  current = valid === null ? null : { bpm: valid, running, at: now };
  for (const l of listeners) l(current);
}

export function clearPracticeTempo(): void {
  current = null;
  for (const l of listeners) l(null);
}

/**
 * The tempo to keep on a session that started at `since` (ISO time or ms): the metronome's tempo
 * if it runs now or ran after that moment; null otherwise. Without `since`, the last tempo.
 */
export function getPracticeTempo(since?: string | number): number | null {
  if (!current) return null;
  if (since === undefined || current.running) return current.bpm;
  const from = typeof since === 'number' ? since : Date.parse(since);
  return Number.isFinite(from) && current.at >= from ? current.bpm : null;
}

/** For a component that shows the tempo; returns the unsubscribe function. */
export function subscribePracticeTempo(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}
