/**
 * The metronome's timer in a dedicated Worker: a hidden tab throttles main-thread timers to once a
 * second or less, a worker's much less, so the look-ahead scheduler keeps being called
 * (web.dev "A Tale of Two Clocks"; cwilso/metronome's metronomeworker.js).
 */
type Command = { type: 'start'; intervalMs: number } | { type: 'stop' };

let timer: ReturnType<typeof setInterval> | null = null;

self.onmessage = (e: MessageEvent<Command>) => {
  if (timer !== null) clearInterval(timer);
  timer = null;
  if (e.data.type === 'start') {
    timer = setInterval(() => self.postMessage('tick'), e.data.intervalMs);
    self.postMessage('tick');
  }
};
