// The store's service worker, served as /sw.js (built by build.mjs with this build's version and
// the files a first visit needs). What it does, by request (rules.ts decides which is which):
//   - hashed build files and photos (`/assets`, `/media`): from its copy, else fetched and kept;
//   - the store's drawings (`/img`): from its copy at once, fetched again behind it;
//   - a shop page opened again: its copy at once when it was made for the shopper's place (the
//     gate cookies), after this browser's last write and within a day, fetched again behind it;
//     the page is told when the fresh copy differs (it offers the new page);
//   - otherwise a shop page, or an API read: fetched; on a dead link the copy kept of it (a page
//     says "You are offline ... as you saw it 5 min ago"), or the offline page; on a stalled link
//     (no answer in SLOW_MS) the copy while the fetch goes on and refreshes it;
//   - account, cart, checkout, order and staff pages: fetched, never kept; the offline page on a
//     dead link;
//   - writes, other sites: the network's, untouched.
// The pages and answers kept are this browser's, and a shopper's own pages (their cart's count and
// drawer, their name) theirs: thrown away when the session changes hands (signing in or out,
// registering, a password reset, an account deleted) and when a page comes filled for another
// session than the one they were kept for (one that ended or was replaced elsewhere: the page's
// `x-session`, rules.ts `sessionMove`), and once a member's session has ended by itself (unused
// for its life, which their pages say: `x-session-ends-in`, rules.ts `sessionOver`), before any of
// them is shown. Bounded by bytes.

import { GATE_COOKIES } from '../../api/contract.gen';
import { changesSession, fetchedAhead, keepable, overLimit, PAGES_CACHE, placeOf, SESSION_ENDS_HEADER, readSessionEnds, SESSION_HEADER, sessionEndsAt, sessionMove, sessionOver, shownAtOnce, writeSessionEnds, type SessionEnds, staleNotice, wayOf, withStaleBar } from './rules';

declare const __VERSION__: string;
declare const __PRECACHE__: string[];

interface ExtendableEvent extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface FetchEvent extends ExtendableEvent {
  request: Request;
  /** The page a navigation opens (its client exists once the answer starts). */
  resultingClientId?: string;
  respondWith(r: Response | Promise<Response>): void;
}
interface WorkerClient {
  postMessage(message: unknown): void;
}
interface WorkerScope {
  location: Location;
  clients: {
    claim(): Promise<void>;
    get(id: string): Promise<WorkerClient | undefined>;
    matchAll(o?: { includeUncontrolled?: boolean }): Promise<WorkerClient[]>;
  };
  /** The Cookie Store API (Chromium, Safari): the gate cookies, which are not HttpOnly. */
  cookieStore?: { getAll(): Promise<{ name: string; value?: string }[]> };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install' | 'activate', f: (e: ExtendableEvent) => void): void;
  addEventListener(type: 'fetch', f: (e: FetchEvent) => void): void;
}
const sw = self as unknown as WorkerScope;

/** This build's offline page. */
const SHELL = `tala-shell-${__VERSION__}`;
/** Files kept by their hashed names and the drawings, across builds (a kept page needs its own). */
const FILES = 'tala-files';
/** The shop pages and API reads kept for this browser. */
const PAGES = PAGES_CACHE;
const FILES_BYTES = 40 * 1024 * 1024;
const PAGES_BYTES = 4 * 1024 * 1024;
/** How long a page or read may take before the kept copy is shown instead. */
const SLOW_MS = 4000;
/** The page shown offline for an address never kept. */
const OFFLINE = '/offline';
/** The worker's own notes: when this browser last wrote (kept across the worker's restarts). */
const STATE = 'tala-state';
const LAST_WRITE = '/last-write';
/** The session the shop pages kept were filled for (`x-session`). */
const SESSION = '/session';
/** When a member's session the pages were kept for ends unless used again (ms, this clock). */
const SESSION_ENDS = '/session-ends';

