/**
 * Ends the current task, so that the browser can paint and answer input before the next step:
 * `scheduler.yield()` where the browser has it (the rest runs before other queued tasks), else a
 * timeout (docs/decisions/first-load-on-a-phone.md, "The start in steps").
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}
