import { hydrate } from '@tanstack/react-query';
import { createRoot, hydrateRoot } from 'react-dom/client';
import type { ReactElement } from 'react';
import { App } from './App';
import { makeQueryClient } from './lib/api';
import type { RenderInput } from './lib/render-input';
import { loadPage, routeNamed } from './routes';
import { startOffline } from './features/offline/register';

const stateEl = document.getElementById('__STATE__');
const input = JSON.parse(stateEl?.textContent ?? '{}') as RenderInput & { ssr: boolean };
const client = makeQueryClient();
// The server's state carries timestamps of the data, not of this visit: count it fresh from now
// so the page does not refetch what it already holds.
const now = Date.now();
for (const q of input.state?.queries ?? []) q.state.dataUpdatedAt = now;
hydrate(client, input.state);
startOffline(client, input.visitor?.shared ? null : input.visitor?.cart, Boolean(input.member));

/**
 * Hydrates `root`, saying on the console where the first render differs from the server's page.
 * Preact (build.mjs: `react-dom` is preact/compat) reports no mismatch: where its render and the
 * server's nodes differ it makes elements of its own, drops the server's and moves what follows.
 * Hydration runs at once and its effects' renders only after it, so an element added or removed,
 * or a text changed, while it runs is such a difference (a text split in two is not: the server
 * writes adjacent texts as one). The browser tests fail on the message, as they did on React's.
 */
function hydrateWatched(root: HTMLElement, app: ReactElement) {
  const watch = new MutationObserver(() => {});
  watch.observe(root, { childList: true, subtree: true });
  const text = root.textContent ?? '';
  hydrateRoot(root, app);
  // A text that differs Preact quietly rewrites: the page's whole text tells (a text split in two
  // reads the same).
  const now = root.textContent ?? '';
  if (now !== text) {
    let at = 0;
    while (at < text.length && text[at] === now[at]) at += 1;
    const near = (s: string) => JSON.stringify(s.slice(Math.max(0, at - 30), at + 30));
    console.error(`hydration mismatch: the first render changed the page's text: ${near(text)} became ${near(now)}`);
  }
  const changed: string[] = [];
  for (const r of watch.takeRecords()) {
    const where = r.target instanceof Element ? `${r.target.localName}${r.target.id ? `#${r.target.id}` : ''}` : '#text';
    for (const n of r.removedNodes) if (n instanceof Element) changed.push(`-${n.localName} in ${where}`);
    for (const n of r.addedNodes) if (n instanceof Element) changed.push(`+${n.localName} in ${where}`);
  }
  watch.disconnect();
  if (changed.length > 0) console.error('hydration mismatch: the first render changed the server\'s elements:', changed.join(', '));
}

const { state: _state, gate, ssr, ...page } = input;
const root = document.getElementById('root')!;
// The page's own chunk first (the server's HTML preloads it), so the first render is the
// server's: hydration matches, with no fallback in between. Until then the page is the server's
// HTML, which works without JavaScript.
loadPage(routeNamed(page.route)).then(
  () => {
    const app = <App page={page} gate={gate} client={client} />;
    if (ssr) {
      hydrateWatched(root, app);
    } else {
      createRoot(root).render(app);
    }
  },
  (error: unknown) => console.error('the page could not be loaded:', error),
);
