// The names and shapes of the writes that outlive their page (waiting.ts, and the files it loads
// when it needs them: waiting-run.ts, waiting-store.ts).

import type { QueryClient } from '@tanstack/react-query';
import type { Answer } from './fetch';

export type { Answer };

/** The mutations' key of a write that outlives its page. */
export const WRITE_KEY = ['write'];
/** Set in localStorage while writes are kept in IndexedDB, so that a page loads the store only when it must. */
export const WAITING_FLAG = 'tala:waiting';

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
  /**
   * The body is a form's fields, urlencoded, posted as the page's own form posts them without
   * JavaScript (Submit Order); otherwise it is sent as JSON.
   */
  form?: boolean;
  /**
   * A write that removes something: a 404 means it is gone already (a repeat of a try whose answer
   * was lost) and ends it as done.
   */
  goneIsDone?: boolean;
  /**
   * The session it was made in: its page's CSRF token ('' without a session). A page of another
   * session never sends it (the next person at the phone), and never shows it.
   */
  session?: string;
}


/** A write waiting, as the page shows it. */
export interface Waiting extends Write {
  /** Tries that found no answer. */
  failures: number;
  /** Waiting for the browser to be online. */
  paused: boolean;
}

/**
 * What the shopper is told of a write that arrived after its page had gone: refused, in the store's
 * words; or done, with the page that shows what it made (`href`: an order placed).
 */
export interface Told {
  id: string;
  label: string;
  /** Done (else refused, or not sent). */
  done: boolean;
  message: string;
  /** Where to see what it made. */
  href?: string;
}

/** How long a write waits at most (made longer ago, it is not sent: the cart has moved on). */
export const WRITE_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** How long a Submit Order waits at most: an order is placed while the shopper still means it. */
export const ORDER_MAX_AGE_MS = 30 * 60 * 1000;
/** What the shopper is told of a write that waited too long. */
export const TOO_OLD = 'It waited too long and was not sent; make it again if you still want it.';

/** Whether a write has waited too long to be sent at `now`. */
export function tooOld(write: Write, now: number): boolean {
  const age = now - write.madeAt;
  return age > (write.kind === 'order' ? ORDER_MAX_AGE_MS : WRITE_MAX_AGE_MS) || age < -WRITE_MAX_AGE_MS;
}

/** What hands the answer of a write its own page no longer waits for to the feature that made it. */
export type Answered = Record<string, (client: QueryClient, write: Write, answer: Answer) => void>;
