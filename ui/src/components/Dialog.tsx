import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { keepTab } from '../lib/focus';

/** A modal dialog over the page, focused when it opens, Tab kept inside; `id` names its title (`{id}-title`). */
export function Dialog({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  // In the commit that shows it (a layout effect): a key pressed at once already goes to the dialog.
  useLayoutEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div className="overlay">
      <div className="dialog" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`} tabIndex={-1} ref={ref} onKeyDown={(e) => keepTab(e.currentTarget, e)}>
        <h2 id={`${id}-title`}>{title}</h2>
        {children}
      </div>
    </div>
  );
}
