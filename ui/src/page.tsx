import { createContext, useContext, useSyncExternalStore } from 'react';
import type { RenderInput } from './lib/render-input';

export type Page = Omit<RenderInput, 'state' | 'gate'> & {
  /** The query parameters the page's route declares (its feature's pages.ts): the only ones it may read. */
  params: string[];
};

const PageContext = createContext<Page | null>(null);

export const PageProvider = PageContext.Provider;

/** The request the page was rendered for: url, route, status and the resolved key variables. */
export function usePage(): Page {
  const page = useContext(PageContext);
  if (!page) throw new Error('usePage outside PageProvider');
  return page;
}

/** Whether the page was asked for by a browser saving data (false in a part rendered without a page). */
export function useSavingData(): boolean {
  return useContext(PageContext)?.saveData === true;
}

/** `decodeURIComponent` that leaves a malformed escape (`%`, `%zz`, `%C0`) as it is. */
export function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The value of one query-string parameter of the page's url. */
export function searchParam(url: string, name: string): string | null {
  const q = url.indexOf('?');
  if (q < 0) return null;
  const hash = url.indexOf('#');
  const query = url.slice(q + 1, hash < 0 ? undefined : hash);
  for (const pair of query.split('&')) {
    const [k, v = ''] = pair.split('=');
    if (safeDecode(k) === name) return safeDecode(v.replace(/\+/g, ' '));
  }
  return null;
}

/**
 * A query parameter of the page. Only what the route declares reaches a page (the server keeps
 * nothing else of the query), so reading another is a mistake, and it fails loudly.
 */
export function usePageParam(name: string): string | null {
  const page = usePage();
  if (!page.params.includes(name)) throw new Error(`The route ${page.route} does not declare the query parameter ${name} (its feature's pages.ts)`);
  return searchParam(page.url, name);
}

/** False during the server render and hydration, true once the page runs in the browser. */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

const noSubscription = () => () => {};
