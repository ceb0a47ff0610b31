// The machinery of the writes that outlive their page (waiting.ts says what it does): loaded once
// the page has loaded, or at once when a page before left writes waiting, so that it costs the
// first visit's hydration nothing. Each write is a TanStack Query mutation of the key `['write']`,
// all in one scope; the store of those waiting (waiting-store.ts) is loaded on the first write.

import { onlineManager, type Mutation, type QueryClient } from '@tanstack/react-query';
import { calls } from './contract.gen';
import { readAnswer } from './fetch';
import { WAITING_FLAG, WRITE_KEY, type Answer, type Answered, type Told, type Write } from './waiting-names';

/** The answers that mean "not done, try again": a busy or unreachable store behind a proxy. */
const TRY_AGAIN = new Set([502, 503, 504]);
const TIMEOUT_MS = 20_000;
/** How long a new write waits for the writes a page before left to be brought back. */
const KEEP_WAIT_MS = 2000;
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

const read = (write: Write, signal: AbortSignal) => readAnswer(write.url, write.method, write.body, signal, {}, write.form);

/** One try: the answer; `NoAnswer` when none came in time or the store said to try again. */
export async function attempt(write: Write): Promise<Answer> {
  if (givenUp.has(write.id)) throw new GivenUp();
  // A page that knows no session (the offline page, made for nobody) holds a session's writes and
  // shows them; a page of their session sends them.
  if (write.session && !pageSession) throw new NoAnswer();
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
/** The session of this page (its CSRF token): only its own writes are sent from it. */
let pageSession = '';
/** What the shopper is told of writes whose page had gone. */
let told: (t: Told) => void = () => {};
/** Resolves once the page shows the writes waiting, in view (waiting.ts `shownNow`). */
let shown: Promise<void> = Promise.resolve();

/** Keeps the waiting writes in IndexedDB from now on, and sends those a page before left. */
function keep(): Promise<void> {
  const c = client;
  if (!c) return Promise.resolve();
  kept ??= import('./waiting-store')
    .then((m) => m.keepWaiting(c, pageSession, told, shown))
    .catch((error: unknown) => {
      kept = null;
      console.warn('waiting writes are kept on this page only:', error);
    });
  return kept;
}

function messageOf(answer: Answer): string {
  const body = answer.body as { message?: string; error?: string } | null;
  return body?.message || body?.error || 'The store could not take this change.';
}

/**
 * Starts the machinery: the mutations' defaults, the browser's own word on being online, the
 * answers of writes made by a page before this one (`answered`, by their kind; a refusal to
 * `tell`), and the writes such a page left waiting.
 */
export function start(c: QueryClient, answered: Answered, tell: (r: Told) => void, session: string, delay: (tries: number) => number = retryDelay, whenShown: Promise<void> = Promise.resolve()): void {
  client = c;
  pageSession = session;
  told = tell;
  shown = whenShown;
  if (typeof navigator !== 'undefined') onlineManager.setOnline(navigator.onLine);
  c.setMutationDefaults(WRITE_KEY, {
    mutationFn: (write: Write) => attempt(write),
    retry: (_tries, error) => error instanceof NoAnswer,
    retryDelay: delay,
    networkMode: 'online',
    scope: { id: 'writes' },
  });
  c.getMutationCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.mutation.options.mutationKey?.[0] !== WRITE_KEY[0]) return;
    const write = event.mutation.state.variables as Write;
    // A page's own write is answered to that page.
    if (awaited.has(write.id)) return;
    const answer = event.action.data as Answer;
    const done = (answer.status >= 200 && answer.status < 300) || (answer.status === 404 && write.goneIsDone);
    const handler = answered[write.kind];
    if (done && handler) handler(c, write, answer);
    // Done, of a feature that says nothing more of it: told so.
    else if (done) tell({ id: write.id, label: write.label, done: true, message: '' });
    else tell({ id: write.id, label: write.label, done: false, message: messageOf(answer) });
  });
  let flagged = false;
  try {
    flagged = localStorage.getItem(WAITING_FLAG) !== null;
  } catch {
    /* storage refused: nothing was kept */
  }
  if (flagged) void keep();
  // Otherwise the store's file is made ready (the worker holds it already): a write made later is
  // kept a moment sooner, so a shopper who leaves its page at once does not leave it behind.
  else void import('./waiting-store').catch(() => undefined);
}

/** Sends a write and waits for its answer (waiting.ts `sendWrite`). */
export async function sendWrite(write: Write): Promise<Answer | null> {
  const c = client;
  if (!c) return attempt(write).catch(() => null);
  const given = new Promise<null>((resolve) => awaited.set(write.id, () => resolve(null)));
  // The writes a page before left go first: this one joins the line once they are back (waited
  // for 2 s at most: a store file stalled on a dying link must not hold the shopper's change).
  await Promise.race([keep(), new Promise((resolve) => setTimeout(resolve, KEEP_WAIT_MS))]);
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
    .findAll({ mutationKey: WRITE_KEY, status: 'pending' })
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

/** Sends the waiting writes now (Send now): each waits no longer. */
export function sendNow(): void {
  onlineManager.setOnline(true);
  void client?.getMutationCache().resumePausedMutations();
}
