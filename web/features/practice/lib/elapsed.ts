import { PRACTICE_SESSION_CAP_MINUTES } from '@contract/constants';

export const CAP_SECONDS = PRACTICE_SESSION_CAP_MINUTES * 60;

/**
 * Seconds a running session has lasted, always from the server's `started_at` (so a reload, a
 * second tab or a phone waking up shows the true time), never below 0 and never above the
 * 180 minutes the server counts. `skewMs` is how far this device's clock runs ahead of the server's.
 */
export function elapsedSeconds(startedAt: string, nowMs: number, skewMs = 0): number {
  const start = Date.parse(startedAt);
  if (Number.isNaN(start)) return 0;
  const s = Math.floor((nowMs - skewMs - start) / 1000);
  return Math.min(CAP_SECONDS, Math.max(0, s));
}

/** True once a running session has reached the cap (the server will record 180 minutes). */
export function reachedCap(startedAt: string, nowMs: number, skewMs = 0): boolean {
  return elapsedSeconds(startedAt, nowMs, skewMs) >= CAP_SECONDS;
}

/**
 * The device's clock offset from the server, measured on the answer to a start call: the server
 * set `started_at` to its own now while the request was in flight (between sentAt and receivedAt).
 * Offsets within the request's round trip are treated as none.
 */
export function estimateSkew(startedAt: string, sentAtMs: number, receivedAtMs: number): number {
  const server = Date.parse(startedAt);
  if (Number.isNaN(server)) return 0;
  if (server >= sentAtMs - 1000 && server <= receivedAtMs + 1000) return 0;
  return Math.round((sentAtMs + receivedAtMs) / 2 - server);
}
