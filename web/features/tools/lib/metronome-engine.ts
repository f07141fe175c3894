import { audioContext, holdAudio, onAudioContextReplaced } from '@web/lib/audio';
import { LOOKAHEAD_S, LookaheadScheduler, TICK_MS, clampTempo } from './scheduler';

export type ClickKind = 'accent' | 'normal' | 'dum' | 'tek';
export type StepKind = ClickKind | 'rest';

export type ScheduledClick = { time: number; kind: ClickKind; step: number; index: number };

declare global {
  interface Window {
    /** Tests only: when set, every scheduled click's AudioContext time and kind is recorded here. */
    __ukAudioTestHook?: { clicks: ScheduledClick[]; skipped?: number; maxTickGap?: number };
  }
}

/**
 * Synthesised clicks (no samples to load), each with its own envelope so they never click at the
 * edges: accent/normal are short high blips (1.6 / 1.1 kHz); düm a low, strong membrane (a 120 Hz
 * sine falling to 60 Hz); tek a light, bright noise burst through a band-pass at 3 kHz.
 */
function playClick(ctx: AudioContext, out: AudioNode, kind: ClickKind, time: number, noise: AudioBuffer): void {
  const env = ctx.createGain();
  env.connect(out);
  if (kind === 'tek') {
    const src = ctx.createBufferSource();
    src.buffer = noise;
    const bp = ctx.createBiquadFilter();
    bp.type = 'bandpass';
    bp.frequency.value = 3000;
    bp.Q.value = 1.2;
    src.connect(bp).connect(env);
    env.gain.setValueAtTime(0.0001, time);
    env.gain.exponentialRampToValueAtTime(0.9, time + 0.002);
    env.gain.exponentialRampToValueAtTime(0.0001, time + 0.06);
    src.start(time);
    src.stop(time + 0.07);
    const blip = ctx.createOscillator();
    blip.frequency.value = 2200;
    const g = ctx.createGain();
    blip.connect(g).connect(out);
    g.gain.setValueAtTime(0.0001, time);
    g.gain.exponentialRampToValueAtTime(0.25, time + 0.002);
    g.gain.exponentialRampToValueAtTime(0.0001, time + 0.03);
    blip.start(time);
    blip.stop(time + 0.04);
    return;
  }
  const osc = ctx.createOscillator();
  osc.connect(env);
  if (kind === 'dum') {
    osc.type = 'sine';
    osc.frequency.setValueAtTime(120, time);
    osc.frequency.exponentialRampToValueAtTime(60, time + 0.18);
    env.gain.setValueAtTime(0.0001, time);
    env.gain.exponentialRampToValueAtTime(1, time + 0.004);
    env.gain.exponentialRampToValueAtTime(0.0001, time + 0.25);
    osc.start(time);
    osc.stop(time + 0.26);
    return;
  }
  osc.type = 'square';
  osc.frequency.value = kind === 'accent' ? 1600 : 1100;
  env.gain.setValueAtTime(0.0001, time);
  env.gain.exponentialRampToValueAtTime(kind === 'accent' ? 0.5 : 0.25, time + 0.001);
  env.gain.exponentialRampToValueAtTime(0.0001, time + 0.035);
  osc.start(time);
  osc.stop(time + 0.04);
}

