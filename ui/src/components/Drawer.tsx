import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { keepTab, tabStops } from '../lib/focus';
import { useHydrated } from '../page';

/** A drawer's `<details>`: the Layout opens the cart's and closes the others through it. */
export type DrawerRef = RefObject<HTMLDetailsElement | null>;

/** A click on the dimmed page around the panel (the dialog's backdrop) lands on the dialog itself. */
function outside(dialog: HTMLElement, e: MouseEvent): boolean {
  const r = dialog.getBoundingClientRect();
  return e.target === dialog && (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom);
}

/**
 * With JavaScript, an open drawer is a modal dialog: opening the `<details>` (its summary, or the
 * Layout after Add to Cart) shows the panel with `showModal()` (the page behind is inert), focus
 * moves to its `[data-autofocus]` element or else its first action, Tab stays inside; Escape, the
 * Close button or a click on the dimmed page close it, and focus goes back to what opened it.
 */
function useModalDrawer(details: DrawerRef, dialog: RefObject<HTMLDialogElement | null>) {
  useEffect(() => {
    const d = details.current;
    const panel = dialog.current;
    if (!d || !panel) return;
    let opener: HTMLElement | null = null;
    const show = () => {
      if (panel.matches(':modal')) return;
      const at = document.activeElement;
      opener = at instanceof HTMLElement && at !== document.body && !panel.contains(at) ? at : d.querySelector('summary');
      // Without JavaScript the panel is a dialog shown in place (`open`); with it, a modal one.
      panel.removeAttribute('open');
      panel.showModal();
      panel.setAttribute('aria-modal', 'true');
      const first = panel.querySelector<HTMLElement>('[data-autofocus]') ?? tabStops(panel).find((el) => !el.classList.contains('drawer-close'));
      (first ?? panel).focus();
    };
    const onToggle = () => {
      if (d.open) show();
      else if (panel.open) panel.close();
    };
    const onClose = () => {
      panel.removeAttribute('aria-modal');
      d.open = false;
      if (opener?.isConnected) opener.focus();
      opener = null;
    };
    const onKey = (e: KeyboardEvent) => keepTab(panel, e);
    const onClick = (e: MouseEvent) => {
      if (outside(panel, e)) panel.close();
    };
    d.addEventListener('toggle', onToggle);
    panel.addEventListener('close', onClose);
    panel.addEventListener('keydown', onKey);
    panel.addEventListener('click', onClick);
    // Opened before the page became interactive: it becomes the modal now.
    if (d.open) show();
    return () => {
      d.removeEventListener('toggle', onToggle);
      panel.removeEventListener('close', onClose);
      panel.removeEventListener('keydown', onKey);
      panel.removeEventListener('click', onClick);
    };
  }, [details, dialog]);
}

interface DrawerProps {
  drawer: DrawerRef;
  /** The `<details>`' classes besides `drawer`. */
  className: string;
  /** The summary's name (its content may be an icon). */
  label: string;
  summary: ReactNode;
  /** The panel's classes (`drawer-panel` and more). */
  panelClass?: string;
  /** The id of the panel's heading: the dialog's name. */
  titleId: string;
  /** The id of what describes the dialog (the cart's message). */
  describedBy?: string;
  children: ReactNode;
}

/**
 * A header drawer: a `<details>` whose panel is a `<dialog>`. Without JavaScript the summary opens
 * and closes the panel in place (a disclosure over a dimmed page); with it the panel is a modal
 * dialog (`useModalDrawer`) with a Close button.
 */
export function Drawer({ drawer, className, label, summary, panelClass = 'drawer-panel', titleId, describedBy, children }: DrawerProps) {
  const panel = useRef<HTMLDialogElement>(null);
  const hydrated = useHydrated();
  useModalDrawer(drawer, panel);
  return (
    <details className={`drawer ${className}`} ref={drawer}>
      <summary aria-label={label}>{summary}</summary>
      <dialog open className={panelClass} aria-labelledby={titleId} aria-describedby={describedBy} ref={panel}>
        {hydrated && (
          <button type="button" className="icon secondary drawer-close" aria-label="Close" onClick={() => panel.current?.close()}>
            ×
          </button>
        )}
        {children}
      </dialog>
    </details>
  );
}
