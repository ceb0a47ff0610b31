import { createContext, useContext, useEffect } from 'react';
import type { Head } from './lib/render-input';

/** Where a render collects what the page wants in `<head>`; the server puts it in the shell. */
export const HeadContext = createContext<Head | null>(null);

export function useHead(head: Head): void {
  const sink = useContext(HeadContext);
  // During a server render the collector is filled synchronously; in the browser the title is
  // kept in step after client-side changes.
  if (sink) Object.assign(sink, head);
  useEffect(() => {
    if (head.title) document.title = head.title;
  }, [head.title]);
}
