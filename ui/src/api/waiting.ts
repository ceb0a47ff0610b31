// Writes that outlive the page. A write whose repeat is harmless (it carries a request key or names
// the cart revision it was made against) is a TanStack Query mutation of the key `['write']`, all in
// one scope, so that they run one after another in the order they were made. When no answer came
// (the link dropped, or stalled past 20 s) or the store said it is busy (502, 503, 504), it is sent
// again, with the same body, after 1, 2, 4 and then every 8 seconds; while the browser says it is
// offline it waits (TanStack's paused mutation) and goes at once when the browser is back online.
//
// The writes still waiting are kept in IndexedDB (waiting-store.ts, loaded once this page makes a
// write, or when a page before it left writes waiting) and the next page this browser opens sends
// them, whether or not the page that made them is still open. Their answers go to the feature that
// made them (`startWaiting`'s `answered`: a cart's answer becomes the page's cart, an order placed
// is told with a link to it, `tell`); a refusal (the product sold out, the cart changed) is shown
// with the store's own message (`useTold`), never dropped in silence. The page that made a write gets its answer itself (`sendWrite`).
//
// This file is what every page holds (the hooks the header and the bar read); the machinery
// (waiting-run.ts) is loaded once the page has loaded, before if a page before left writes waiting.

import { useMutationState, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { WAITING_FLAG, WRITE_KEY, type Answer, type Answered, type Told, type Write } from './waiting-names';

export { WRITE_KEY };
export type { Answer, Answered, Told, Write };

/** A write waiting, as the page shows it. */
export interface Waiting extends Write {
  /** Tries that found no answer. */
  failures: number;
  /** Waiting for the browser to be online. */
  paused: boolean;
}

let started: { client: QueryClient; answered: Answered; session: string; delay?: (tries: number) => number } | null = null;
let running: Promise<typeof import('./waiting-run')> | null = null;

/** The machinery, loaded and started once. */
function run(): Promise<typeof import('./waiting-run')> {
  const s = started;
  if (!s) return import('./waiting-run');
  running ??= import('./waiting-run').then(
    (m) => {
      m.start(s.client, s.answered, tell, s.session, s.delay, shownInView);
      return m;
    },
    (error: unknown) => {
      // Fetched on a dropping link: asked for again by the next write.
      running = null;
      throw error;
    },
  );
  return running;
}

/**
 * Starts the writes' machinery in the browser: at once when a page before left writes waiting,
 * else once the page has hydrated (the bar says it is shown) and the browser is idle, so that it
 * never competes with the page's own start on a slow phone (a write made before loads it then).
 * `session`: the page's CSRF token, the session its writes are made in ('' without one). `delay`:
 * the waits between tries (tests make them 0).
 */
export function startWaiting(client: QueryClient, answered: Answered, session: string, delay?: (tries: number) => number): void {
  started = { client, answered, session, delay };
  const load = () => void run().catch((error: unknown) => console.warn('writes are not kept past this page:', error));
  let flagged = false;
  try {
    flagged = localStorage.getItem(WAITING_FLAG) !== null;
  } catch {
    /* storage refused: nothing was kept */
  }
  if (flagged || typeof window === 'undefined') return load();
  const idle = () => ('requestIdleCallback' in window ? window.requestIdleCallback(load) : setTimeout(load, 500));
  const loaded = () => void shown.then(idle);
  if (document.readyState === 'complete') loaded();
  else window.addEventListener('load', loaded, { once: true });
}

/**
 * Sends a write and waits for its answer: tried again on a failing link as above, kept in
 * IndexedDB meanwhile; null when the shopper gave it up. Without the machinery started (a test
 * in node) it is tried once.
 */
export async function sendWrite(write: Write): Promise<Answer | null> {
  return (await run()).sendWrite({ ...write, session: started?.session ?? '' });
}

let showing = () => {};
const shown = new Promise<void>((resolve) => (showing = resolve));

/** Says that the page now shows the writes waiting (the bar, once hydrated). */
export function shownNow(): void {
  showing();
}

/** Resolves once the page shows the writes waiting and its tab is in view. */
const shownInView: Promise<void> = shown.then(
  () =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (document.visibilityState !== 'visible') return;
        document.removeEventListener('visibilitychange', check);
        resolve();
      };
      document.addEventListener('visibilitychange', check);
      check();
    }),
);

/** Stops sending a write: the page that made it is told it was not sent. */
export function giveUp(id: string): void {
  void run().then((m) => m.giveUp(id), () => undefined);
}

/** Sends the waiting writes now (Send now): each waits no longer. */
export function sendNow(): void {
  void run().then((m) => m.sendNow(), () => undefined);
}

/** The writes waiting, oldest first: those that failed a try, wait to be online, or came from a page before. */
export function useWaiting(): Waiting[] {
  return useMutationState({
    filters: { mutationKey: WRITE_KEY, status: 'pending' },
    select: (m) => ({ ...(m.state.variables as Write), failures: m.state.failureCount, paused: m.state.isPaused }),
  }).filter((w) => w.failures > 0 || w.paused);
}

const toldListeners = new Set<() => void>();
let told: Told[] = [];
const NONE: Told[] = [];

/** Tells the shopper what became of a write whose page had gone (once for each write). */
export function tell(t: Told): void {
  if (told.some((o) => o.id === t.id)) return;
  told = [...told, t];
  for (const l of toldListeners) l();
}

/** What is told now (the same array while it is the same). */
export function toldNow(): Told[] {
  return told;
}

/** What became of writes that arrived after their page had gone (refused, or done), until closed. */
export function useTold(): Told[] {
  return useSyncExternalStore(
    (l) => {
      toldListeners.add(l);
      return () => toldListeners.delete(l);
    },
    toldNow,
    () => NONE,
  );
}

export function dismissTold(id: string): void {
  told = told.filter((r) => r.id !== id);
  for (const l of toldListeners) l();
}
