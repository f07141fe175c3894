/** A full page load at `path` (used after sign-in, as SPEC.md says). Separate so tests can observe it. */
export function reloadTo(path: string): void {
  window.location.assign(path);
}
