// The route table, read by the server and the client alike. Each feature declares its pages in its
// own `features/<feature>/pages.ts` (path, guard, query parameters, data, component, actions: see
// lib/route.ts); the build lists those files in `pages.gen.ts`, and the table is their routes by
// `order`, then the maintenance page's. A route's data are the key templates of the features'
// queries, which the server fills from the request and runs in process; its component loads by a
// dynamic import (in the browser each page is a chunk of its own, fetched with the page; the
// server bundle holds them all). The build writes everything but the loaders to dist/routes.json
// for the server, and to dist/manifest.json each route's chunks (the page preloads them), so
// server and client never disagree on a route.

import { addressesQuery } from './features/accounts/queries';
import { maintenanceRoute } from './features/content/pages';
import { gateQueries } from './features/gate/queries';
import type { ComponentType } from 'react';
import { loadPage as loadPageAlone, route, routeIn, type FeaturePage, type RouteDef } from './lib/route';
import { loadLazyParts } from './page';
import { featurePages } from './pages.gen';

export { pageOf } from './lib/route';
export type { Action, Guard, PageLoader, RouteDef } from './lib/route';

/**
 * What the open gate lists: the server loads these for the gate it opens (`savedAddresses`: a
 * member's location gate offers their saved addresses).
 */
export const GATE_KEYS = {
  ...(Object.fromEntries(Object.entries(gateQueries).map(([name, q]) => [name, q.template])) as Record<keyof typeof gateQueries, string>),
  savedAddresses: addressesQuery.template,
};

/** The features' routes by their `order`; two pages with one order would leave it to chance. */
function inOrder(pages: FeaturePage[]): RouteDef[] {
  const sorted = [...pages].sort((a, b) => a.order - b.order);
  sorted.forEach((p, i) => {
    if (i > 0 && sorted[i - 1].order === p.order) {
      throw new Error(`the pages ${sorted[i - 1].route.name} and ${p.route.name} have the same order ${p.order}`);
    }
  });
  return sorted.map((p) => p.route);
}

export const routes: RouteDef[] = inOrder(featurePages);

// What every page shows while the store is under maintenance (and at /maintenance): the content
// feature declares it, and it comes last.
routes.push(maintenanceRoute);
export { maintenanceRoute };

export const notFoundRoute: RouteDef = route(
  'not-found',
  '', () => import('./components/NotFound').then((m) => m.NotFound),
  'Page not found',
  'The page you were looking for is not here.',
  [],
  { sitemap: false },
);

/**
 * Loads a route's page, then every part of a page in a chunk of its own (page.tsx, `lazyPart`):
 * the server bundle (and a test) renders synchronously whatever a page shows. The browser loads
 * the page alone (ui/build.mjs, its routes), and of the parts only those the page's first render
 * shows (client.tsx).
 */
export async function loadPage(pageRoute: Pick<RouteDef, 'load'>): Promise<ComponentType> {
  const page = await loadPageAlone(pageRoute);
  await loadLazyParts();
  return page;
}

/** The route the server rendered a page for (its `route`), the not-found page for another name. */
export function routeNamed(name: string): RouteDef {
  return routeIn(routes, notFoundRoute, name);
}

/**
 * The route the server rendered a page for, as client.tsx finds it. The browser's is found in the
 * page's chunk, which the page preloads (ui/build.mjs: no table of every route in the first load).
 */
export async function routeOf(name: string): Promise<RouteDef> {
  return routeNamed(name);
}
