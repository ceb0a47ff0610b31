import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import { keepTab } from '../lib/focus';

/** A modal dialog over the page, focused when it opens, Tab kept inside, named by its title. */
export function Dialog({ title, children }: { title: string; children: ReactNode }) {
  const titleId = useId();
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
