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
// made them (`startWaiting`'s `answered`: a cart's answer becomes the page's cart); a refusal (the
// product sold out, the cart changed) is shown with the store's own message (`useRefused`), never
// dropped in silence. The page that made a write gets its answer itself (`sendWrite`).

import { onlineManager, useMutationState, type Mutation, type QueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { calls } from './contract.gen';
import { WAITING_FLAG, WRITE_KEY } from './waiting-names';

export { WRITE_KEY };

/** A write as it is kept: what is sent, and what the shopper sees of it while it waits. */
export interface Write {
  /** Its own id (the request key when it has one). */
  id: string;
  url: string;
  method: string;
  body?: unknown;
  /** What the shopper sees waiting: "Add Tala Light 330 ml". */
  label: string;
  /** The feature whose answer it is (`startWaiting`'s `answered`). */
  kind: string;
  /** When it was made (milliseconds since the epoch). */
  madeAt: number;
}

/** An answer read whole: its status, the token a 401 may bring, and its JSON (or null). */
export interface Answer {
  status: number;
  token: string | null;
  body: unknown;
}

/** A write waiting, as the page shows it. */
export interface Waiting extends Write {
  /** Tries that found no answer. */
  failures: number;
  /** Waiting for the browser to be online. */
  paused: boolean;
}

/** A write that arrived after its page had gone and was refused: what it was and why. */
export interface Refused {
  id: string;
  label: string;
  message: string;
}

/** The answers that mean "not done, try again": a busy or unreachable store behind a proxy. */
const TRY_AGAIN = new Set([502, 503, 504]);
const TIMEOUT_MS = 20_000;
/** The waits between tries: 1, 2, 4, then 8 seconds. */
export const retryDelay = (tries: number) => Math.min(1000 * 2 ** tries, 8000);

/** No answer, or "try again": sent again. */
export class NoAnswer extends Error {}
/** The shopper gave the write up. */
class GivenUp extends Error {}

let client: QueryClient | null = null;
const trying = new Map<string, AbortController>();
const givenUp = new Set<string>();
/** The writes this page made and waits for (their answers are its own). */
const awaited = new Map<string, (answer: Answer | null) => void>();
let answeredBy: Record<string, (client: QueryClient, write: Write, answer: Answer) => void> = {};

async function read(write: Write, signal: AbortSignal): Promise<Answer> {
  const res = await fetch(write.url, {
    method: write.method,
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(write.body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: write.body === undefined ? undefined : JSON.stringify(write.body),
    signal,
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: a proxy's page */
  }
  return { status: res.status, token: res.headers.get('access-token'), body };
}

/** One try: the answer; `NoAnswer` when none came in time or the store said to try again. */
export async function attempt(write: Write): Promise<Answer> {
  if (givenUp.has(write.id)) throw new GivenUp();
  const ctl = new AbortController();
  trying.set(write.id, ctl);
  const timer = setTimeout(() => ctl.abort(), TIMEOUT_MS);
  try {
    let answer = await read(write, ctl.signal);
    // A 401 that brings a new token (the server set it as the session cookie): once more. A cart
    // change made before the browser had a session (a guest's first add, offline): a guest's
    // session first, as the page does (`sendCart`).
    if (answer.status === 401 && answer.token) answer = await read(write, ctl.signal);
    else if (answer.status === 401 && write.kind === 'cart') {
      const token = await read({ ...write, url: calls.guestToken.key, method: calls.guestToken.method, body: {} }, ctl.signal);
      if (token.status >= 200 && token.status < 300) answer = await read(write, ctl.signal);
    }
    if (TRY_AGAIN.has(answer.status)) throw new NoAnswer();
    return answer;
  } catch (e) {
    if (givenUp.has(write.id)) throw new GivenUp();
    throw e instanceof NoAnswer ? e : new NoAnswer();
  } finally {
    clearTimeout(timer);
    trying.delete(write.id);
  }
}

let kept: Promise<void> | null = null;

/** Keeps the waiting writes in IndexedDB from now on, and sends those a page before left. */
function keep(): Promise<void> {
  const c = client;
  if (!c) return Promise.resolve();
  kept ??= import('./waiting-store').then((m) => m.keepWaiting(c)).catch((error: unknown) => console.warn('waiting writes are kept on this page only:', error));
  return kept;
}

const refusedListeners = new Set<() => void>();
let refused: Refused[] = [];

function refuse(r: Refused): void {
  refused = [...refused, r];
  for (const l of refusedListeners) l();
}

/**
 * Starts the writes' machinery in the browser: the mutations' defaults, the browser's own word on
 * being online, the answers of writes made by a page before this one (`answered`, by their kind),
 * and the writes such a page left waiting.
 */
export function startWaiting(c: QueryClient, answered: typeof answeredBy, delay: (tries: number) => number = retryDelay): void {
  client = c;
  answeredBy = answered;
  if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);
  c.setMutationDefaults(WRITE_KEY, {
    mutationFn: (write: Write) => attempt(write),
    retry: (_tries, error) => error instanceof NoAnswer,
    retryDelay: delay,
    networkMode: 'online',
    scope: { id: 'writes' },
  });
  c.getMutationCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const write = event.mutation.state.variables as Write;
    // A page's own write is answered to that page.
    if (awaited.has(write.id)) return;
    const answer = event.action.data as Answer;
    if (answer.status >= 200 && answer.status < 300) answeredBy[write.kind]?.(c, write, answer);
    else refuse({ id: write.id, label: write.label, message: messageOf(answer) });
  });
  let flagged = false;
  try {
    flagged = localStorage.getItem(WAITING_FLAG) !== null;
  } catch {
    /* storage refused: nothing was kept */
  }
  if (flagged) void keep();
}

