import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { keepTab } from '../lib/focus';

/**
 * A modal dialog over the page, focused when it opens, Tab kept inside, named by its title. Its
 * title's id is React's own unless `id` is given: then `{id}-title`, an address's fragment that
 * the store's redirects name (the gates' `#location-title`, `#reset-title`).
 */
export function Dialog({ id, title, children }: { id?: string; title: string; children: ReactNode }) {
  const own = useId();
  const titleId = id ? `${id}-title` : own;
  const ref = useRef<HTMLDivElement>(null);
  // In the commit that shows it (a layout effect): a key pressed at once already goes to the dialog.
  useLayoutEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div className="overlay">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} tabIndex={-1} ref={ref} onKeyDown={(e) => keepTab(e.currentTarget, e)}>
        <h2 id={titleId}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
