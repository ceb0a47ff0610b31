// The server entry: bundled by ui/build.mjs into ssr-bundle/dist/server.js and evaluated once per
// QuickJS runtime by crates/ssr. `render` takes the render input as JSON and answers the HTML of
// the page body.
import './polyfills';
import { hydrate } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { App } from '../../ui/src/App';
import { makeQueryClient } from '../../ui/src/lib/api';
import type { RenderInput } from '../../ui/src/lib/render-input';

function render(json: string): string {
  const { state, ...page } = JSON.parse(json) as RenderInput;
  const client = makeQueryClient();
  hydrate(client, state);
  try {
    return renderToString(<App page={page} client={client} />);
  } finally {
    client.clear();
  }
}

(globalThis as Record<string, unknown>).render = render;
