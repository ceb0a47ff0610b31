import { createContext, createElement, Suspense, use, useContext, useSyncExternalStore, type ComponentType, type ReactElement } from 'react';
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

/** The path of a page's url, without its query or fragment. */
export function pathOf(url: string): string {
  const q = url.search(/[?#]/);
  return q < 0 ? url : url.slice(0, q);
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

/** The parts of pages in chunks of their own (`lazyPart`): how each loads, and whether a page's first render shows it. */
const lazyParts: { load: () => Promise<unknown>; shownFirst: (input: RenderInput) => boolean }[] = [];

/** How long a part whose chunk could not be fetched waits before it is asked for again (doubling up to a minute). */
const RETRY_MS = 2000;

/**
 * A part of some pages kept out of every page's first load (a dialog shown on some pages or after
 * some event): a chunk of its own, the module `load` imports, fetched when the part is first shown
 * or ahead of it (`loadLazyParts`). The server bundle loads every part with the pages
 * (routes.ts), so its render holds the part as it holds the page. `shownFirst` says from the
 * render input whether the server's HTML holds the part: the browser then loads its chunk before
 * it hydrates (client.tsx), so that its first render is the server's.
 *
 * The part is its own Suspense boundary (`<!--$-->` in the server's HTML): until its chunk is in,
 * it shows nothing, and while hydrating it keeps the server's HTML (which works without
 * JavaScript) and hydrates it once the chunk is in; a chunk that cannot be fetched (the link
 * dropped) is asked for again a while later, never the error page. Once loaded it renders at once,
 * always the same component (no state lost).
 */
export function lazyPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  shownFirst: (input: RenderInput) => boolean = () => false,
): (props: P) => ReactElement {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchPart = (): Promise<ComponentType<P>> =>
    (loading ??= load().then(
      (component) => (loaded = component),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    ));
  // What a render that finds the part not loaded waits for: never rejected, tried again until in.
  let ready: Promise<ComponentType<P>> | null = null;
  const whenReady = () =>
    (ready ??= new Promise((resolve) => {
      const attempt = (wait: number) =>
        void fetchPart().then(resolve, () => setTimeout(() => attempt(Math.min(wait * 2, 60_000)), wait));
      attempt(RETRY_MS);
    }));
  lazyParts.push({ load: fetchPart, shownFirst });
  const Loaded = (props: P) => createElement(loaded ?? use(whenReady()), props);
  return (props: P) => createElement(Suspense, { fallback: null }, createElement(Loaded, props));
}

/**
 * Loads the parts of pages in chunks of their own (`lazyPart`): with `input`, those the first
 * render of its page shows (the browser, before it hydrates); without, all of them (the server
 * bundle with the pages; the browser once the page has hydrated and is idle, so that a dialog
 * opens at once later, and on a link that dropped meanwhile).
 */
export function loadLazyParts(input?: RenderInput): Promise<unknown[]> {
  return Promise.all(lazyParts.filter((part) => !input || part.shownFirst(input)).map((part) => part.load()));
}
