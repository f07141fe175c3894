/**
 * The review screen's keys ('Zu prüfen'), anywhere on the screen outside a text field:
 * J/K next/previous take, Space play/pause, ←/→ 5 s, C a comment at the current moment, Enter
 * answered. See docs/decisions/recordings.md.
 */
export type ReviewKeyAction = 'next' | 'previous' | 'toggle' | 'back' | 'forward' | 'comment' | 'answer';

/** Where the screen's own full-screen take view is: the keys work in it, not in other dialogs. */
export const REVIEW_VIEW_ATTR = 'data-review-view';

const FIELD = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], [role="combobox"]';
/** Space and Enter keep their own meaning on these (a button is pressed, a link followed). */
const CONTROL = 'button, a[href], summary, [role="button"], [role="link"], [role="menuitem"], [role="tab"], [role="checkbox"], [role="switch"], [role="option"]';
const DIALOG = 'dialog[open], [role="dialog"], [role="alertdialog"]';

type KeyLike = Pick<KeyboardEvent, 'key' | 'altKey' | 'ctrlKey' | 'metaKey' | 'defaultPrevented' | 'repeat' | 'isComposing'> & { target: EventTarget | null };

/** Another dialog (a confirmation, the menu) is open: the screen's keys wait. */
function otherDialogOpen(doc: Document): boolean {
  return Array.from(doc.querySelectorAll(DIALOG)).some((d) => !d.hasAttribute(REVIEW_VIEW_ATTR));
}

/** What a key press means on the review screen, or null where it means something else (or nothing). */
export function reviewKeyAction(e: KeyLike, doc: Document = document): ReviewKeyAction | null {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return null;
  const target = e.target instanceof Element ? e.target : null;
  if (target?.closest(FIELD)) return null;
  if (otherDialogOpen(doc)) return null;
  const onControl = Boolean(target?.closest(CONTROL));
  switch (e.key) {
    case 'j':
    case 'J':
      return 'next';
    case 'k':
    case 'K':
      return 'previous';
    case 'c':
    case 'C':
      return e.repeat ? null : 'comment';
    case 'ArrowLeft':
      return 'back';
    case 'ArrowRight':
      return 'forward';
    case ' ':
      return onControl ? null : 'toggle';
    case 'Enter':
      return onControl || e.repeat ? null : 'answer';
    default:
      return null;
  }
}
