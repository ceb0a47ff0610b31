// The service worker's rules (worker.ts), pure so that node tests them: what each request is, what
// may be kept, when the shopper's kept pages are thrown away, and how a kept page says it is old.

import { PAGE_SESSION_HEADERS } from '../../api/contract.gen';

/** The cache of the shop pages and API reads kept for this browser (the worker's, read by the offline page). */
export const PAGES_CACHE = 'tala-pages';

/** How the worker answers a request. */
export type Way =
  /** Hashed build files and photos: never change under their name; from the cache, else fetched. */
  | 'kept-forever'
  /** The store's drawings (`/img`): from the cache at once, fetched again behind it. */
  | 'kept-refreshed'
  /** A page opened: fetched; on a dead or stalled link, the copy kept of it or the offline page. */
  | 'page'
  /** An account, cart, checkout, order or staff page, or a search's results: fetched, never kept; on a dead link the offline page. */
  | 'private-page'
  /** An API read: fetched; kept when the answer may be (public), answered from it offline. */
  | 'read'
  /** Everything else (writes, other sites, the worker itself): the network's, untouched. */
  | 'network';

/** The pages a shopper may see again offline, by their path; not account, checkout or orders. */
const PRIVATE_PAGES = /^\/(cart|checkout|active-order|my-account|login|logout|registration|reset-password|change-password|setup-address|newsletter|staff|offline)(\/|$)/;

/**
 * What is asked once per query and not kept: a search's results and the suggestions as one types
 * (each query a page or an answer of its own, which would push the catalog's pages out of the
 * bounded cache).
 */
const PER_QUERY = /^\/(search|api\/v1\/search)(\/|$)/;

export function wayOf(url: URL, origin: string, method: string, mode: string): Way {
  // Only GETs: a HEAD's empty body would be kept under the GET's key.
  if (url.origin !== origin || method !== 'GET') return 'network';
  const path = url.pathname;
  if (path === '/sw.js') return 'network';
  if (path.startsWith('/assets/') || path.startsWith('/media/')) return 'kept-forever';
  if (path.startsWith('/img/')) return 'kept-refreshed';
  if (path.startsWith('/api/')) return path.startsWith('/api/v1/staff') || PER_QUERY.test(path) ? 'network' : 'read';
  if (mode === 'navigate') return PRIVATE_PAGES.test(path) || PER_QUERY.test(path) ? 'private-page' : 'page';
  return 'network';
}

/**
 * Whether a request may change whose the session is (signing in or out, registering, a reset, an
 * account deleted): the pages and answers kept for this browser are thrown away before it is sent,
 * so the next person at the phone never sees the last one's.
 */
export function changesSession(url: URL, method: string): boolean {
  if (method === 'GET' || method === 'HEAD') return false;
  const path = url.pathname;
  if (method === 'DELETE' && path === '/api/v1/user') return true;
  return /(^|\/)(login|logout|registration|pre-register|reset-password|password|delete-account|social)(\/|$)/.test(path);
}

/**
 * The header a shop page filled for a shopper names their session by (a hash the server makes;
 * empty on a page filled for nobody's session; absent on a page with nothing of anyone's).
 */
export const SESSION_HEADER = PAGE_SESSION_HEADERS.session;

/** The header a member's shop page says in how many seconds their session ends by. */
export const SESSION_ENDS_HEADER = PAGE_SESSION_HEADERS.endsIn;

/**
 * When, on this device's clock, the session a page was filled for ends unless it is used again:
 * `endsIn` seconds (the page's header) after the answer came (`answeredAt`). Null when the page
 * does not say (a guest's: their pages hold no name, and stay until another session's page comes).
 */
export function sessionEndsAt(endsIn: string | null, answeredAt: number): number | null {
  if (endsIn === null || !/^\d{1,9}$/.test(endsIn.trim())) return null;
  return answeredAt + Number(endsIn.trim()) * 1000;
}

/**
 * Whether the session the kept pages were filled for has ended by `now` (`endsAt`: null when none
 * was said): its pages are then thrown away, never shown, since the next person at the phone would
 * see the member's name and cart. A page of the session seen since moves `endsAt` on; one the
 * store extended unseen by the worker (an API call) only makes this err on the side of asking.
 * A note read back that cannot be read counts as ended.
 */
export function sessionOver(note: SessionEnds | null, now: number): boolean {
  // A clock set back before the note was made (to bring the member's pages back): ended too.
  return note !== null && (now >= note.endsAt || now < note.notedAt - CLOCK_SLACK_MS);
}

/** When a member's session ends (`endsAt`), noted at `notedAt`, both on this device's clock. */
export interface SessionEnds {
  endsAt: number;
  notedAt: number;
}

/** How far back the device's clock may move (a network time correction) before a note counts as ended. */
export const CLOCK_SLACK_MS = 60_000;

/** The note as the worker keeps it, and back. */
export function writeSessionEnds(note: SessionEnds): string {
  return `${note.endsAt} ${note.notedAt}`;
}

export function readSessionEnds(text: string): SessionEnds | null {
  const [endsAt, notedAt] = text.split(' ').map(Number);
  return Number.isFinite(endsAt) && Number.isFinite(notedAt) ? { endsAt, notedAt } : null;
}

