/**
 * The one AudioContext of the practice tools (metronome, drone, tuner): created on first use (after
 * a user gesture), kept running while a tool needs it. Browsers suspend a context when a tab is
 * hidden or the screen turns off (iOS Safari: state 'interrupted', cwilso/metronome#25): while a
 * tool holds it, we resume on 'visibilitychange' and 'statechange', and recreate the context when
 * it was closed or will not resume; listeners then rebuild their nodes on the new clock.
 */

type Listener = (ctx: AudioContext) => void;

let ctx: AudioContext | null = null;
let holders = 0;
const listeners = new Set<Listener>();

function create(): AudioContext {
  const Ctor = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Ctor) throw new Error('Web Audio is not supported');
  const next = new Ctor({ latencyHint: 'interactive' });
  next.addEventListener('statechange', () => {
    const state = next.state as string;
    if (holders > 0 && next === ctx && (state === 'suspended' || state === 'interrupted')) void revive();
  });
  return next;
}

/** The shared context (created if needed). */
export function audioContext(): AudioContext {
  if (!ctx || ctx.state === 'closed') {
    const replaced = ctx !== null;
    ctx = create();
    if (replaced) listeners.forEach((l) => l(ctx as AudioContext));
  }
  return ctx;
}

/** Resumes the context; recreates it when resuming fails or does not take (only while visible). */
async function revive(): Promise<void> {
  const current = audioContext();
  if ((current.state as string) === 'running') return;
  try {
    await Promise.race([current.resume(), new Promise((r) => setTimeout(r, 400))]);
  } catch {
    /* recreated below */
  }
  if ((current.state as string) !== 'running' && document.visibilityState === 'visible' && holders > 0) {
    void current.close().catch(() => undefined);
    ctx = create();
    listeners.forEach((l) => l(ctx as AudioContext));
    void ctx.resume().catch(() => undefined);
  }
}

function onVisibility() {
  if (document.visibilityState === 'visible' && holders > 0) void revive();
}

/**
 * A tool that plays or listens holds the context; call the returned function to let go. Resolves
 * once the context runs (call it from a click: browsers start audio only after a gesture).
 */
export async function holdAudio(): Promise<{ ctx: AudioContext; release: () => void }> {
  const c = audioContext();
  holders += 1;
  if (holders === 1) document.addEventListener('visibilitychange', onVisibility);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    holders -= 1;
    if (holders === 0) document.removeEventListener('visibilitychange', onVisibility);
  };
  if ((c.state as string) !== 'running') await c.resume().catch(() => undefined);
  return { ctx: audioContext(), release };
}

/** Called with the new context when the shared one had to be recreated. */
export function onAudioContextReplaced(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/**
 * Decodes a file's bytes at `sampleRate` with an `OfflineAudioContext`: the browser decodes off the
 * main thread and no audio output is started (a real-time context would start one only to decode).
 * Rejects where there is no Web Audio or the bytes are not a format the browser decodes.
 */
export async function decodeOffline(bytes: ArrayBuffer, sampleRate: number): Promise<AudioBuffer> {
  const Offline = globalThis.OfflineAudioContext as typeof OfflineAudioContext | undefined;
  if (!Offline) throw new Error('no OfflineAudioContext');
  return new Offline(1, 1, sampleRate).decodeAudioData(bytes);
}
