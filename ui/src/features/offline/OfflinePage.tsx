import { useEffect, useState, useSyncExternalStore } from 'react';
import { count, useShowLastSeen } from '../cart';
import { useHydrated } from '../../page';
import { formatPhp } from '../../lib/money';
import { lastCartNow, watchLastCart, type LastCart } from './last-cart';
import { PAGES_CACHE } from './rules';

// The page the service worker shows for an address it has no copy of while the link is down: what
// still works, the pages this browser can open again, and the cart as it was last seen.

interface KeptPage {
  href: string;
  title: string;
}

function unescapeHtml(s: string): string {
  return new DOMParser().parseFromString(s, 'text/html').documentElement.textContent ?? s;
}

/** The shop pages the worker kept for this browser, by their titles. */
async function keptPages(): Promise<KeptPage[]> {
  if (typeof caches === 'undefined') return [];
  const cache = await caches.open(PAGES_CACHE);
  const pages: KeptPage[] = [];
  for (const req of await cache.keys()) {
    const url = new URL(req.url);
    if (url.pathname.startsWith('/api/')) continue;
    const res = await cache.match(req);
    const title = /<title>([^<]*)<\/title>/.exec((await res?.text()) ?? '')?.[1] ?? url.pathname;
    pages.push({ href: url.pathname + url.search, title: unescapeHtml(title).replace(/ \| Tala Brewing Co\.$/, '') });
  }
  return pages.sort((a, b) => a.title.localeCompare(b.title));
}

function time(at: number): string {
  return new Date(at).toLocaleString('en-PH', { dateStyle: 'medium', timeStyle: 'short' });
}

export function OfflinePage() {
  const hydrated = useHydrated();
  const [pages, setPages] = useState<KeptPage[] | null>(null);
  // Undefined until read (the server's page, and hydration): the cart is read at once from the one
  // place the app keeps it, not after the kept pages are looked through; the header counts it.
  const cart = useSyncExternalStore<LastCart | null | undefined>(watchLastCart, lastCartNow, () => undefined);
  const showLastSeen = useShowLastSeen();
  useEffect(() => {
    if (cart) showLastSeen(cart.count ?? cart.items.length);
  }, [cart, showLastSeen]);
  useEffect(() => {
    keptPages().then(setPages, () => setPages([]));
  }, []);
  return (
    <article className="prose">
      <h1>You are offline</h1>
      <p>
        Your phone has lost its connection to the store. Pages you have opened before still open, with a note of when you
        saw them; your cart is kept by the store and waits for you.
      </p>
      <p>
        {/* The address asked for (this page stands in for any) opened again; before the script runs,
            the shop, as the worker's own last-resort page does. */}
        <a className="button" href={hydrated ? location.pathname + location.search : '/buy-beer'}>
          Try again
        </a>
      </p>
      <h2>Your cart as you last saw it</h2>
      {cart === undefined ? (
        <p>Looking for your cart…</p>
      ) : cart ? (
        <>
          <p>As of {time(cart.savedAt)}: prices and stock may have changed since.</p>
          <ul>
            {cart.items.map((i) => (
              <li key={i.slug}>
                {i.name}: {count(i.quantity, i.unit)}, {formatPhp(i.total)}
              </li>
            ))}
          </ul>
          <p>
            Subtotal: <strong>{formatPhp(cart.subtotal)}</strong>. You can check out when you are back online.
          </p>
        </>
      ) : (
        <p>This browser has not seen a cart with something in it.</p>
      )}
      <h2>Pages you can open</h2>
      {pages === null ? (
        <p>Looking for the pages you have opened…</p>
      ) : pages.length === 0 ? (
        <p>None yet: pages you open while online can be opened again here.</p>
      ) : (
        <ul>
          {pages.map((p) => (
            <li key={p.href}>
              <a href={p.href}>{p.title}</a>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
