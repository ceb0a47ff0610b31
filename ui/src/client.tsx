import { hydrate } from '@tanstack/react-query';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './App';
import { makeQueryClient } from './lib/api';
import type { RenderInput } from './lib/render-input';
import { loadPage, routeNamed } from './routes';
import { startOffline } from './features/offline';
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
startOffline(client, input.visitor?.shared ? null : input.visitor?.cart, Boolean(input.member));

const { state: _state, gate, ssr, ...page } = input;
const root = document.getElementById('root')!;
// The page's own chunk first (the server's HTML preloads it), so the first render is the
// server's: hydration matches, with no fallback in between. Until then the page is the server's
// HTML, which works without JavaScript.
const route = routeNamed(page.route);
loadPage(route).then(
  () => {
    const app = <App page={page} route={route} gate={gate} client={client} />;
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
