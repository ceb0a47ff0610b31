// Focus inside a modal overlay (the header's drawers, components/Drawer.tsx; the gates' and the
// other modals, components/Dialog.tsx): what Tab reaches, and Tab kept inside.

const TABBABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]';

/** What Tab reaches in `root`, in order (shown, not taken out of the order by `tabindex="-1"`). */
export function tabStops(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter((el) => el.tabIndex >= 0 && el.getClientRects().length > 0);
}

/**
 * Keeps Tab inside `overlay` (a keydown's handler): past its last stop to its first, and back with
 * Shift. A native modal dialog makes the page behind inert, but Tab would still leave it for the
 * browser's own controls.
 */
export function keepTab(overlay: HTMLElement, e: Pick<KeyboardEvent, 'key' | 'shiftKey' | 'preventDefault'>) {
  if (e.key !== 'Tab') return;
  const stops = tabStops(overlay);
  const at = document.activeElement;
  const to = e.shiftKey ? (at === stops[0] || at === overlay ? stops.at(-1) : null) : at === stops.at(-1) ? stops[0] : null;
  if (stops.length === 0 || to) {
    e.preventDefault();
    to?.focus();
  }
}
