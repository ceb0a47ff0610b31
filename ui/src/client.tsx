import { hydrate, type QueryCacheNotifyEvent } from '@tanstack/react-query';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App';
import { makeQueryClient } from './lib/api';
import type { RenderInput } from './lib/render-input';
import { loadLazyParts } from './page';
import { loadPage, routeOf } from './routes';
import { cartAnswered } from './features/cart';
import { startWaiting } from './api/waiting';

const stateEl = document.getElementById('__STATE__');
const input = JSON.parse(stateEl?.textContent ?? '{}') as RenderInput & { ssr: boolean };
const client = makeQueryClient();
// The server's state carries timestamps of the data, not of this visit: count it fresh from now
// so the page does not refetch what it already holds.
const now = Date.now();
for (const q of input.state?.queries ?? []) q.state.dataUpdatedAt = now;
hydrate(client, input.state);
// Writes a page before left waiting are sent from here; their answers go to their feature (an
// order's and a page form's fetched when one comes: no page's first load carries them).
startWaiting(
  client,
  {
    cart: cartAnswered,
    order: (c, w, a) => void import('./features/orders').then((m) => m.orderAnswered(c, w, a)),
    form: (c, w, a) => void import('./components/form').then((m) => m.formAnswered(c, w, a)),
  },
  input.csrf ?? '',
);

/**
 * The offline side (features/offline: the cart as last seen, the worker's registration and its
 * messages) is a chunk of its own, fetched once the page has hydrated and the browser is idle: out
 * of the first load. What it listens to from the page's start is heard here until then and handed
 * to it as it starts: the worker's messages (delivered from the end of the page's parsing on, to
 * whoever listens then), a page brought back from the browser's memory, and the answers the page's
 * queries took meanwhile (a cart changed). Answers the function that fetches and starts it.
 */
function offlineLater(): () => void {
  // Copies, to be dispatched again (an event dispatched once is not dispatched twice).
  const heard: Event[] = [];
  const hear = (e: Event) =>
    void heard.push(e instanceof MessageEvent ? new MessageEvent(e.type, { data: e.data }) : new PageTransitionEvent(e.type, { persisted: (e as PageTransitionEvent).persisted }));
  const worker = 'serviceWorker' in navigator ? navigator.serviceWorker : null;
  worker?.addEventListener('message', hear);
  window.addEventListener('pageshow', hear);
  const cache = client.getQueryCache();
  const answered: QueryCacheNotifyEvent[] = [];
  const unheard = cache.subscribe((e) => void (e.type === 'updated' && answered.push(e)));
  const start = ({ startOffline }: typeof import('./features/offline')) => {
    worker?.removeEventListener('message', hear);
    window.removeEventListener('pageshow', hear);
    unheard();
    startOffline(client, input.visitor?.shared ? null : input.visitor?.cart, Boolean(input.member));
    for (const e of answered) cache.notify(e);
    for (const e of heard) (e.type === 'message' ? worker : window)?.dispatchEvent(e);
  };
  // A chunk that could not be fetched (the link dropped) is asked for again a while later.
  const load = (): void =>
    void import('./features/offline').then(start, (error: unknown) => {
      console.warn('the offline side could not start yet:', error);
      setTimeout(load, 10_000);
    });
  return load;
}
const offline = offlineLater();

const { state: _state, gate, ssr, ...page } = input;
const root = document.getElementById('root')!;
/**
 * Once the page has hydrated, when the browser is idle: the offline side; and once the page's own
 * loading is done too, what the page may show later in chunks of their own (a gate's steps, the
 * cart's Error modal: page.tsx, `lazyPart`), so that it opens at once, and on a link that dropped
 * meanwhile. Neither competes with the page's start.
 */
function afterHydrating() {
  whenIdle(offline);
  const later = () => void loadLazyParts().catch(() => undefined);
  if (document.readyState === 'complete') whenIdle(later);
  else window.addEventListener('load', () => whenIdle(later), { once: true });
}

function whenIdle(then: () => void) {
  if ('requestIdleCallback' in window) window.requestIdleCallback(then);
  else setTimeout(then, 500);
}

/** The route the server rendered the page for, its page loaded (its chunk, which the page preloads). */
async function pageRoute() {
  const route = await routeOf(page.route);
  await loadPage(route);
  return route;
}

// The page's own chunk first (the server's HTML preloads it), and the parts in chunks of their own
// that the server's HTML holds (an open gate's step), so the first render is the server's:
// hydration matches, with no fallback in between. Until then the page is the server's HTML, which
// works without JavaScript. A part that cannot be fetched keeps the server's HTML until it can.
Promise.all([pageRoute(), loadLazyParts(input).catch(() => undefined)]).then(
  ([route]) => {
    const app = <App page={page} route={route} gate={gate} client={client} onHydrated={afterHydrating} />;
    if (ssr) {
      // React says where its first render differs from the server's HTML (and then renders that
      // part afresh): the browser tests fail on the message (e2e/hydration.test.mjs).
      hydrateRoot(root, app, {
        onRecoverableError: (error) => console.error('hydration mismatch:', error),
      });
    } else {
      createRoot(root).render(app);
    }
  },
  (error: unknown) => console.error('the page could not be loaded:', error),
);
