// The server entry: bundled by ui/build.mjs into ssr-bundle/dist/server.js and evaluated once per
// QuickJS runtime by crates/ssr. `render` takes the render input as JSON and answers JSON:
// `{html, head}`, the body HTML and what the page asked for in <head> (title, JSON-LD...).
// Every page is in this bundle (the routes' dynamic imports are inlined) and loaded at evaluation
// (a few promise jobs: crates/ssr runs them before the first render), so a render is synchronous.
import { hydrate } from '@tanstack/react-query';
// React's synchronous renderer (ui/build.mjs resolves this to react-dom's legacy server build).
import { renderToString } from 'react-dom/server';
import { App } from '../../ui/src/App';
import { HeadContext } from '../../ui/src/head';
import { makeQueryClient } from '../../ui/src/lib/api';
import type { Head, RenderInput, RenderOutput } from '../../ui/src/lib/render-input';
import { parts, type PartInput } from '../../ui/src/parts';
import { loadPage, notFoundRoute, routeNamed, routes } from '../../ui/src/routes';

/** Why a render cannot run yet: the pages are loading, or one failed to load. */
let notReady: unknown = new Error('render before the pages were loaded: run the pending jobs after evaluating the bundle');
Promise.all([...routes, notFoundRoute].map(loadPage)).then(
  () => {
    notReady = null;
  },
  (error: unknown) => {
    notReady = error;
  },
);

function render(json: string): string {
  if (notReady) throw notReady;
  const input = JSON.parse(json) as RenderInput | PartInput;
  // A part of a page on its own (the cart drawer's body): `{html}`.
  if ('part' in input) {
    const part = parts[input.part];
    return JSON.stringify({ html: part ? renderToString(part(input)) : '' });
  }
  const { state, gate, ...page } = input;
  const client = makeQueryClient();
  hydrate(client, state);
  const head: Head = {};
  try {
    const html = renderToString(
      <HeadContext.Provider value={head}>
        <App page={page} route={routeNamed(page.route)} gate={gate} client={client} />
      </HeadContext.Provider>,
    );
    const out: RenderOutput = { html, head };
    return JSON.stringify(out);
  } finally {
    client.clear();
  }
}

(globalThis as Record<string, unknown>).render = render;
