/**
 * The practice timer as the practice screen hands it to the run recorder ('Diesen Durchgang
 * aufnehmen'): the timer lives in features/practice, the recorder in features/recordings, and
 * features do not import each other, so the screen passes this between them.
 */
export type PracticeRun = {
  /** Whether the timer runs (on the server, or timed on this device without a connection). */
  running: boolean;
  /** The running session's id on the server; null while none runs or while it is timed on this device only. */
  sessionId: number | null;
  /** Starts the timer; resolves to whether it runs then, and the session's server id. */
  start: () => Promise<{ running: boolean; sessionId: number | null }>;
};