function noiseBuffer(ctx: AudioContext): AudioBuffer {
  const buf = ctx.createBuffer(1, Math.round(ctx.sampleRate * 0.08), ctx.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
  return buf;
}

/**
 * The metronome: a look-ahead scheduler on the shared AudioContext's clock, its timer in a Worker
 * (falls back to a main-thread interval where workers are unavailable). The pattern and tempo can
 * change while it runs; `currentStep()` tells the display which step sounds now.
 */
export class MetronomeEngine {
  private scheduler: LookaheadScheduler | null = null;
  private worker: Worker | null = null;
  private interval: ReturnType<typeof setInterval> | null = null;
  private master: GainNode | null = null;
  private noise: AudioBuffer | null = null;
  private release: (() => void) | null = null;
  private unlisten: (() => void) | null = null;
  private queue: Array<{ time: number; index: number }> = [];
  private pattern: readonly StepKind[] = ['accent'];
  private bpm = 100;
  private stepsPerBeat = 1;
  private volume = 0.8;
  private lastStep = -1;
  private lastPoll: number | null = null;
  private recentGaps: Array<{ at: number; gap: number }> = [];

  get running(): boolean {
    return this.scheduler !== null;
  }

  setPattern(pattern: readonly StepKind[]): void {
    this.pattern = pattern.length ? pattern : ['accent'];
  }

  /** `bpm` counted notes a minute, each `stepsPerBeat` steps of the pattern long (stepsPerUnit). */
  setTempo(bpm: number, stepsPerBeat = 1): void {
    this.bpm = clampTempo(bpm);
    this.stepsPerBeat = stepsPerBeat > 0 ? stepsPerBeat : 1;
    if (this.scheduler) this.scheduler.setTempo(this.bpm, audioContext().currentTime, this.stepsPerBeat);
  }

  setVolume(v: number): void {
    this.volume = Math.min(1, Math.max(0, v));
    if (this.master) this.master.gain.setTargetAtTime(this.volume, audioContext().currentTime, 0.02);
  }

  async start(): Promise<void> {
    if (this.scheduler) return;
    const { ctx, release } = await holdAudio();
    this.release = release;
    this.setup(ctx, 0);
    this.unlisten = onAudioContextReplaced((next) => this.setup(next, this.lastStep + 1));
    const tick = () => this.tick();
    // Until the worker has loaded and ticks, a main-thread interval covers (a module worker is
    // fetched on first use); the worker then takes over and keeps ticking in a background tab.
    this.interval = setInterval(tick, TICK_MS);
    try {
      this.worker ??= new Worker(new URL('./timer.worker.ts', import.meta.url), { type: 'module' });
      this.worker.onmessage = () => {
        if (this.interval) clearInterval(this.interval);
        this.interval = null;
        tick();
      };
      this.worker.postMessage({ type: 'start', intervalMs: TICK_MS });
    } catch {
      this.worker = null;
    }
    this.tick();
  }

  private setup(ctx: AudioContext, firstStep: number): void {
    this.master?.disconnect();
    this.master = ctx.createGain();
    this.master.gain.value = this.volume;
    this.master.connect(ctx.destination);
    this.noise = noiseBuffer(ctx);
    this.queue = [];
    this.lastPoll = null;
    this.recentGaps = [];
    this.scheduler = new LookaheadScheduler({ startTime: ctx.currentTime + 0.06, bpm: this.bpm, stepsPerBeat: this.stepsPerBeat, firstStep });
  }

  private tick(): void {
    const s = this.scheduler;
    if (!s || !this.master || !this.noise) return;
    const ctx = audioContext();
    const hook = typeof window !== 'undefined' ? window.__ukAudioTestHook : undefined;
    const now0 = ctx.currentTime;
    // Adaptive look-ahead: 100 ms while the timer is punctual; when it comes late (a busy main
    // thread, a throttled tab), look further ahead — up to 0.5 s — so no step falls into the past.
    if (this.lastPoll !== null) {
      const gap = now0 - this.lastPoll;
      this.recentGaps = this.recentGaps.filter((g) => now0 - g.at < 5);
      this.recentGaps.push({ at: now0, gap });
      const worst = Math.max(...this.recentGaps.map((g) => g.gap));
      s.setLookahead(Math.min(0.5, Math.max(LOOKAHEAD_S, worst * 2)));
      if (hook) hook.maxTickGap = Math.max(hook.maxTickGap ?? 0, gap);
    }
    this.lastPoll = now0;
    const due = s.poll(now0);
    if (hook) hook.skipped = s.skipped;
    for (const { step, time } of due) {
      const index = step % this.pattern.length;
      const kind = this.pattern[index] ?? 'normal';
      this.lastStep = step;
      this.queue.push({ time, index });
      if (kind === 'rest') continue;
      playClick(ctx, this.master, kind, time, this.noise);
      hook?.clicks.push({ time, kind, step, index });
    }
    // Keep the display queue short.
    const now = ctx.currentTime;
    while (this.queue.length > 2 && (this.queue[1]?.time ?? Infinity) <= now) this.queue.shift();
  }

  /** The pattern index sounding now (by the audio clock and its output latency), or null. */
  currentStep(): number | null {
    if (!this.scheduler) return null;
    const ctx = audioContext();
    const now = ctx.currentTime - (ctx.outputLatency || ctx.baseLatency || 0);
    let current: number | null = null;
    for (const q of this.queue) if (q.time <= now) current = q.index;
    return current;
  }

  stop(): void {
    // The worker stays (loaded) for the next start; it only stops ticking.
    this.worker?.postMessage({ type: 'stop' });
    if (this.interval) clearInterval(this.interval);
    this.interval = null;
    this.scheduler = null;
    this.queue = [];
    this.unlisten?.();
    this.unlisten = null;
    const m = this.master;
    if (m) {
      const ctx = audioContext();
      m.gain.setTargetAtTime(0, ctx.currentTime, 0.01);
      setTimeout(() => m.disconnect(), 200);
    }
    this.master = null;
    this.release?.();
    this.release = null;
  }

  /** Stops and ends the timer worker (when the metronome leaves the screen). */
  dispose(): void {
    this.stop();
    this.worker?.terminate();
    this.worker = null;
  }
}
