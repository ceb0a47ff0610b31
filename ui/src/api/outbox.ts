// Submit Order on a failing link (features/orders/place/submit.ts): the checkout form names the
// cart revision it showed, so its repeat is harmless; it is sent again, with the same body, when no
// answer came (the link dropped or stalled) or the store answered that it is busy (502, 503, 504):
// after 1, 2 and 4 seconds, at once when the browser says it is online again. It is sent only while
// the shopper can see it waiting, on the page that made it: "Sending…", then "Not sent" with Retry
// (the same form) or Give up (components/SendingBar.tsx). The cart's changes outlive their page
// instead (waiting.ts). `requestKey` makes the writes' keys.

/** What the shopper sees of the writes still waiting: the oldest one. */
export interface Delivery {
  state: 'sending' | 'failed';
  /** Sends it again now. */
  retry: () => void;
  /** Stops trying: the write answers as a failed network. */
  giveUp: () => void;
}

/** The answers that mean "not done, try again": a busy or unreachable store behind a proxy. */
const TRY_AGAIN = new Set([502, 503, 504]);

export interface DeliverOptions {
  /** The waits between tries before saying "Not sent" (milliseconds). */
  waits?: number[];
  /** How long one try may take before it counts as lost (a stalled link). */
  timeoutMs?: number;
  /** How long the first try may take before the shopper is told it is being sent. */
  showAfterMs?: number;
}

const WAITS = [1000, 2000, 4000];
const TIMEOUT_MS = 20_000;
const SHOW_AFTER_MS = 3000;

const waiting: Delivery[] = [];
/** Ends when the last write handed to `deliver` is answered or given up. */
let queue: Promise<void> = Promise.resolve();
const listeners = new Set<() => void>();

/** What `current` answers: a new object whenever it changes (React compares snapshots by identity). */
let snapshot: Delivery | null = null;

function changed(): void {
  const first = waiting[0];
  snapshot = first ? { state: first.state, retry: first.retry, giveUp: first.giveUp } : null;
  for (const l of listeners) l();
}

/** For `useSyncExternalStore`: calls `l` when the oldest waiting write changes. */
export function subscribe(l: () => void): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}

/** The oldest write still waiting, if any. */
export function current(): Delivery | null {
  return snapshot;
}

/** Resolves after `ms`, or at once when `wake` is called or the browser comes online. */
function pause(ms: number, wake: { fn: (go: boolean) => void }): Promise<boolean> {
  return new Promise((resolve) => {
    const online = () => done(true);
    const timer = ms === Infinity ? undefined : setTimeout(() => done(true), ms);
    function done(go: boolean) {
      clearTimeout(timer);
      if (typeof window !== 'undefined') window.removeEventListener('online', online);
      resolve(go);
    }
    if (typeof window !== 'undefined') window.addEventListener('online', online);
    wake.fn = done;
  });
}

/**
 * Sends a write by `attempt` until the store answers (any status but 502-504): the answer, or
 * null when the shopper gave up. Each try gets a signal that aborts it after `timeoutMs`, so
 * `attempt` reads the whole answer (a body can stall too). The shopper sees it once a try has
 * failed or the first has taken `showAfterMs`; Give up works at any moment (it cuts the try
 * under way), Retry while it waits.
 */
export async function deliver<T extends { status: number }>(
  attempt: (signal: AbortSignal) => Promise<T>,
  opts: DeliverOptions = {},
): Promise<T | null> {
  const waits = opts.waits ?? WAITS;
  const wake: { fn: (go: boolean) => void } = { fn: () => {} };
  let trying: AbortController | null = null;
  let gaveUp = false;
  const entry: Delivery = {
    state: 'sending',
    retry: () => wake.fn(true),
    giveUp: () => {
      gaveUp = true;
      trying?.abort();
      wake.fn(false);
    },
  };
  const show = () => {
    if (!waiting.includes(entry)) waiting.push(entry);
    changed();
  };
  let tries = 0;
  // In the order they were made: a quantity set again late must not undo a later one.
  const before = queue;
  let release = () => {};
  queue = new Promise<void>((r) => (release = r));
  await before;
  const slow = setTimeout(show, opts.showAfterMs ?? SHOW_AFTER_MS);
  try {
    for (;;) {
      trying = new AbortController();
      const res = await once(attempt, trying, opts.timeoutMs ?? TIMEOUT_MS);
      trying = null;
      if (gaveUp) return null;
      if (res && !TRY_AGAIN.has(res.status)) return res;
      const failed = tries >= waits.length;
      entry.state = failed ? 'failed' : 'sending';
      show();
      const go = await pause(failed ? Infinity : waits[tries], wake);
      if (!go) return null;
      tries = failed ? 0 : tries + 1;
      if (entry.state === 'failed') {
        entry.state = 'sending';
        changed();
      }
    }
  } finally {
    clearTimeout(slow);
    release();
    const at = waiting.indexOf(entry);
    if (at >= 0) {
      waiting.splice(at, 1);
      changed();
    }
  }
}

/** One try: the answer, or null when none came in time, the link failed or it was cut. */
async function once<T>(attempt: (signal: AbortSignal) => Promise<T>, ctl: AbortController, timeoutMs: number): Promise<T | null> {
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  try {
    return await attempt(ctl.signal);
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/** A new request key: 32 hex digits from the browser's random source (any page, even plain http). */
export function requestKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
