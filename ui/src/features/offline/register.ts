// The page's side of working offline: registers the service worker (worker.ts, served as /sw.js)
// once the page has loaded, keeps a guest's cart as last seen for the offline page, forgets it
// when the worker says the session changed hands or a member's page opens, offers the new page
// when the worker says the copy it showed at once has changed, and asks again for a member's page
// brought back by Back.

import type { QueryClient } from '@tanstack/react-query';
import type { CartAnswer } from '../../api/contract.gen';
import { forgetLastCart, saveLastCart } from './last-cart';
import { CHANGED_LINK, CHANGED_NOTICE } from './rules';

function isCart(data: unknown): data is CartAnswer {
  return typeof data === 'object' && data !== null && Array.isArray((data as CartAnswer).shopping_cart) && typeof (data as CartAnswer).cart_order_summary === 'object';
}

/**
 * Starts keeping a guest's cart as last seen (from `cart`, the page's own, then every cart the
 * page's queries hold: the cart's query, and the latest answer of a change, `cart:latest`), and the
 * worker. A guest's cart is the browser's (its cookie names it): anyone at this browser sees it
 * online too. A member's is never kept on the device, and what a guest kept is forgotten once a
 * member's page opens, so a shared phone shows nobody's cart to the next person.
 */
export function startOffline(client: QueryClient, cart: CartAnswer | null | undefined, member: boolean): void {
  if (member) forgetLastCart();
  else if (cart) saveLastCart(cart);
  if (member) window.addEventListener('pageshow', (e) => e.persisted && askAgain());
  client.getQueryCache().subscribe((event) => {
    if (member || event.type !== 'updated' || event.query.state.status !== 'success') return;
    const key = String(event.query.queryKey[0] ?? '');
    const data = event.query.state.data as unknown;
    const answer = key === 'cart:latest' ? (data as { answer?: unknown } | undefined)?.answer : key.startsWith('/api/v1/cart') ? data : null;
    if (isCart(answer)) saveLastCart(answer);
  });
  // Back online: what the page holds may be a kept copy's; it is asked for again.
  window.addEventListener('online', () => void client.invalidateQueries());
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (e: MessageEvent) => {
    const type = (e.data as { type?: string } | null)?.type;
    if (type === 'session-changed') forgetLastCart();
    if (type === 'page-changed') offerNewPage();
  });
  // Messages the worker sent while the page loaded are delivered from here on.
  navigator.serviceWorker.startMessages();
  const register = () => {
    navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => console.warn('the offline worker could not start:', error));
  };
  // After the page's own loading: the worker's first fetches never compete with the page's.
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

/**
 * A member's page brought back by Back or Forward from the browser's memory (its back/forward
 * cache, which keeps a page that may be kept) is hidden at once and opened again as any page is:
 * the store, or the worker's copy for the session at the browser now (it threw the last one's
 * away at sign-out, and when it ended). Whoever holds the phone after a sign-out never sees the
 * member's name by pressing Back; the member sees their page again a moment later.
 */
function askAgain(): void {
  document.documentElement.style.visibility = 'hidden';
  location.replace(location.href);
}

/**
 * The page was shown at once from the worker's copy and the store's page has changed since: a bar
 * at the top (outside the hydrated root, as the offline copy's) says so and links to the new page,
 * which the worker now holds. Never a reload under the shopper's hands.
 */
function offerNewPage(): void {
  if (document.querySelector('[data-changed-copy]')) return;
  const bar = document.createElement('div');
  bar.className = 'offline-bar';
  bar.setAttribute('role', 'status');
  bar.setAttribute('data-changed-copy', '');
  document.body.prepend(bar);
  const link = document.createElement('a');
  link.href = location.pathname + location.search;
  link.textContent = CHANGED_LINK;
  // Filled once the live region is in the page, so that screen readers announce it.
  setTimeout(() => bar.append(`${CHANGED_NOTICE} `, link), 100);
}
