/**
 * Copies `text` to the clipboard: the Clipboard API where the page may use it (a secure context),
 * otherwise the selected text of `input` through the older copy command. False when neither
 * worked; the text in `input` is then left selected, for the user's own Ctrl+C.
 */
export async function copyText(text: string, input: HTMLInputElement | null): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // refused (no permission, not a secure context): try the fallback
  }
  if (!input) return false;
  input.focus();
  input.select();
  try {
    return typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    return false;
  }
}
