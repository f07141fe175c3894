import { useState } from 'react';

/**
 * True during the render in which a dialog opens (closed → open), or, while open, is given
 * another `item` (Object.is): the caller resets its form right there, while rendering, so the
 * first frame of an opening already shows the fresh fields (react.dev, 'You might not need an
 * effect': adjusting state when a prop changes; docs/decisions/compiler-ready-components.md).
 * Closing changes nothing: the fields stay as they were while the dialog animates out.
 */
export function useOpening(open: boolean, item?: unknown): boolean {
  const [seen, setSeen] = useState(() => ({ open: false, item }));
  if (seen.open === open && Object.is(seen.item, item)) return false;
  setSeen({ open, item });
  return open;
}
