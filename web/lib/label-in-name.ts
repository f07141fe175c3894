/**
 * WCAG 2.5.3 (label in name): a control's accessible name contains the text it shows, so that a
 * voice-control user can say what is seen (docs/decisions/label-in-name-and-phone-width.md).
 * Given the visible text and the fuller name a screen reader should hear, returns what to add in
 * screen-reader-only text after the visible text: the rest of the name when it starts with the
 * visible text ("Ayşe" + " Demir: Etüde öffnen"), else the whole name after a dash.
 */
export function nameAfterVisible(visible: string, name: string): string {
  const shown = visible.trim();
  if (shown && name.startsWith(shown)) return name.slice(shown.length);
  return ` – ${name}`;
}