sw.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      // Fetched as nobody (no cookies): the offline page is the same for every visitor. Without
      // it the worker does not install (the browser tries again on a later visit).
      const offline = await fetch(OFFLINE, { credentials: 'omit' });
      if (!offline.ok || offline.redirected) throw new Error(`the offline page answered ${offline.status}`);
      await (await caches.open(SHELL)).put(OFFLINE, offline);
      // The first pages' files, by their hashed names, with the files kept across builds: a page
      // kept under this build still finds its own after the next. One that fails is fetched on use.
      // Not those kept from an earlier build (React's file stays from one release to the next);
      // those are kept again, as the newest, so the oldest-first trim does not drop them first.
      const files = await caches.open(FILES);
      const precache = __PRECACHE__.map((url) => new URL(url, sw.location.href).href);
      const kept = new Set((await files.keys()).map((r) => r.url));
      for (const url of precache.filter((u) => kept.has(u))) {
        const copy = await files.match(url);
        if (copy) await files.put(url, copy);
      }
      await Promise.all(
        fetchedAhead(savingData(), precache, kept).map(async (url) => {
          const res = await fetch(url, { credentials: 'omit' }).catch(() => null);
          if (res?.ok && !res.redirected) await keep(FILES, url, res, FILES_BYTES);
        }),
      );
      await sw.skipWaiting();
    })(),
  );
});

sw.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('tala-shell-') && name !== SHELL) await caches.delete(name);
      }
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener('fetch', (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (url.origin === sw.location.origin && changesSession(url, req.method)) {
    // A copy being kept meanwhile was asked for before: never shown at once after this.
    event.waitUntil(noteWrite().then(forgetShopper));
    return;
  }
  // A write (a cart change, an order, a form): the pages kept before it are no longer shown at once.
  if (url.origin === sw.location.origin && req.method !== 'GET' && req.method !== 'HEAD') {
    event.waitUntil(noteWrite());
    return;
  }
  switch (wayOf(url, sw.location.origin, req.method, req.mode)) {
    case 'kept-forever':
      event.respondWith(keptForever(event, req));
      return;
    case 'kept-refreshed':
      event.respondWith(keptRefreshed(event, req));
      return;
    case 'page':
      event.respondWith(pageAtOnce(event, req));
      return;
    case 'read':
      event.respondWith(fresh(event, req, false));
      return;
    case 'private-page':
      event.respondWith(fetch(req).catch(offlinePage));
      return;
    case 'network':
      return;
  }
});

/** Throws away what was kept for this browser and tells its open pages (they forget the cart). */
async function forgetShopper(): Promise<void> {
  await caches.delete(PAGES);
  await noteSession(null, null);
  for (const client of await sw.clients.matchAll({ includeUncontrolled: true })) {
    client.postMessage({ type: 'session-changed' });
  }
}

/** What a kept page was made for: when it was asked for, and the shopper's place then. */
interface Made {
  askedAt: number;
  place: string | null;
}

/**
 * Keeps a copy of `res` under `key` in `cacheName`, with when it was asked for, the place it was
 * made for (pages) and how big, then trims the cache.
 */
async function keep(cacheName: string, key: string, res: Response, limit: number, made?: Made): Promise<void> {
  const body = await res.arrayBuffer();
  const headers = new Headers(res.headers);
  // The body kept is the decoded one.
  headers.delete('content-encoding');
  headers.delete('content-length');
  headers.set('x-kept-at', String(made?.askedAt ?? Date.now()));
  headers.set('x-kept-build', __VERSION__);
  if (made?.place != null) headers.set('x-kept-place', made.place);
  headers.set('x-kept-bytes', String(body.byteLength));
  const cache = await caches.open(cacheName);
  await cache.put(key, new Response(body, { status: res.status, statusText: res.statusText, headers }));
  const entries = [];
  for (const k of await cache.keys()) {
    const kept = await cache.match(k);
    entries.push({ key: k, bytes: Number(kept?.headers.get('x-kept-bytes') ?? 0) });
  }
  for (const k of overLimit(entries, limit)) await cache.delete(k);
}

/** Keeps a copy of a fetched answer beside answering with it, when it may be kept. */
function keepBeside(event: FetchEvent, cacheName: string, key: string, res: Response, limit: number, made?: Made): void {
  if (!mayKeep(res)) return;
  event.waitUntil(keep(cacheName, key, res.clone(), limit, made).catch(() => undefined));
}

function mayKeep(res: Response): boolean {
  return keepable(res.status, res.headers.get('cache-control'), res.headers.get('vary'));
}

/**
 * The shopper's place now, as the gate cookies and the data saver say; null where the worker
 * cannot read the cookies.
 */
async function currentPlace(): Promise<string | null> {
  const store = sw.cookieStore;
  const cookies = store ? await store.getAll().catch(() => null) : null;
  return placeOf(cookies, Object.values(GATE_COOKIES), savingData());
}

/** When this browser last wrote through the worker, once read (0: never). */
let lastWrite: number | null = null;

async function noteWrite(): Promise<void> {
  lastWrite = Date.now();
  await (await caches.open(STATE)).put(LAST_WRITE, new Response(String(lastWrite)));
}