function messageOf(answer: Answer): string {
  const body = answer.body as { message?: string; error?: string } | null;
  return body?.message || body?.error || 'The store could not take this change.';
}

/**
 * Sends a write and waits for its answer: tried again on a failing link as above, kept in
 * IndexedDB meanwhile; null when the shopper gave it up. Without the machinery (a test in node)
 * it is tried once.
 */
export async function sendWrite(write: Write): Promise<Answer | null> {
  const c = client;
  if (!c) return attempt(write).catch(() => null);
  const given = new Promise<null>((resolve) => awaited.set(write.id, () => resolve(null)));
  void keep();
  try {
    const mutation = c.getMutationCache().build(c, { mutationKey: WRITE_KEY });
    return await Promise.race([(mutation.execute(write) as Promise<Answer>).catch(() => null), given]);
  } finally {
    awaited.delete(write.id);
  }
}

function mutationOf(id: string): Mutation | undefined {
  return client
    ?.getMutationCache()
    .findAll({ mutationKey: WRITE_KEY })
    .find((m) => (m.state.variables as Write | undefined)?.id === id);
}

/** Stops sending a write: the page that made it is told it was not sent. */
export function giveUp(id: string): void {
  givenUp.add(id);
  trying.get(id)?.abort();
  awaited.get(id)?.(null);
  const mutation = mutationOf(id);
  if (mutation && client) {
    client.getMutationCache().remove(mutation);
    // The next in line goes (it waited behind this one).
    void client.getMutationCache().resumePausedMutations();
  }
}

/** Sends the waiting writes now (Retry): each waits no longer. */
export function sendNow(): void {
  onlineManager.setOnline(true);
  void client?.getMutationCache().resumePausedMutations();
}

/** The writes waiting, oldest first: those that failed a try, wait to be online, or came from a page before. */
export function useWaiting(): Waiting[] {
  return useMutationState({
    filters: { mutationKey: WRITE_KEY, status: 'pending' },
    select: (m) => ({ ...(m.state.variables as Write), failures: m.state.failureCount, paused: m.state.isPaused }),
  }).filter((w) => w.failures > 0 || w.paused);
}

/** The refusals of writes that arrived after their page had gone, until dismissed. */
export function useRefused(): Refused[] {
  return useSyncExternalStore(
    (l) => {
      refusedListeners.add(l);
      return () => refusedListeners.delete(l);
    },
    refusals,
    () => NONE,
  );
}

/** The refusals shown now (the same array while they are the same). */
export function refusals(): Refused[] {
  return refused;
}
const NONE: Refused[] = [];

export function dismissRefused(id: string): void {
  refused = refused.filter((r) => r.id !== id);
  for (const l of refusedListeners) l();
}