/**
 * What a page's session header (`answered`: null when absent) says of the session the kept pages
 * were filled for (`kept`: null before any was seen, '' for nobody's): the same, none known, one
 * begun on this browser (a guest's first add: the pages kept before hold nobody's parts and may
 * stay), or another person's or an ended one (a session gone or replaced without a sign-out
 * through this worker: the pages kept for the last one are thrown away).
 */
export function sessionMove(kept: string | null, answered: string | null): 'same' | 'unknown' | 'began' | 'changed' {
  if (answered === null) return 'unknown';
  if (kept === answered) return 'same';
  if (kept === null || kept === '') return 'began';
  return 'changed';
}

/** Whether an answer may be kept by the worker: a whole 200 that no header forbids keeping. */
export function keepable(status: number, cacheControl: string | null, vary: string | null): boolean {
  if (status !== 200) return false;
  const cc = (cacheControl ?? '').toLowerCase();
  if (/(^|[\s,])no-store([\s,]|$)/.test(cc)) return false;
  // An answer that varies with the sign-in it was asked with is the session's, not the browser's.
  if ((vary ?? '').toLowerCase().includes('authorization')) return false;
  return true;
}

/** Which of the kept entries (oldest first, with their bytes) to drop so that at most `limit` bytes stay. */
export function overLimit<T>(entries: { key: T; bytes: number }[], limit: number): T[] {
  let total = entries.reduce((sum, e) => sum + e.bytes, 0);
  const drop: T[] = [];
  for (const e of entries) {
    if (total <= limit) break;
    drop.push(e.key);
    total -= e.bytes;
  }
  return drop;
}

/**
 * How long a kept shop page may be shown at once, while it is fetched again behind it: a repeat
 * visit shows the page before any round trip, and a copy older than a day is asked for first.
 */
export const AT_ONCE_MS = 24 * 60 * 60 * 1000;

/**
 * The shopper's place as a page was made for it: the gate cookies' values by their names (the
 * place, age, consent and notice choices the server renders a shop page with), and whether the
 * browser saves data (the server makes those pages with smaller photos: `Vary: Save-Data`). Null
 * when the worker cannot read cookies (a browser without the Cookie Store API): then no page is
 * shown from its copy while the link works.
 */
export function placeOf(cookies: { name: string; value?: string }[] | null, names: string[], savingData: boolean): string | null {
  if (!cookies) return null;
  const place = [...names]
    .sort()
    .map((n) => `${n}=${cookies.find((c) => c.name === n)?.value ?? ''}`)
    .join('; ');
  return savingData ? `${place}; Save-Data=on` : place;
}

/**
 * Whether a kept page is shown at once (and fetched again behind it) rather than asked for first:
 * made for the same place, asked for after this browser's last write (a cart change, an order, a
 * form: the page's cart and forms would be older than it), and younger than [`AT_ONCE_MS`].
 */
export function shownAtOnce(kept: { askedAt: number; place: string | null }, place: string | null, lastWrite: number, now: number): boolean {
  return place !== null && kept.place === place && kept.askedAt > lastWrite && kept.askedAt <= now && now - kept.askedAt < AT_ONCE_MS;
}

/** The words of the bar on a page shown from its copy whose fresh copy differs, and its link's. */
export const CHANGED_NOTICE = 'This page has changed since you last saw it.';
export const CHANGED_LINK = 'Show the new page';

/** The words on a page answered from the worker's copy, with when the copy was made. */
export function staleNotice(savedAt: number, now: number, offline: boolean): string {
  const minutes = Math.max(0, Math.round((now - savedAt) / 60000));
  const when =
    minutes < 1 ? 'a moment ago' : minutes < 60 ? `${minutes} min ago` : minutes < 24 * 60 ? `${Math.round(minutes / 60)} h ago` : `${Math.round(minutes / (24 * 60))} days ago`;
  const why = offline ? 'You are offline.' : 'Your connection is slow.';
  return `${why} This page is as you saw it ${when}; prices and stock may have changed.`;
}

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);
}

/**
 * A kept page with the bar that says so, placed first in `<body>` (outside `#root`, so the page
 * still hydrates): the notice, and a link that asks for the page again.
 */
export function withStaleBar(html: string, notice: string, path: string): string {
  const bar =
    `<div class="offline-bar" data-stale-copy>${escapeHtml(notice)} ` +
    `<a href="${escapeHtml(path)}">Try again</a></div>`;
  const at = html.indexOf('<body>');
  if (at < 0) return bar + html;
  return html.slice(0, at + 6) + bar + html.slice(at + 6);
}

/**
 * The files the worker fetches ahead when it installs (the first pages' own): none for a shopper
 * who asked to save data (Save-Data, the data saver of the browser or phone): each file is then
 * fetched, and kept, when a page needs it. None it keeps already from an earlier build (`kept`,
 * their addresses): a file's name changes with its bytes, so React's file (`vendor-[hash].js`)
 * is fetched once, not again with each release.
 */
export function fetchedAhead(savingData: boolean, files: string[], kept: ReadonlySet<string>): string[] {
  return savingData ? [] : files.filter((url) => !kept.has(url));
}