async function lastWriteAt(): Promise<number> {
  if (lastWrite === null) {
    const kept = await (await caches.open(STATE)).match(LAST_WRITE);
    const noted = kept ? Number(await kept.text()) || 0 : 0;
    // A write noted while the note was read wins.
    lastWrite = Math.max(lastWrite ?? 0, noted);
  }
  return lastWrite;
}

/** The session the kept pages were filled for, once read (null: none seen since they were last thrown away). */
let keptSession: string | null | undefined;

async function sessionKept(): Promise<string | null> {
  if (keptSession === undefined) {
    const kept = await (await caches.open(STATE)).match(SESSION);
    const noted = kept ? await kept.text() : null;
    // One noted while the note was read wins.
    if (keptSession === undefined) keptSession = noted;
  }
  return keptSession;
}

async function noteSession(tag: string | null, endsAt: number | null): Promise<void> {
  keptSession = tag;
  const ends = endsAt === null ? null : { endsAt, notedAt: Date.now() };
  keptSessionEnds = ends;
  const state = await caches.open(STATE);
  if (tag === null) await state.delete(SESSION);
  else await state.put(SESSION, new Response(tag));
  if (ends === null) await state.delete(SESSION_ENDS);
  else await state.put(SESSION_ENDS, new Response(writeSessionEnds(ends)));
}

/** When the kept pages' session ends, once read (null: not said, a guest's or none). */
let keptSessionEnds: SessionEnds | null | undefined;

async function sessionEnds(): Promise<SessionEnds | null> {
  if (keptSessionEnds === undefined) {
    const kept = await (await caches.open(STATE)).match(SESSION_ENDS);
    // A note that cannot be read counts as ended.
    const noted = kept ? (readSessionEnds(await kept.text()) ?? { endsAt: 0, notedAt: 0 }) : null;
    if (keptSessionEnds === undefined) keptSessionEnds = noted;
  }
  return keptSessionEnds;
}

/**
 * Throws the kept pages away when the member's session they were kept for has ended by itself
 * (rules.ts `sessionOver`): called before any kept page is shown.
 */
async function forgetEndedSession(): Promise<void> {
  if (sessionOver(await sessionEnds(), Date.now())) await forgetShopper();
}

/**
 * Follows the session a page came filled for: the pages kept for another session (ended, or
 * replaced in another way than through this worker) are thrown away before this one is kept.
 */
async function followSession(res: Response, answeredAt: number): Promise<void> {
  const answered = res.headers.get(SESSION_HEADER);
  const move = sessionMove(await sessionKept(), answered);
  if (move === 'changed') await forgetShopper();
  // A page of the session says again when it ends (it was used: later than before).
  if (move !== 'unknown') await noteSession(answered, sessionEndsAt(res.headers.get(SESSION_ENDS_HEADER), answeredAt));
}

/**
 * A shop page opened: its copy at once when it may be shown so (rules.ts `shownAtOnce`), fetched
 * again behind it; otherwise as `fresh` answers it.
 */
async function pageAtOnce(event: FetchEvent, req: Request): Promise<Response> {
  const key = req.url.split('#')[0];
  // A reload asks the store: the shopper wants the page as it is now.
  if (req.cache === 'reload' || req.cache === 'no-cache') return fresh(event, req, true, await currentPlace().catch(() => null));
  let found: [Response | undefined, string | null, number];
  try {
    await forgetEndedSession();
    found = await Promise.all([caches.open(PAGES).then((c) => c.match(key, { ignoreVary: true })), currentPlace(), lastWriteAt()]);
  } catch {
    // Storage that cannot be read (evicted, damaged): the page as if nothing were kept.
    return fresh(event, req, true, null);
  }
  const [kept, place, wrote] = found;
  const made = { askedAt: Number(kept?.headers.get('x-kept-at') ?? 0), place: kept?.headers.get('x-kept-place') ?? null };
  // A copy of another build may name files no longer kept: asked for first.
  const sameBuild = kept?.headers.get('x-kept-build') === __VERSION__;
  if (!kept || !sameBuild || !shownAtOnce(made, place, wrote, Date.now())) return fresh(event, req, true, place);
  event.waitUntil(revalidate(event, req, key, kept.headers.get('etag'), place).catch(() => undefined));
  return kept;
}

/**
 * Fetches again a page shown from its copy and keeps the fresh copy; tells the page when it
 * differs (another tag, or a page that may no longer be kept: its copy is then forgotten).
 */
async function revalidate(event: FetchEvent, req: Request, key: string, etag: string | null, place: string | null): Promise<void> {
  const askedAt = Date.now();
  const res = await fetch(req);
  let changed = true;
  if (!res.redirected) await followSession(res, Date.now());
  if (res.redirected || !mayKeep(res)) {
    await (await caches.open(PAGES)).delete(key);
  } else {
    changed = etag === null || res.headers.get('etag') !== etag;
    // Made for the place it was asked with: not kept if the shopper moved meanwhile.
    if ((await currentPlace()) === place) await keep(PAGES, key, res, PAGES_BYTES, { askedAt, place });
  }
  if (!changed || !event.resultingClientId) return;
  // The page exists once its answer started; it may still be loading.
  for (let tries = 0; tries < 10; tries++) {
    const page = await sw.clients.get(event.resultingClientId);
    if (page) {
      page.postMessage({ type: 'page-changed' });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function keptForever(event: FetchEvent, req: Request): Promise<Response> {
  const kept = await caches.match(req.url, { ignoreVary: true });
  if (kept) return kept;
  const res = await fetch(req);
  keepBeside(event, FILES, req.url, res, FILES_BYTES);
  return res;
}

async function keptRefreshed(event: FetchEvent, req: Request): Promise<Response> {
  const kept = await caches.match(req.url, { ignoreVary: true });
  const refresh = fetch(req).then((res) => {
    keepBeside(event, FILES, req.url, res, FILES_BYTES);
    return res;
  });
  if (kept) {
    event.waitUntil(refresh.catch(() => undefined));
    return kept;
  }
  return refresh;
}

/**
 * A page or read from the network, kept when it may be; the copy when the link is dead, or when it
 * is stalled past SLOW_MS (the fetch goes on and refreshes the copy).
 */
async function fresh(event: FetchEvent, req: Request, page: boolean, place: string | null = null): Promise<Response> {
  const key = req.url.split('#')[0];
  const askedAt = Date.now();
  const network = fetch(req).then((res) => {
    // A page that went elsewhere (a guard's redirect) is kept under the address it ended at.
    if (res.redirected) return res;
    if (!page) {
      keepBeside(event, PAGES, key, res, PAGES_BYTES);
      return res;
    }
    // Whose the page is, before it is kept with the others.
    const copy = mayKeep(res) ? res.clone() : null;
    event.waitUntil(
      followSession(res, Date.now())
        .then(() => (copy ? keep(PAGES, key, copy, PAGES_BYTES, { askedAt, place }) : undefined))
        .catch(() => undefined),
    );
    return res;
  });
  event.waitUntil(network.catch(() => undefined));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const slow = new Promise<'slow'>((resolve) => {
    timer = setTimeout(() => resolve('slow'), SLOW_MS);
  });
  try {
    const first = await Promise.race([network, slow]);
    if (first !== 'slow') return first;
    const copy = await keptCopy(key, page, false);
    return copy ?? (await network);
  } catch {
    const copy = await keptCopy(key, page, true);
    if (copy) return copy;
    if (!page) {
      return new Response(JSON.stringify({ error: 'You are offline.' }), {
        status: 503,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '10' },
      });
    }
    return offlinePage();
  } finally {
    clearTimeout(timer);
  }
}

/** The copy kept under `key`: a page with the bar that says it is a copy, a read as it was. */
async function keptCopy(key: string, page: boolean, offline: boolean): Promise<Response | null> {
  await forgetEndedSession();
  const cache = await caches.open(PAGES);
  const kept = await cache.match(key, { ignoreVary: true });
  if (!kept) return null;
  if (!page) return kept;
  const savedAt = Number(kept.headers.get('x-kept-at') ?? Date.now());
  const path = new URL(key).pathname + new URL(key).search;
  const html = withStaleBar(await kept.text(), staleNotice(savedAt, Date.now(), offline), path);
  return new Response(html, { status: 200, headers: kept.headers });
}

/** Whether the browser says its user saves data (Chromium's NetworkInformation, in workers too). */
function savingData(): boolean {
  return (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
}

/** The offline page this build keeps (it lists the pages kept: none of a session that has ended). */
async function offlinePage(): Promise<Response> {
  await forgetEndedSession().catch(() => undefined);
  return (await caches.match(OFFLINE, { cacheName: SHELL })) ?? offlineText();
}

/** When even the offline page is not kept (the worker's first install failed): words alone. */
function offlineText(): Response {
  return new Response(
    '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>You are offline</title><h1>You are offline</h1><p>Tala Brewing Co. will open again when your connection is back.</p><p><a href="/buy-beer">Try again</a></p></html>',
    { status: 503, headers: { 'Content-Type': 'text/html; charset=utf-8', 'Retry-After': '10' } },
  );
}
